"""The ring model predicts what the simulated ring does when correctors and quadrupoles move."""

from __future__ import annotations

import numpy as np
import pytest

from osprey_desktop.channels.loading import get_channel_database
from osprey_desktop.connectors.sim_machine import SimMachine
from osprey_desktop.prediction import RingModel, predict_write_effect
from osprey_desktop.prediction.configured import configured_model


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def database():
    return get_channel_database(None)


def _orbit(machine: SimMachine, plane: str, names: tuple[str, ...], t: float) -> np.ndarray:
    return np.array([machine.value(n, t) for n in names])


def test_predicted_orbit_change_is_what_the_simulated_ring_does(database):
    clock = Clock()
    machine = SimMachine(database, seed=0, clock=clock)
    model = RingModel.from_records(database, seed=0)
    writes = {"SR01C:HCM01:Current:SP": 1.5, "SR05C:HCM14:Current:SP": -0.8}
    plane = model.planes["X"]
    before = _orbit(machine, "X", plane.bpms, clock.now)
    for channel, value in writes.items():
        machine.set_setpoint(channel, value)
    clock.now += 60.0  # the correctors have settled (0.4 s lag)
    after = _orbit(machine, "X", plane.bpms, clock.now)
    operations = [{"channel": c, "current_value": 0.0, "new_value": v} for c, v in writes.items()]
    effect = predict_write_effect(operations, model)
    (change,) = effect.planes
    assert change.plane == "X"
    # BPM noise is 0.5 µm per reading; the prediction matches within a few of those
    assert np.max(np.abs(change.delta_mm - (after - before))) < 5e-3
    assert abs(change.peak_mm) > 0.05
    assert "Horizontal orbit: up to" in effect.lines()[0]


def test_quadrupole_write_predicts_the_tune_shift_the_ring_shows(database):
    clock = Clock()
    machine = SimMachine(database, seed=0, clock=clock)
    model = RingModel.from_records(database)
    quad = next(c for c in model.quadrupoles if ":QF" in c)
    now = machine.value(quad, clock.now)
    tunes_before = machine.value("SR:TUNE:X", clock.now), machine.value("SR:TUNE:Y", clock.now)
    machine.set_setpoint(quad, now + 2.0)
    clock.now += 60.0
    tunes_after = machine.value("SR:TUNE:X", clock.now), machine.value("SR:TUNE:Y", clock.now)
    effect = predict_write_effect(
        [{"channel": quad, "current_value": now, "new_value": now + 2}], model
    )
    assert effect.tune_shift is not None
    for predicted, before, after in zip(effect.tune_shift, tunes_before, tunes_after, strict=True):
        assert abs(predicted - (after - before)) < 1.5e-3  # tune noise 2e-4 per reading


def test_writes_the_model_does_not_cover_are_named_not_predicted(database):
    model = RingModel.from_records(database)
    gap = next(r.name for r in database if r.family == "ID" and r.role == "setpoint")
    effect = predict_write_effect([{"channel": gap, "current_value": 20, "new_value": 15}], model)
    assert not effect.available
    assert "covers correctors and quadrupoles" in effect.reason


def test_epics_without_a_configured_model_says_there_is_none(configure):
    model, reason = configured_model(configure({"control_system": {"type": "epics"}}))
    assert model is None
    assert "prediction.model" in reason
    effect = predict_write_effect(
        [{"channel": "X", "current_value": 0, "new_value": 1}], model, reason
    )
    assert effect.lines() == [reason]


def test_epics_with_the_ring_model_configured_predicts(configure):
    config = configure({"control_system": {"type": "epics"}, "prediction": {"model": "ring_model"}})
    model, reason = configured_model(config)
    assert model is not None and reason == ""
    assert "SR01C:VCM01:Current:SP" in model.correctors


def test_values_that_are_not_numbers_predict_nothing(database):
    model = RingModel.from_records(database)
    effect = predict_write_effect(
        [{"channel": "SR01C:HCM01:Current:SP", "current_value": None, "new_value": "abc"}], model
    )
    assert not effect.available
