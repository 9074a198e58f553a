"""History comes from the configured archive, end to end through the command line.

With EPICS and no archiver configured a history request is refused in words that say what to
set; with an Archiver Appliance (a local server on 127.0.0.1 answering the Appliance's JSON)
the plotted history is the Appliance's, never the simulated ring's.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pytest

from tests.connectors.appliance_server import ApplianceServer, sample, serve
from tests.support.cli_env import run_cli

pytestmark = pytest.mark.timeout(120)

ASK = "plot the beam current over the last hour"


def write_config(home: Path, text: str) -> None:
    folder = home / "config" / "osprey-desktop"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(text, encoding="utf-8")


@pytest.fixture
def appliance() -> ApplianceServer:
    yield from serve()


def test_epics_without_an_archiver_refuses_history_and_names_the_setting(isolated_config):
    write_config(isolated_config, "control_system:\n  type: epics\n")
    result = run_cli(isolated_config, "ask", ASK, "--json")
    turn = json.loads(result.stdout)
    shown = json.dumps(turn)
    assert "No archiver is configured for the EPICS control system" in shown, shown
    assert "type: archiver_appliance" in shown and "Set the archiver section" in shown
    assert not any("ARCHIVER_DATA" in key for key in turn.get("context_keys") or [])


def test_epics_history_comes_from_the_configured_appliance(isolated_config, appliance):
    now = time.time()
    fake = appliance.fake
    fake.archived["SR:DCCT:Current"] = [
        sample(now - 1800, 23.5),
        sample(now - 1200, math.nan, severity=3, status=17),
        sample(now - 600, 24.0, severity=1, status=4),
    ]
    fake.meta["SR:DCCT:Current"] = {"EGU": "mA", "PREC": "1"}
    write_config(
        isolated_config,
        "control_system:\n  type: epics\n"
        f"archiver:\n  type: archiver_appliance\n  archiver_appliance:\n"
        f"    url: {appliance.retrieval_url}\n",
    )
    result = run_cli(isolated_config, "ask", ASK, "--json")
    assert result.returncode == 0, result.stderr + result.stdout
    turn = json.loads(result.stdout)
    assert "ARCHIVER_DATA.archiver_retrieval_1" in turn["context_keys"], turn
    assert "23.5" in turn["response"] and "24" in turn["response"], turn["response"]
    (request,) = fake.data_requests()
    assert request.query["pv"] == ["optimized_2000(SR:DCCT:Current)"]
    uris = [c["launch_uri"] for c in turn["launchable_commands"]]
    viewer = appliance.retrieval_url + "/ui/viewer/archViewer.html?pv=SR%3ADCCT%3ACurrent"
    assert any(uri.startswith(viewer) for uri in uris), uris
