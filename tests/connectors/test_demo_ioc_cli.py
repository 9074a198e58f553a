"""``osprey-desktop demo-ioc`` arguments and the network environment it serves with."""

from __future__ import annotations

import argparse

import pytest

from osprey_desktop.cli import demo_ioc
from osprey_desktop.connectors.demo_ioc import build_pvdb
from osprey_desktop.connectors.sim_machine import SimMachine


def _args(**overrides: object) -> argparse.Namespace:
    values = {"port": None, "interface": "127.0.0.1", "rate": 2.0, "seed": 0}
    values.update(overrides)
    return argparse.Namespace(**values)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"interface": "localhost"}, "needs an IP address"),
        ({"port": 70000}, "--port must be 1-65535"),
        ({"rate": 0.0}, "--rate must be positive"),
    ],
)
def test_bad_arguments_are_usage_errors(overrides, message, capsys) -> None:
    assert demo_ioc.run(_args(**overrides)) == 2
    captured = capsys.readouterr()
    assert message in captured.out + captured.err


def test_loopback_interface_keeps_beacons_on_loopback(monkeypatch) -> None:
    monkeypatch.setenv("EPICS_CAS_BEACON_ADDR_LIST", "10.0.0.255")
    env = demo_ioc._ioc_environment("127.0.0.1", 5099)
    assert env["EPICS_CAS_INTF_ADDR_LIST"] == "127.0.0.1"
    assert env["EPICS_CAS_BEACON_ADDR_LIST"] == "127.0.0.1"
    assert env["EPICS_CAS_AUTO_BEACON_ADDR_LIST"] == "NO"
    assert env["EPICS_CAS_SERVER_PORT"] == env["EPICS_CA_SERVER_PORT"] == "5099"


def test_site_interface_keeps_the_sites_beacon_settings(monkeypatch) -> None:
    monkeypatch.setenv("EPICS_CAS_BEACON_ADDR_LIST", "10.0.0.255")
    monkeypatch.delenv("EPICS_CAS_AUTO_BEACON_ADDR_LIST", raising=False)
    env = demo_ioc._ioc_environment("10.0.0.5", None)
    assert env["EPICS_CAS_BEACON_ADDR_LIST"] == "10.0.0.255"
    assert "EPICS_CAS_SERVER_PORT" not in env


def test_every_channel_becomes_a_pv_with_its_metadata(database) -> None:
    pvdb = build_pvdb(SimMachine(database))
    assert set(pvdb) == set(database.names)
    sp = pvdb["SR01C:HCM01:Current:SP"]
    assert (sp.units, sp.precision) == ("A", 3)
    assert (sp.lower_ctrl_limit, sp.upper_ctrl_limit) == (-10.0, 10.0)
    bpm = pvdb["SR03C:BPM13:X"]
    assert (bpm.upper_warning_limit, bpm.upper_alarm_limit) == (1.0, 2.0)
