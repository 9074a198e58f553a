"""The simulated ring behaves like a storage ring, deterministically."""

from __future__ import annotations

import numpy as np
import pytest

from osprey_desktop.channels.database import ChannelDatabase
from osprey_desktop.connectors.sim_machine import (
    FILL_CURRENT_MA,
    TOPUP_PERIOD_S,
    SimMachine,
    SimWriteError,
    gaussian_noise,
)
from tests.connectors.helpers import T0, FakeClock

HCM07 = "SR03C:HCM07:Current:SP"
BPM13X = "SR03C:BPM13:X"


def test_same_seed_and_time_give_the_same_values(database: ChannelDatabase) -> None:
    a = SimMachine(database, seed=5)
    b = SimMachine(database, seed=5)
    other = SimMachine(database, seed=6)
    for name in ("SR:DCCT:Current", BPM13X, "SR05C:IG09:Pressure", "SR:TUNE:X"):
        assert a.value(name, T0) == b.value(name, T0)
    assert a.value(BPM13X, T0) != other.value(BPM13X, T0)


def test_noise_is_standard_normal_and_repeatable() -> None:
    times = T0 + np.arange(20000) * 0.1
    noise = gaussian_noise(1234, times)
    assert abs(noise.mean()) < 0.05 and 0.95 < noise.std() < 1.05
    assert np.array_equal(noise, gaussian_noise(1234, times))


def test_single_reads_and_vectorised_history_agree_exactly(machine: SimMachine) -> None:
    times = T0 + np.arange(200) * 0.137
    history = machine.history(BPM13X, times)
    assert history.tolist() == [machine.value(BPM13X, t) for t in times]


def test_a_long_setpoint_history_gives_every_window_the_values_of_each_instant(
    machine: SimMachine,
) -> None:
    rng = np.random.default_rng(5)
    moments = np.sort(rng.uniform(T0 - 3600, T0, 300))
    for t, value in zip(moments, rng.uniform(-2, 2, 300), strict=True):
        machine.set_setpoint(HCM07, round(float(value), 3), t=float(t))
    changes = machine.setpoint_changes(HCM07)
    rb = "SR03C:HCM07:Current:RB"
    # windows before, across and after many changes: each instant alone gives the same value
    for start, step in ((T0 - 3700, 0.9), (T0 - 1800, 0.37), (T0 - 5, 0.05)):
        times = start + np.arange(120) * step
        for name in (HCM07, rb):
            history = machine.history(name, times)
            assert history.tolist() == [machine.value(name, t) for t in times], (name, start)
        written = [next((v for tc, v in reversed(changes) if tc <= t), 0.0) for t in times]
        assert machine.history(HCM07, times).tolist() == written


def test_beam_current_decays_between_topups_and_is_refilled(machine: SimMachine) -> None:
    times = T0 - 7200 + np.arange(7200.0)
    current = machine.history("SR:DCCT:Current", times)
    jumps = np.flatnonzero(np.diff(current) > 1.0)
    assert len(jumps) in (39, 40, 41)  # one injection every 180 s over 2 h
    assert np.all(np.diff(jumps) == TOPUP_PERIOD_S)
    between = current[jumps[0] + 5 : jumps[1] - 5]
    assert np.all(np.diff(between) < 0.05)  # decaying apart from 5 uA noise
    assert current.max() < FILL_CURRENT_MA + 0.05 and current.min() > 497.5


def test_readback_follows_setpoint_with_a_first_order_lag(
    machine: SimMachine, clock: FakeClock
) -> None:
    machine.set_setpoint(HCM07, 2.0)
    rb = "SR03C:HCM07:Current:RB"
    assert machine.value(HCM07) == 2.0
    assert abs(machine.value(rb)) < 0.01
    clock.advance(0.4)  # one time constant
    assert machine.value(rb) == pytest.approx(2.0 * (1 - np.exp(-1)), abs=0.01)
    clock.advance(3.0)
    assert machine.value(rb) == pytest.approx(2.0, abs=0.01)


def test_orbit_responds_linearly_to_a_corrector_kick(machine: SimMachine, clock: FakeClock) -> None:
    bpms = [f"SR03C:BPM{n}:X" for n in range(13, 19)]
    before = np.array([machine.value(b) for b in bpms])
    machine.set_setpoint(HCM07, 1.0)
    clock.advance(10)
    one_amp = np.array([machine.value(b) for b in bpms]) - before
    machine.set_setpoint(HCM07, 2.0)
    clock.advance(10)
    two_amp = np.array([machine.value(b) for b in bpms]) - before
    assert np.max(np.abs(one_amp)) > 0.1  # a visible kick, in mm
    np.testing.assert_allclose(two_amp, 2 * one_amp, atol=0.005)
    vertical = machine.value("SR03C:BPM13:Y")
    assert abs(vertical - machine.value("SR03C:BPM13:Y", T0)) < 0.005  # planes decoupled


def test_large_corrector_kick_trips_the_bpm_alarm(machine: SimMachine, clock: FakeClock) -> None:
    assert machine.read(BPM13X).alarm_severity == "NO_ALARM"
    machine.set_setpoint(HCM07, 6.0)
    clock.advance(10)
    reading = machine.read(BPM13X)
    assert (reading.alarm_status, reading.alarm_severity) == ("HIHI", "MAJOR")


def test_closing_an_undulator_gap_raises_that_sectors_vacuum_into_alarm(
    machine: SimMachine, clock: FakeClock
) -> None:
    gauge = "SR05C:IG09:Pressure"
    other_sector = "SR06C:IG11:Pressure"
    assert machine.read(gauge).alarm_severity == "NO_ALARM"
    before_other = machine.value(other_sector)
    machine.set_setpoint("SR05C:ID05:Gap:SP", 6.0)
    clock.advance(20)
    assert machine.read(gauge).alarm_status == "HIGH"
    assert machine.value(other_sector) == pytest.approx(before_other, rel=0.1)


def test_quadrupole_change_moves_the_tunes_in_opposite_directions(
    machine: SimMachine, clock: FakeClock
) -> None:
    qx, qy = machine.value("SR:TUNE:X"), machine.value("SR:TUNE:Y")
    machine.set_setpoint("SR01C:QF01:Current:SP", 125.0)
    clock.advance(10)
    assert machine.value("SR:TUNE:X") - qx == pytest.approx(0.0075, abs=0.002)
    assert machine.value("SR:TUNE:Y") < qy


def test_rf_frequency_shift_moves_energy_and_horizontal_orbit(
    machine: SimMachine, clock: FakeClock
) -> None:
    energy, x = machine.value("SR:BEAM:Energy"), machine.value(BPM13X)
    machine.set_setpoint("SR:RF:Frequency:SP", 499.6545)
    clock.advance(10)
    assert machine.value("SR:BEAM:Energy") < energy - 0.005
    assert abs(machine.value(BPM13X) - x) > 0.2


def test_write_beyond_control_limits_is_refused_and_changes_nothing(machine: SimMachine) -> None:
    with pytest.raises(SimWriteError, match=r"outside the control range .* \(-10 to 10 A\)"):
        machine.set_setpoint(HCM07, 11.0)
    assert machine.setpoint_changes(HCM07) == ()


@pytest.mark.parametrize("value", ["abc", float("nan"), None])
def test_write_of_a_non_number_is_refused(machine: SimMachine, value: object) -> None:
    with pytest.raises(SimWriteError, match="number"):
        machine.set_setpoint(HCM07, value)  # type: ignore[arg-type]


def test_write_to_a_readback_or_monitor_is_refused(machine: SimMachine) -> None:
    for name in ("SR03C:HCM07:Current:RB", "SR:DCCT:Current"):
        with pytest.raises(SimWriteError, match="read-only"):
            machine.set_setpoint(name, 1.0)


def test_history_before_a_write_keeps_the_old_setpoint(
    machine: SimMachine, clock: FakeClock
) -> None:
    machine.set_setpoint(HCM07, 1.5)
    clock.advance(60)
    values = machine.history(HCM07, [T0 - 10, T0 + 10])
    assert values.tolist() == [0.0, 1.5]


def test_reset_forgets_every_write(machine: SimMachine) -> None:
    machine.set_setpoint(HCM07, 1.5)
    machine.reset()
    assert machine.value(HCM07) == 0.0
