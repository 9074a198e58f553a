"""The scenario library: files load, anchors land where they say, live values and the archive
agree, and each scenario changes what its file says and nothing else."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from osprey_desktop.connectors.sim_archiver import SimulatedArchiverConnector
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.connectors.sim_scenarios import (
    ScenarioError,
    load_scenario,
    scenario_names,
    seconds,
)
from tests.investigate.scenario_support import NOW, ZONE, scenario_machine


def test_shipped_scenarios_load() -> None:
    names = scenario_names()
    assert {"vacuum_burst", "rf_trip", "corrector_step"} <= set(names)
    for name in names:
        assert load_scenario(name).events


def test_durations_read_as_seconds() -> None:
    assert seconds("-40m") == -2400 and seconds("6h") == 21600 and seconds(90) == 90
    with pytest.raises(ValueError, match="not a duration"):
        seconds("soon")


def test_unknown_or_broken_scenario_says_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="Shipped scenarios: .*vacuum_burst"):
        load_scenario("no_such_scenario")
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: broken\nevents:\n  - kind: explode\n    at: 0\n    select: {}\n")
    with pytest.raises(ScenarioError, match="broken.yaml is not valid"):
        load_scenario(str(broken))


def test_vacuum_burst_anchors_yesterday_at_1432_facility_time() -> None:
    machine = scenario_machine("vacuum_burst")
    anchor = datetime.fromtimestamp(machine.scenario.t0, ZONE)
    assert (anchor.day, anchor.hour, anchor.minute) == (25, 14, 32)


def test_burst_raises_sector_7_only_and_costs_about_5_ma() -> None:
    machine = scenario_machine("vacuum_burst")
    t0 = machine.scenario.t0
    before, peak = t0 - 60, t0 + 60
    ratio = machine.value("SR07C:IG13:Pressure", peak) / machine.value(
        "SR07C:IG13:Pressure", before
    )
    assert ratio > 10
    other = machine.value("SR03C:IG05:Pressure", peak) / machine.value(
        "SR03C:IG05:Pressure", before
    )
    assert 0.9 < other < 1.1
    times = np.arange(t0 - 600, t0 + 600, 1.0)
    plain = SimMachine(machine.database, clock=machine.clock, scenario=None)
    loss = plain.history("SR:DCCT:Current", times) - machine.history("SR:DCCT:Current", times)
    assert 4.5 < loss.max() < 5.5
    assert machine.read("SR07C:IG13:Pressure", t0 + 30).alarm_severity == "MAJOR"


def test_live_reads_and_archive_agree() -> None:
    machine = scenario_machine("rf_trip")
    archiver = SimulatedArchiverConnector(machine)
    t0 = machine.scenario.t0
    start = datetime.fromtimestamp(t0 - 120, UTC)
    names = ["SR:DCCT:Current", "SR:RF:CAV2:ReflPower", "SR:RF:Voltage:RB"]
    data = asyncio.run(archiver.get_data(names, start, start + timedelta(seconds=240)))
    for name in names:
        series = data.series[name]
        for t, v in zip(series.timestamps[::37], series.values[::37], strict=True):
            assert machine.value(name, float(t)) == pytest.approx(v)


def test_rf_trip_dumps_the_beam_after_the_rf_and_refills_later() -> None:
    machine = scenario_machine("rf_trip")
    t0 = machine.scenario.t0
    assert datetime.fromtimestamp(t0, ZONE).hour == 6
    assert machine.value("SR:RF:Voltage:RB", t0 + 0.5) == 0.0
    assert machine.value("SR:DCCT:Current", t0 + 0.5) > 400  # a second later than the RF
    assert machine.value("SR:DCCT:Current", t0 + 5) == 0.0
    assert machine.value("SR:DCCT:Current", t0 + 25 * 60 + 10 * 60) == 0.0  # held 20 min
    assert machine.value("SR:DCCT:Current", t0 + 25 * 60 + 21 * 60) > 400
    warm = machine.value("SR:RF:CAV2:Temperature", t0 - 1)
    assert warm - machine.value("SR:RF:CAV2:Temperature", t0 - 3600) > 5
    assert abs(machine.value("SR:RF:CAV1:Temperature", t0 - 1) - 45.0) < 0.2


def test_unrecorded_corrector_step_moves_the_orbit_without_an_audit_entry() -> None:
    machine = scenario_machine("corrector_step")
    t0 = machine.scenario.t0
    assert machine.value("SR05C:HCM14:Current:SP", t0 - 1) == 0.0
    assert machine.value("SR05C:HCM14:Current:SP", t0 + 1) == 3.5
    bpm = "SR05C:BPM27:X"
    assert abs(machine.value(bpm, t0 + 30) - machine.value(bpm, t0 - 30)) > 0.1
    assert machine.state_file is None  # nothing saved: the change was never a recorded write


def test_scenario_configured_by_name(configure) -> None:
    configure({"control_system": {"sim": {"scenario": "vacuum_burst"}}})
    from osprey_desktop.channels import get_channel_database
    from osprey_desktop.config import resolve_resource_file

    machine = SimMachine(
        get_channel_database(resolve_resource_file(None, "channels.yaml")), clock=lambda: NOW
    )
    assert machine.scenario is not None and machine.scenario.name == "vacuum_burst"


def test_a_scenarios_channels_are_in_the_configured_list(configure) -> None:
    from osprey_desktop.connectors import get_configured_channel_database
    from osprey_desktop.connectors.factory import reset_sim_machines

    reset_sim_machines()
    try:
        configure({"control_system": {"sim": {"scenario": "rf_trip"}}})
        assert "SR:RF:CAV2:ReflPower" in get_configured_channel_database()
        configure({"control_system": {"type": "epics"}})
        assert "SR:RF:CAV2:ReflPower" not in get_configured_channel_database()
    finally:
        reset_sim_machines()


def test_an_unknown_scenario_is_a_configuration_error() -> None:
    from osprey_desktop.config import ConfigError, build_config

    with pytest.raises(ConfigError, match=r"control_system\.sim\.scenario.*shipped: .*rf_trip"):
        build_config({"control_system": {"sim": {"scenario": "vacum_burst"}}})
    assert build_config({"control_system": {"sim": {"scenario": "rf_trip"}}})


def test_an_event_that_selects_no_channel_is_refused(tmp_path: Path) -> None:
    from osprey_desktop.channels import get_channel_database
    from osprey_desktop.config import resolve_resource_file
    from osprey_desktop.connectors.sim_scenario_engine import ScenarioEngine

    path = tmp_path / "empty_sector.yaml"
    path.write_text(
        "name: empty_sector\nevents:\n"
        "  - {select: {family: VACUUM, sector: 99}, kind: step, at: 0, amount: 1}\n"
    )
    database = get_channel_database(resolve_resource_file(None, "channels.yaml"))
    with pytest.raises(ScenarioError, match="selects no channel"):
        SimMachine(database, clock=lambda: NOW, scenario=ScenarioEngine.named(str(path), ZONE))


def test_a_day_zero_clock_still_ahead_moves_to_the_day_before() -> None:
    from osprey_desktop.connectors.sim_scenario_engine import anchor_time

    scenario = load_scenario("rf_trip")
    early = datetime(2026, 11, 26, 5, 0, tzinfo=ZONE).timestamp()  # before 06:48
    anchor = datetime.fromtimestamp(anchor_time(scenario, early, ZONE), ZONE)
    assert (anchor.day, anchor.hour, anchor.minute) == (25, 6, 48)
