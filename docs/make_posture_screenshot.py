"""Take ``docs/screenshot-posture.png``: the real window, read-only on EPICS, under a desktop.

Starts a virtual X server (Xvfb) with a window manager (openbox, which draws the title bar),
the demo IOC on free loopback ports, and ``osprey-desktop run --read-only`` with
``control_system.type: epics`` and EPICS writes armed (read-only wins). It types a read and a
write as an operator would (xdotool), then grabs the whole screen (ImageMagick ``import``):
the title bar and the status bar show the posture, the chat shows the refused write.

Run: ``.venv/bin/python docs/make_posture_screenshot.py [OUT.png]`` (Debian packages: xvfb,
openbox, xdotool, imagemagick). Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SIZE = "1500x940"
REQUESTS = ("read the beam current", "set HCM01 to 1.5 A")


def wait_for(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.2)


def free_display() -> str:
    for number in range(90, 140):
        if (
            not Path(f"/tmp/.X11-unix/X{number}").exists()
            and not Path(f"/tmp/.X{number}-lock").exists()
        ):
            return f":{number}"
    raise RuntimeError("no free X display number between :90 and :139")


def main() -> int:
    from osprey_desktop.connectors.demo_ioc_process import DemoIocProcess

    for tool in ("Xvfb", "openbox", "xdotool", "import"):
        if shutil.which(tool) is None:
            print(f"{tool} is missing (apt-get install xvfb openbox xdotool imagemagick)")
            return 2
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshot-posture.png"
    started: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        display = free_display()
        env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM",)}
        env.update(
            DISPLAY=display,
            HOME=str(tmp),
            XDG_CONFIG_HOME=str(tmp / "config"),
            XDG_STATE_HOME=str(tmp / "state"),
            OSPREY_DESKTOP_DATA_DIR=str(tmp / "data"),
        )
        ioc = DemoIocProcess(extra_env={"OSPREY_DESKTOP_DATA_DIR": str(tmp / "ioc")})
        try:
            started.append(
                subprocess.Popen(
                    ["Xvfb", display, "-screen", "0", f"{SIZE}x24", "-nolisten", "tcp"]
                )
            )
            wait_for(lambda: Path(f"/tmp/.X11-unix/X{display[1:]}").exists(), 10, "Xvfb")
            started.append(subprocess.Popen(["openbox"], env=env, stderr=subprocess.DEVNULL))
            ioc.start()
            env.update(ioc.client_environment)
            config = tmp / "epics.yaml"
            config.write_text(
                "control_system:\n  type: epics\n  epics:\n    writes_enabled: true\n"
            )
            app = subprocess.Popen(
                [sys.executable, "-m", "osprey_desktop", "--config", str(config), "run"]
                + ["--read-only"],
                env=env,
                cwd=tmp,
            )
            started.append(app)

            def window_id() -> str:
                found = subprocess.run(
                    ["xdotool", "search", "--onlyvisible", "--name", "Osprey Desktop"],
                    capture_output=True,
                    text=True,
                    env=env,
                )
                return found.stdout.split()[0] if found.stdout.split() else ""

            wait_for(lambda: bool(window_id()), 60, "the window")
            wid = window_id()
            subprocess.run(["xdotool", "windowsize", wid, "1480", "900"], env=env, check=True)
            subprocess.run(["xdotool", "windowmove", wid, "10", "30"], env=env, check=True)
            time.sleep(4)  # the session opens after the first paint
            for text in REQUESTS:
                subprocess.run(["xdotool", "windowactivate", "--sync", wid], env=env, check=True)
                subprocess.run(["xdotool", "type", "--delay", "20", text], env=env, check=True)
                subprocess.run(["xdotool", "key", "Return"], env=env, check=True)
                time.sleep(6)
            subprocess.run(["import", "-window", "root", str(out)], env=env, check=True)
            print(f"saved {out}")
        finally:
            for proc in reversed(started):
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            ioc.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
