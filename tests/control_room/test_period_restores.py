"""Restores whose moment is a period ("its value from yesterday", "from this shift"): the value
the channel held all of it is restored; a channel that changed during it is asked about, never
guessed; the held value is derived again from the archive right before it is sent."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest

from osprey_desktop.capabilities.control_room.time_range_parsing import restore_period
from osprey_desktop.connectors.sim_machine import SimMachine
from tests.support.turns import operations, steps

QF11 = "SR03C:QF11:Current:SP"


def _midnight_today() -> float:
    return (
        datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0).timestamp()
    )


def _yesterday() -> tuple[float, float]:
    """Yesterday's start and end in this computer's zone (the tests' facility time)."""
    today = datetime.now().astimezone().replace(hour=0, minute=0, second=0, microsecond=0)
    start = (today - timedelta(days=1)).replace(tzinfo=None).astimezone()  # DST-safe
    return start.timestamp(), today.timestamp()


def _clock(stamp: float) -> str:
    return time.strftime("%H:%M", time.localtime(stamp))


def _moment_suggested(stamp: float) -> str:
    """A moment as a suggestion names it: its date too when it is not today (after midnight,
    a period of the last hours began yesterday)."""
    same_day = time.localtime(stamp)[:3] == time.localtime()[:3]
    return _clock(stamp) if same_day else time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def _clock_said(stamp: float, dated: bool = False) -> str:
    """A change's time as a question lists it: with seconds unless they are 0, and with its
    date when the period asked about spans two days (after midnight)."""
    local = time.localtime(stamp)
    clock = "%H:%M" if local.tm_sec == 0 else "%H:%M:%S"
    return time.strftime(f"%Y-%m-%d {clock}" if dated else clock, local)


# -- which words are a period ------------------------------------------------------------------


NOW = datetime(2026, 11, 26, 16, 30).astimezone()


@pytest.mark.parametrize("words", ["09:30", "an hour ago", "from 10:15", "yesterday at 14:00"])
def test_an_instant_is_no_period(words):
    assert restore_period(words, None, now=NOW) is None


@pytest.mark.parametrize(
    ("words", "start", "end"),
    [
        ("this morning", (26, 6), (26, 12)),
        ("yesterday", (25, 0), (26, 0)),
        ("last night", (25, 18), (26, 6)),
        ("between 09:00 and 10:00", (26, 9), (26, 10)),
        ("from 10:00 to 12:00 yesterday", (25, 10), (25, 12)),
    ],
)
def test_a_period_is_its_start_and_end(words, start, end):
    period = restore_period(words, None, now=NOW)
    assert period is not None and period.moment is None
    assert (period.start.day, period.start.hour) == start
    assert (period.end.day, period.end.hour) == end


def test_a_shift_is_read_from_the_facility_schedule(configure):
    configure({"machine": {"shifts": ["07:00", "15:00", "23:00"]}})
    period = restore_period("the last shift", None, now=NOW)
    assert period is not None and (period.start.hour, period.end.hour) == (7, 15)


@pytest.mark.parametrize("words", ["tomorrow", "next week", "the day after tomorrow"])
def test_a_future_period_is_none_so_the_moment_parser_refuses_it(words):
    assert restore_period(words, None, now=NOW) is None


# -- whole turns -------------------------------------------------------------------------------


async def test_a_value_held_all_of_the_period_is_restored_and_its_period_shown(
    session, machine: SimMachine
):
    now = time.time()
    start, end = _yesterday()
    machine.set_setpoint(QF11, 121.0, t=start - 3600)  # held since before yesterday
    machine.set_setpoint(QF11, 119.5, t=(_midnight_today() + now) / 2)  # changed today

    asked = await session.submit("restore QF11 to its value from yesterday", "t1")

    assert steps(asked) == [
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "channel_write",
        "respond",
    ]
    (op,) = operations(asked)
    assert op["channel"] == QF11 and op["new_value"] == pytest.approx(121.0)
    period = op["derived_from"]["period"]
    assert (period["start"], period["end"]) == (pytest.approx(start), pytest.approx(end))
    assert period["words"] == "yesterday"
    day = time.strftime("%Y-%m-%d", time.localtime(start))
    message = asked.pending_approval["user_message"]
    assert f"the value `{QF11}` held all of yesterday, {day} 00:00–24:00" in message

    done = await session.resume("t1", True)

    assert machine.value(QF11) == pytest.approx(121.0), done.response
    assert machine.setpoint_changes(QF11)[-1][1] == pytest.approx(121.0)


async def test_a_channel_that_changed_during_the_period_is_asked_about_never_guessed(
    session, machine: SimMachine
):
    now = time.time()
    machine.set_setpoint(QF11, 121.0, t=now - 3 * 3600)
    machine.set_setpoint(QF11, 122.5, t=now - 2 * 3600 + 0.5)
    written = machine.setpoint_changes(QF11)
    since, until = _clock(now - 4 * 3600), _clock(now - 3600)

    result = await session.submit(
        f"restore QF11 to its value from between {since} and {until}", "t1"
    )

    assert result.pending_approval is None
    assert "Which moment should QF11 be restored to?" in result.response
    dated = time.localtime(now - 4 * 3600)[:3] != time.localtime(now - 3600)[:3]
    changed = _clock_said(now - 2 * 3600 + 0.5, dated)
    first = _clock_said(now - 3 * 3600, dated)
    assert (
        f"120.000 A until {first}, 121.000 A from {first}, 122.500 A from {changed}"
        in result.response
    )
    assert machine.setpoint_changes(QF11) == written, "nothing was written"

    # each suggestion names a moment inside one value's time: taking it restores that value
    inside = _moment_suggested(now - 2 * 3600 + 60.5)
    assert f"its value from {inside}" in result.response
    asked = await session.submit(f"restore QF11 to its value from {inside}", "t2")
    (op,) = operations(asked)
    assert op["new_value"] == pytest.approx(122.5)
    assert "period" not in op["derived_from"], "an instant keeps the instant's origin"


async def test_a_restore_to_an_instant_is_the_sample_then_not_a_period(
    session, machine: SimMachine
):
    now = time.time()
    machine.set_setpoint(QF11, 121.0, t=now - 3 * 3600)
    machine.set_setpoint(QF11, 119.5, t=now - 1800)

    asked = await session.submit("restore QF11 to its value from an hour ago", "t1")

    (op,) = operations(asked)
    assert op["new_value"] == pytest.approx(121.0)
    assert "period" not in op["derived_from"]
    assert op["derived_from"]["moment"] == pytest.approx(now - 3600, abs=5)
    assert "was 121 A at" in asked.pending_approval["user_message"]


@pytest.mark.parametrize("words", ["tomorrow", "tomorrow morning", "next week"])
async def test_a_restore_to_a_future_period_is_refused(session, machine: SimMachine, words):
    result = await session.submit(f"restore QF11 to its value from {words}", "t1")

    assert result.pending_approval is None
    assert "in the future" in result.response
    assert machine.setpoint_changes(QF11) == ()


async def test_a_period_changed_in_the_archive_while_waiting_is_asked_again_not_sent(
    session, machine: SimMachine
):
    start, end = _yesterday()
    machine.set_setpoint(QF11, 121.0, t=start - 3600)
    machine.set_setpoint(QF11, 119.5, t=(_midnight_today() + time.time()) / 2)
    asked = await session.submit("restore QF11 to its value from yesterday", "t1")
    assert operations(asked)[0]["new_value"] == pytest.approx(121.0)
    # the archive learns of a change during yesterday (a late-arriving sample)
    machine.inject_change(QF11, (start + end) / 2, None, value=123.0)

    again = await session.resume("t1", True)

    assert machine.value(QF11) == pytest.approx(119.5), "nothing was sent"
    assert machine.setpoint_changes(QF11)[-1][1] == pytest.approx(119.5)
    # the sample in force at the period's start is unchanged: only the whole period tells
    assert again.pending_approval is None
    assert "did not hold one value all of yesterday" in again.response
    assert "121.000 A until" in again.response and "123.000 A from" in again.response


async def test_a_held_value_changed_in_the_archive_is_asked_again_with_the_new_value(
    session, machine: SimMachine
):
    start, _ = _yesterday()
    machine.set_setpoint(QF11, 121.0, t=start - 3600)
    machine.set_setpoint(QF11, 119.5, t=(_midnight_today() + time.time()) / 2)
    await session.submit("restore QF11 to its value from yesterday", "t1")
    machine.inject_change(QF11, start - 1800, None, value=121.25)  # held all yesterday instead

    again = await session.resume("t1", True)

    assert machine.value(QF11) == pytest.approx(119.5), "nothing was sent"
    (op,) = operations(again)
    assert op["new_value"] == pytest.approx(121.25)
    message = again.pending_approval["user_message"]
    assert f"121.250 A as the value {QF11} held all of yesterday" in message
    assert "not 121.000 A" in message


# -- what counts as one value --------------------------------------------------------------------


class _ShapedArchive:
    """An archive whose one channel's history is given: a sample before the period, then
    ``samples`` (or bins: ``minimum``/``maximum``)."""

    def __init__(self, before: float, stamps, values, **bins) -> None:
        self.before, self.stamps, self.values, self.bins = before, stamps, values, bins

    async def values_at(self, channels, moment):
        from osprey_desktop.connectors.archiver_base import ArchiverSample

        stamp = moment.timestamp() - 600
        return {QF11: ArchiverSample(QF11, moment.timestamp(), stamp, self.before, precision=2)}

    async def get_data(self, channels, start, end, max_points=None):
        import numpy as np

        from osprey_desktop.connectors.archiver_base import ArchiverData, ArchiverSeries

        bins = {k: np.array(v, dtype=float) for k, v in self.bins.items()}
        series = ArchiverSeries(
            QF11,
            np.array(self.stamps, dtype=float),
            np.array(self.values, dtype=float),
            "A",
            2,
            "mean_60" if bins else "raw",
            **bins,
        )
        return ArchiverData(start, end, {QF11: series})


async def _held(archive: _ShapedArchive):
    from osprey_desktop.capabilities.control_room.held_values import values_held

    start = datetime(2026, 11, 26, 6, 0).astimezone()
    t0 = start.timestamp()
    archive.stamps = [t0 + s for s in archive.stamps]
    return (await values_held(archive, [QF11], start, start + timedelta(hours=6)))[QF11]


async def test_samples_equal_within_the_channels_precision_are_one_value():
    held = await _held(_ShapedArchive(95.0, [60, 120], [95.004, 94.996]))
    assert held.single is not None and held.single.value == pytest.approx(95.0)


async def test_a_change_beyond_the_precision_or_a_gap_is_not_one_value():
    assert (await _held(_ShapedArchive(95.0, [60], [95.01]))).single is None
    assert (await _held(_ShapedArchive(95.0, [60, 120], [float("nan"), 95.0]))).single is None


async def test_a_bin_whose_envelope_moved_is_a_change_even_when_its_mean_came_back():
    from osprey_desktop.capabilities.control_room.held_values import describe_held

    held = await _held(
        _ShapedArchive(95.0, [60, 120], [95.0, 95.0], minimum=[95.0, 95.0], maximum=[95.0, 97.0])
    )
    assert held.single is None and held.summarised
    assert "from 95.00 A to 97.00 A" in describe_held(held)
