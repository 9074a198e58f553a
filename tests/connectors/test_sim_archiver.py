"""The simulated archiver serves history consistent with the live simulated machine."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from osprey_desktop.connectors.base import ArchiverError
from osprey_desktop.connectors.sim_archiver import SimulatedArchiverConnector
from osprey_desktop.connectors.sim_machine import SimMachine
from tests.connectors.helpers import T0, FakeClock

NOW = datetime.fromtimestamp(T0, UTC)


async def test_last_two_hours_of_beam_current_show_decay_and_top_ups(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    data = await archiver.get_data(["SR:DCCT:Current"], NOW - timedelta(hours=2), NOW)
    series = data.series["SR:DCCT:Current"]
    assert len(series) == 7201 and series.units == "mA"
    assert np.all(np.diff(series.timestamps) == 1.0)
    assert series.timestamps[-1] == T0
    injections = np.count_nonzero(np.diff(series.values) > 1.0)
    assert 39 <= injections <= 41
    assert data.units == {"SR:DCCT:Current": "mA"}


async def test_history_matches_what_the_live_machine_read_then(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    data = await archiver.get_data(["SR03C:BPM13:X"], NOW - timedelta(seconds=10), NOW)
    assert data.series["SR03C:BPM13:X"].values[-1] == machine.value("SR03C:BPM13:X", T0)


async def test_a_write_shows_as_a_step_in_setpoint_and_readback_history(
    machine: SimMachine, clock: FakeClock
) -> None:
    archiver = SimulatedArchiverConnector(machine)
    machine.set_setpoint("SR03C:HCM07:Current:SP", 1.5)
    clock.advance(600)
    end = datetime.fromtimestamp(clock(), UTC)
    data = await archiver.get_data(
        ["SR03C:HCM07:Current:SP", "SR03C:HCM07:Current:RB"], end - timedelta(minutes=20), end
    )
    sp = data.series["SR03C:HCM07:Current:SP"]
    assert sp.values.tolist() == [0.0, 1.5]  # archived on change
    assert sp.timestamps[1] == T0
    rb = data.series["SR03C:HCM07:Current:RB"]
    assert abs(rb.values[0]) < 0.01 and abs(rb.values[-1] - 1.5) < 0.01


async def test_max_points_bins_the_series_to_means(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    data = await archiver.get_data(
        ["SR:DCCT:Current"], NOW - timedelta(hours=2), NOW, max_points=100
    )
    series = data.series["SR:DCCT:Current"]
    assert len(series) <= 100 and series.processing == "mean_73"
    assert series.values.min() > 497 and series.values.max() < 501


async def test_range_in_the_future_is_empty(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    data = await archiver.get_data(
        ["SR:DCCT:Current"], NOW + timedelta(hours=1), NOW + timedelta(hours=2)
    )
    assert len(data.series["SR:DCCT:Current"]) == 0
    json.dumps(data.to_dict())


async def test_end_before_start_is_a_clear_error(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    with pytest.raises(ArchiverError, match="swap start and end"):
        await archiver.get_data(["SR:DCCT:Current"], NOW, NOW - timedelta(hours=1))


async def test_unknown_channel_is_named_with_suggestions(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    with pytest.raises(ArchiverError, match=r"'SR:DCCT:Curent' is not archived.*SR:DCCT:Current"):
        await archiver.get_data(["SR:DCCT:Curent"], NOW - timedelta(hours=1), NOW)


async def test_one_day_at_one_second_is_fast(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    started = time.perf_counter()
    data = await archiver.get_data(["SR03C:BPM13:X"], NOW - timedelta(days=1), NOW)
    elapsed = time.perf_counter() - started
    assert len(data.series["SR03C:BPM13:X"]) == 86401
    # A guard against a per-sample slow path (minutes), with room for a busy machine; the speed
    # itself (well under 1 s idle) is a figure of bench/channels.py, not a timed unit test.
    assert elapsed < 10.0


async def test_to_dict_carries_timestamps_values_and_units(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    data = await archiver.get_data(["SR:TUNE:X"], NOW - timedelta(seconds=3), NOW)
    as_dict = data.to_dict()["channels"]["SR:TUNE:X"]
    assert len(as_dict["timestamps"]) == len(as_dict["values"]) == 4
    assert data.time_series_data["SR:TUNE:X"] == as_dict["values"]


async def test_every_sample_carries_the_alarm_the_live_machine_showed(
    machine: SimMachine, clock: FakeClock
) -> None:
    archiver = SimulatedArchiverConnector(machine)
    machine.set_setpoint("SR03C:HCM07:Current:SP", 6.0)  # drives SR03C:BPM13:X into MAJOR
    clock.advance(60)
    end = datetime.fromtimestamp(clock(), UTC)
    data = await archiver.get_data(["SR03C:BPM13:X"], end - timedelta(seconds=120), end)
    series = data.series["SR03C:BPM13:X"]
    assert series.severity[0] == 0 and series.status[0] == 0, "before the kick: no alarm"
    assert series.severity[-1] == 2 and machine.read("SR03C:BPM13:X").alarm_severity == "MAJOR"
    assert series.status[-1] in (3, 5)  # HIHI or LOLO, as the live connector shows it
    assert series.to_dict()["severity"][-1] == 2


async def test_binned_series_keep_the_envelope_and_the_worst_alarm(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    data = await archiver.get_data(
        ["SR:DCCT:Current"], NOW - timedelta(hours=2), NOW, max_points=100
    )
    series = data.series["SR:DCCT:Current"]
    assert series.minimum is not None and series.maximum is not None
    assert np.all(series.minimum <= series.values) and np.all(series.values <= series.maximum)
    assert series.counts.sum() == 7201 and len(series.severity) == len(series)


async def test_value_at_a_moment_is_the_one_second_sample_then(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    moment = NOW - timedelta(minutes=30, seconds=0.4)
    found = await archiver.value_at("SR:DCCT:Lifetime", moment)
    assert found.timestamp == T0 - 1801 and found.moment == moment.timestamp()
    assert found.value == machine.value("SR:DCCT:Lifetime", T0 - 1801)
    assert found.units == "h" and found.severity == 0


async def test_value_at_of_a_setpoint_is_the_last_write_before(
    machine: SimMachine, clock: FakeClock
) -> None:
    archiver = SimulatedArchiverConnector(machine)
    machine.set_setpoint("SR03C:HCM07:Current:SP", 1.5)
    clock.advance(600)
    later = datetime.fromtimestamp(clock(), UTC)
    found = await archiver.values_at(["SR03C:HCM07:Current:SP"], later - timedelta(minutes=5))
    assert found["SR03C:HCM07:Current:SP"].value == 1.5
    assert found["SR03C:HCM07:Current:SP"].timestamp == T0
    before = await archiver.value_at("SR03C:HCM07:Current:SP", NOW - timedelta(minutes=1))
    assert before.value == 0.0


async def test_value_at_of_an_unknown_channel_is_named(machine: SimMachine) -> None:
    archiver = SimulatedArchiverConnector(machine)
    with pytest.raises(ArchiverError, match="'SR:DCCT:Curent' is not archived"):
        await archiver.value_at("SR:DCCT:Curent", NOW)
