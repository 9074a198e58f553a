"""``osprey-desktop demo-ioc``: serve the simulated ring over EPICS Channel Access.

Binds to 127.0.0.1 and keeps beacons on loopback unless told otherwise, so it can run on any
machine without talking to a real control-system network. Stops on Ctrl+C or SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import os
import signal

from osprey_desktop.cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, fail


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "demo-ioc",
        help="serve the simulated machine over EPICS Channel Access on 127.0.0.1",
        description="Serve every channel of the simulated storage ring as an EPICS Channel "
        "Access PV (caproto server). Point the EPICS connector at it with "
        "control_system.type: epics and EPICS_CA_ADDR_LIST=127.0.0.1 EPICS_CA_AUTO_ADDR_LIST=NO.",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help="Channel Access server port (default: $EPICS_CAS_SERVER_PORT, else 5064)",
    )
    parser.add_argument(
        "--interface",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; beacons then stay on loopback too)",
    )
    parser.add_argument(
        "--rate", type=float, default=2.0, help="updates per second of the read-only PVs"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the simulated machine")
    return parser


def _ioc_environment(interface: str, port: int | None) -> dict[str, str]:
    from osprey_desktop.connectors.demo_ioc import loopback_environment

    env = loopback_environment(interface, server_port=port)
    if not ipaddress.ip_address(interface).is_loopback:
        # A real interface: keep whatever beacon settings the site has configured.
        for key in ("EPICS_CAS_BEACON_ADDR_LIST", "EPICS_CAS_AUTO_BEACON_ADDR_LIST"):
            env[key] = os.environ.get(key, env[key])
    for key in ("EPICS_CA_ADDR_LIST", "EPICS_CA_AUTO_ADDR_LIST"):
        env.pop(key)  # client settings: not the server's business
    return env


def run(args: argparse.Namespace) -> int:
    try:
        ipaddress.ip_address(args.interface)
    except ValueError:
        return fail(
            "demo-ioc", f"--interface needs an IP address, got {args.interface!r}", EXIT_USAGE
        )
    if args.port is not None and not 0 < args.port < 65536:
        return fail("demo-ioc", f"--port must be 1-65535, got {args.port}", EXIT_USAGE)
    if args.rate <= 0:
        return fail("demo-ioc", f"--rate must be positive, got {args.rate}", EXIT_USAGE)
    os.environ.update(_ioc_environment(args.interface, args.port))

    from osprey_desktop.connectors.demo_ioc import announce_ready, serve
    from osprey_desktop.connectors.factory import get_configured_channel_database, sim_state_path
    from osprey_desktop.connectors.sim_machine import SimMachine

    # the same setpoints file as the in-process ring: one simulated machine across processes
    machine = SimMachine(
        get_configured_channel_database(), seed=args.seed, state_file=sim_state_path()
    )
    channels = len(machine.database)

    async def main() -> None:
        task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        if task is not None and hasattr(signal, "SIGTERM"):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(signal.SIGTERM, task.cancel)
        await serve(
            machine,
            interfaces=[args.interface],
            update_rate=args.rate,
            on_ready=lambda port: announce_ready(port, channels, [args.interface]),
        )

    try:
        asyncio.run(main())
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass
    except OSError as exc:
        return fail("demo-ioc", f"cannot serve on {args.interface}: {exc}", EXIT_FAILED)
    print("demo IOC stopped", flush=True)
    return EXIT_OK
