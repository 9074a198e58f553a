"""The posture shown in the title, the status bar and the log: what is connected, may it write."""

from __future__ import annotations

import pytest

from osprey_desktop.config import build_config
from osprey_desktop.config.posture import (
    describe_control_system,
    describe_posture,
    with_read_only,
)

NO_EPICS_ENV: dict[str, str] = {}


def test_the_default_is_the_armed_simulated_ring():
    posture = describe_posture(build_config(), NO_EPICS_ENV)
    assert (posture.control_system, posture.writes) == ("Simulated ring", "armed")
    assert not posture.live
    assert posture.summary == "Simulated ring · writes armed"
    assert posture.window_title("0.1.0") == "Osprey Desktop 0.1.0 — Simulated ring — writes armed"
    assert posture.reason == "control_system.sim.writes_enabled: true"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        (
            {"EPICS_CA_ADDR_LIST": "127.0.0.1:5064", "EPICS_CA_AUTO_ADDR_LIST": "NO"},
            "EPICS CA (address list 127.0.0.1:5064)",
        ),
        (
            {"EPICS_CA_ADDR_LIST": " 10.0.0.255   10.0.1.255 "},
            "EPICS CA (address list 10.0.0.255 10.0.1.255 + local broadcast)",
        ),
        ({}, "EPICS CA (address list: local broadcast)"),
        (
            {"EPICS_CA_ADDR_LIST": "127.0.0.1 10.0.0.1:5064", "EPICS_CA_SERVER_PORT": "5070"},
            "EPICS CA (address list 127.0.0.1:5070 10.0.0.1:5064 + local broadcast)",
        ),
        (
            {"EPICS_CA_AUTO_ADDR_LIST": "no"},
            "EPICS CA (address list empty: EPICS_CA_ADDR_LIST unset and "
            "EPICS_CA_AUTO_ADDR_LIST=NO)",
        ),
    ],
)
def test_epics_names_the_address_list_the_connector_searches(env, expected):
    posture = describe_posture(build_config({"control_system": {"type": "epics"}}), env)
    assert posture.control_system == expected
    assert posture.live and posture.writes == "disarmed"
    assert posture.reason == "control_system.epics.writes_enabled: false"


def test_a_named_machine_armed_on_epics():
    config = build_config(
        {
            "machine": {"name": "Booster ring"},
            "control_system": {"type": "epics", "epics": {"writes_enabled": True}},
        }
    )
    posture = describe_posture(config, {"EPICS_CA_ADDR_LIST": "10.0.0.255"})
    assert posture.window_title("0.1.0") == (
        "Osprey Desktop 0.1.0 — Booster ring — EPICS CA (address list 10.0.0.255 + local "
        "broadcast) — writes armed"
    )


def test_read_only_is_its_own_posture_whatever_is_armed():
    armed = build_config({"control_system": {"type": "epics", "epics": {"writes_enabled": True}}})
    posture = describe_posture(with_read_only(armed), {})
    assert posture.writes == "read-only"
    assert posture.summary == "EPICS CA (address list: local broadcast) · read-only"
    assert "control_system.read_only" in posture.reason


def test_the_former_single_switch_is_named_when_it_decides():
    off = build_config({"control_system": {"writes_enabled": False}})
    posture = describe_posture(off, {})
    assert posture.writes == "disarmed"
    assert posture.reason == "control_system.writes_enabled: false"


def test_pva_as_the_default_protocol_names_the_pva_search_list():
    pva = {"type": "epics", "epics": {"default_protocol": "pva"}}
    config = build_config({"control_system": pva})
    env = {
        "EPICS_PVA_ADDR_LIST": "127.0.0.1",
        "EPICS_PVA_AUTO_ADDR_LIST": "NO",
        "EPICS_PVA_BROADCAST_PORT": "5999",
        "EPICS_CA_ADDR_LIST": "10.0.0.255",
    }
    assert describe_control_system(config, env) == "EPICS PVA (address list 127.0.0.1:5999)"
