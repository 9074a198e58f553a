"""The demo IOC keeps its setpoints in its data folder across restarts (and only there)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from osprey_desktop.connectors.demo_ioc_process import DemoIocProcess
from osprey_desktop.connectors.epics import EpicsControlSystemConnector
from tests.support.waiting import value_when

pytestmark = [pytest.mark.ioc, pytest.mark.timeout(90)]

VCM09 = "SR03C:VCM09:Current:SP"


async def read_through(ioc: DemoIocProcess, monkeypatch, database, name: str) -> float:
    for key, value in ioc.client_environment.items():
        monkeypatch.setenv(key, value)
    connector = EpicsControlSystemConnector(timeout=3.0, database=database)
    await connector.connect()
    try:
        return float((await connector.read_channel(name)).value)
    finally:
        await connector.disconnect()


async def test_a_setpoint_written_to_the_ioc_is_served_again_after_a_restart(
    tmp_path: Path, monkeypatch, database
):
    data = tmp_path / "ioc-data"
    with DemoIocProcess(extra_env={"OSPREY_DESKTOP_DATA_DIR": str(data)}) as ioc:
        for key, value in ioc.client_environment.items():
            monkeypatch.setenv(key, value)
        connector = EpicsControlSystemConnector(timeout=3.0, database=database)
        await connector.connect()
        result = await connector.write_channel(VCM09, -0.75, verification="callback")
        await connector.disconnect()
        assert result.outcome == "verified", result.message
    assert json.loads((data / "sim_machine.json").read_text())["setpoints"] == {VCM09: -0.75}

    with DemoIocProcess(extra_env={"OSPREY_DESKTOP_DATA_DIR": str(data)}) as again:
        assert await read_through(again, monkeypatch, database, VCM09) == -0.75
        # the restored history goes on where it stopped: a restart within the magnet's
        # settling time sees the readback still on its way to the setpoint, never elsewhere
        readback = await value_when(
            lambda: read_through(again, monkeypatch, database, VCM09.replace(":SP", ":RB")),
            lambda value: value == pytest.approx(-0.75, abs=0.01),
            "the restored readback settled at the saved setpoint",
        )
        assert readback == pytest.approx(-0.75, abs=0.01)


def test_without_a_data_folder_the_ioc_gets_a_temporary_one_removed_on_stop():
    ioc = DemoIocProcess().start()
    try:
        folder = ioc.data_dir
        assert folder is not None and folder.is_dir() and folder.name.startswith("osprey-demo-ioc-")
    finally:
        ioc.stop()
    assert not folder.exists() and ioc.data_dir is None
