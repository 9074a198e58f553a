"""The simulated ring keeps its setpoints in a file: restored settled, saved whole, never fatal."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from osprey_desktop.config import get_data_dir
from osprey_desktop.connectors.factory import get_sim_machine, reset_sim_machines, sim_state_path
from osprey_desktop.connectors.sim import SimulatedControlSystemConnector
from osprey_desktop.connectors.sim_machine import NOMINAL_TUNES, SimMachine, SimWriteError
from osprey_desktop.connectors.sim_state import STATE_FORMAT, SimStateFile
from tests.connectors.helpers import FakeClock

HCM07 = "SR03C:HCM07:Current:SP"
HCM07_RB = "SR03C:HCM07:Current:RB"
QF01 = "SR01C:QF01:Current:SP"
BPMS = [f"SR03C:BPM{n}:X" for n in range(13, 19)]
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def state_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "sim_machine.json"


def ring(database, clock: FakeClock, path: Path | None) -> SimMachine:
    return SimMachine(database, seed=3, clock=clock, state_file=path)


def saved(path: Path) -> dict[str, float]:
    data = json.loads(path.read_text())
    assert data["format"] == STATE_FORMAT and data["version"] == 1
    return data["setpoints"]


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_saved_setpoints_come_back_settled_in_the_next_machine(database, clock, state_path):
    first = ring(database, clock, state_path)
    first.set_setpoint(HCM07, 2.0)
    first.set_setpoint(QF01, 125.0)
    clock.advance(30.0)  # the first process lets its readbacks settle
    settled_orbit = [first.value(b) for b in BPMS]
    settled_tune = first.value("SR:TUNE:X")

    clock.advance(60.0)  # the next process starts later
    second = ring(database, clock, state_path)

    assert saved(state_path) == {HCM07: 2.0, QF01: 125.0}
    assert second.value(HCM07) == 2.0
    assert second.value(HCM07_RB) == pytest.approx(2.0, abs=0.005)  # settled, no lag
    assert second.value("SR01C:QF01:Current:RB") == pytest.approx(125.0, abs=0.02)
    clock.advance(-60.0)  # same instant as the settled reading: same noise bucket
    assert [second.value(b) for b in BPMS] == pytest.approx(settled_orbit, abs=1e-9)
    assert second.value("SR:TUNE:X") == pytest.approx(settled_tune, abs=1e-9)
    assert second.value("SR:TUNE:X") != pytest.approx(NOMINAL_TUNES["X"], abs=1e-3)


def test_a_restored_setpoint_then_written_lags_from_the_restored_value(database, clock, state_path):
    ring(database, clock, state_path).set_setpoint(HCM07, 2.0)
    clock.advance(30.0)  # the next process starts once the first write settled
    second = ring(database, clock, state_path)
    second.set_setpoint(HCM07, 3.0)
    clock.advance(0.4)  # one time constant: from 2.0 towards 3.0, not from 0
    assert second.value(HCM07_RB) == pytest.approx(2.0 + 1.0 * (1 - np.exp(-1)), abs=0.01)
    assert saved(state_path) == {HCM07: 3.0}


def test_a_write_back_to_nominal_leaves_the_file_and_the_next_machine_nominal(
    database, clock, state_path
):
    first = ring(database, clock, state_path)
    first.set_setpoint(HCM07, 2.0)
    first.set_setpoint(HCM07, 0.0)
    assert saved(state_path) == {}
    assert ring(database, clock, state_path).value(HCM07) == 0.0


def test_the_next_machine_knows_what_a_setpoint_held_before_its_last_write(
    database, clock, state_path
):
    start = clock()
    ring(database, clock, state_path).set_setpoint(HCM07, 1.0)
    clock.advance(60.0)
    ring(database, clock, state_path).set_setpoint(HCM07, 2.0)
    clock.advance(60.0)
    third = ring(database, clock, state_path)  # the archive of a third process

    assert third.value(HCM07) == 2.0
    assert third.value(HCM07, t=start + 30.0) == 1.0  # a minute ago: what was written then
    assert third.value(HCM07, t=start - 1.0) == 0.0  # before the first write: nominal
    assert third.value(HCM07_RB) == pytest.approx(2.0, abs=0.005)  # settled long since


def test_a_setpoint_set_by_hand_in_the_file_starts_settled_without_a_history_that_disagrees(
    database, clock, state_path
):
    start = clock()
    ring(database, clock, state_path).set_setpoint(HCM07, 1.0)
    SimStateFile(state_path).update({HCM07: -0.5})  # another program, no history entry
    clock.advance(60.0)
    machine = ring(database, clock, state_path)

    assert machine.value(HCM07) == -0.5
    assert machine.value(HCM07, t=start + 30.0) == -0.5  # no made-up past


def test_the_history_kept_per_channel_is_bounded(database, clock, state_path, monkeypatch):
    monkeypatch.setattr("osprey_desktop.connectors.sim_state.MAX_HISTORY_CHANGES", 3)
    machine = ring(database, clock, state_path)
    for value in (0.5, 1.0, 1.5, 2.0, 2.5):
        machine.set_setpoint(HCM07, value)
        clock.advance(10.0)
    history = SimStateFile(state_path).read_history()[HCM07]

    assert [v for _, v in history.changes] == [1.5, 2.0, 2.5]
    assert history.before == 1.0  # the folded changes leave the value before the kept ones


def test_missing_file_is_the_nominal_machine_and_is_not_created_by_reading(
    database, clock, state_path, caplog
):
    machine = ring(database, clock, state_path)
    nominal = SimMachine(database, seed=3, clock=clock)
    assert machine.value(HCM07) == 0.0
    assert machine.value(BPMS[0]) == nominal.value(BPMS[0])
    assert not state_path.exists()
    assert warnings_of(caplog) == []


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"",
        b"\xff\xfe\x00garbage",
        b'["SR03C:HCM07:Current:SP", 2.0]',
        b'{"setpoints": {"SR03C:HCM07:Current:SP": 2.0}}',
        json.dumps({"format": STATE_FORMAT, "version": 99, "setpoints": {}}).encode(),
        json.dumps({"format": STATE_FORMAT, "version": 1, "setpoints": [1, 2]}).encode(),
    ],
    ids=["truncated", "empty", "binary", "list", "no-format", "future-version", "bad-setpoints"],
)
def test_corrupt_file_gives_the_nominal_ring_one_warning_and_stays_until_the_next_write(
    database, clock, state_path, caplog, content
):
    state_path.parent.mkdir(parents=True)
    state_path.write_bytes(content)

    machine = ring(database, clock, state_path)

    assert machine.value(HCM07) == 0.0
    (warning,) = warnings_of(caplog)
    assert str(state_path) in warning and "nominal" in warning and "delete it" in warning
    assert state_path.read_bytes() == content  # kept for inspection
    machine.set_setpoint(HCM07, 1.5)
    assert saved(state_path) == {HCM07: 1.5}


def test_an_unreadable_state_path_warns_and_the_write_still_takes_effect(
    database, clock, state_path, caplog
):
    state_path.mkdir(parents=True)  # a folder where the file should be
    machine = ring(database, clock, state_path)
    machine.set_setpoint(HCM07, 1.5)
    assert machine.value(HCM07) == 1.5
    first, second = warnings_of(caplog)
    assert "unusable" in first and "Could not save" in second and str(state_path) in second


def test_entries_this_ring_cannot_take_are_skipped_with_a_warning_and_kept_in_the_file(
    database, clock, state_path, caplog
):
    state_path.parent.mkdir(parents=True)
    entries = {
        HCM07: 1.0,
        "SR:DCCT:Current": 400.0,  # read-only
        "OTHER:RING:Magnet:SP": 3.0,  # another channel database
        "SR04C:VCM11:Current:SP": 50.0,  # beyond the control range
        "SR01C:HCM01:Current:SP": "high",  # not a number
        "SR01C:VCM01:Current:SP": None,
    }
    document = {"format": STATE_FORMAT, "version": 1, "setpoints": entries}
    state_path.write_text(json.dumps(document))

    machine = ring(database, clock, state_path)

    assert machine.value(HCM07) == 1.0
    assert machine.value("SR04C:VCM11:Current:SP") == 0.0
    assert machine.value("SR01C:HCM01:Current:SP") == 0.0
    not_numbers, not_taken = warnings_of(caplog)
    assert "SR01C:HCM01:Current:SP='high'" in not_numbers
    assert "OTHER:RING:Magnet:SP=3" in not_taken and "SR:DCCT:Current=400" in not_taken
    machine.set_setpoint(HCM07, 2.0)
    assert saved(state_path) == {
        HCM07: 2.0,
        "OTHER:RING:Magnet:SP": 3.0,
        "SR04C:VCM11:Current:SP": 50.0,
        "SR:DCCT:Current": 400.0,
    }


def test_a_refused_write_saves_nothing(database, clock, state_path):
    machine = ring(database, clock, state_path)
    with pytest.raises(SimWriteError):
        machine.set_setpoint(HCM07, 11.0)
    assert not state_path.exists()


def test_reset_returns_the_file_and_the_next_machine_to_nominal(database, clock, state_path):
    machine = ring(database, clock, state_path)
    machine.set_setpoint(HCM07, 2.0)
    machine.reset()
    assert saved(state_path) == {}
    assert SimStateFile(state_path).read_history() == {}
    assert machine.value(HCM07) == 0.0
    assert ring(database, clock, state_path).value(HCM07) == 0.0


def test_a_machine_built_without_a_state_file_writes_nothing(database, clock):
    machine = SimMachine(database, seed=3, clock=clock)
    machine.set_setpoint(HCM07, 2.0)
    assert machine.state_file is None
    assert not (get_data_dir() / "sim_machine.json").exists()


def test_a_failed_save_leaves_the_old_file_whole_and_no_temporary_file(
    database, clock, state_path, monkeypatch, caplog
):
    machine = ring(database, clock, state_path)
    machine.set_setpoint(HCM07, 1.0)
    before = state_path.read_bytes()

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    machine.set_setpoint(HCM07, 2.0)

    assert state_path.read_bytes() == before
    assert sorted(p.name for p in state_path.parent.iterdir()) == [
        "sim_machine.json",
        "sim_machine.json.lock",
    ]
    assert "No space left on device" in warnings_of(caplog)[-1]
    assert machine.value(HCM07) == 2.0


_WRITER = """
import sys
from osprey_desktop.connectors.sim_state import SimStateFile
state = SimStateFile(sys.argv[1])
for i in range(1, 41):
    state.update({sys.argv[2]: float(i)})
"""


def test_concurrent_processes_never_tear_the_file_or_lose_another_channel(state_path):
    """Three processes save different channels at once while this one keeps reading the file."""
    channels = ["SR01C:HCM01:Current:SP", "SR01C:VCM01:Current:SP", "SR02C:HCM04:Current:SP"]
    state = SimStateFile(state_path)
    state.update({})
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(state_path), ch], cwd=REPO)
        for ch in channels
    ]
    reads = 0
    try:
        while any(w.poll() is None for w in writers):
            state.read()  # raises SimStateError on a torn file
            reads += 1
            time.sleep(0.001)
    finally:
        for w in writers:
            w.wait(timeout=30)
    assert [w.returncode for w in writers] == [0, 0, 0]
    assert reads > 0
    assert state.read() == {ch: 40.0 for ch in channels}


async def test_factory_machine_persists_in_the_data_folder_and_the_next_one_restores_it(
    configure,
):
    configure()
    assert sim_state_path() == get_data_dir() / "sim_machine.json"
    connector = SimulatedControlSystemConnector(get_sim_machine())
    await connector.connect()
    result = await connector.write_channel(HCM07, 1.5, verification="none")
    assert result.outcome == "sent_unverified"
    reset_sim_machines()  # as if a new process started

    restored = get_sim_machine()

    assert restored is not connector.machine
    assert restored.value(HCM07) == 1.5
    assert saved(sim_state_path()) == {HCM07: 1.5}
