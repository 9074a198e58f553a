"""A statistic of named channels over one window is a history request, answered with the
statistic; comparisons, rankings, correlations and events stay investigations."""

from __future__ import annotations

import pytest

from osprey_desktop.planners.statistic_words import (
    asked_statistics,
    asks_beyond_the_table,
    without_statistic_words,
)
from tests.support.planning import fresh_framework, names, plan  # noqa: F401 - the fixture

HISTORY = ["channel_finding", "time_range_parsing", "archiver_retrieval", "respond"]


@pytest.mark.parametrize(
    "text",
    [
        "std of BPM12 X over the last hour",
        "rms of the RF frequency readback since 06:00",
        "how stable was the lifetime in the last 2 h",
        "is the vertical tune drifting over the last 4 h",
        "peak to peak of the horizontal tune, last 30 min",
        "mean and spread of the lifetime over the last 8 hours",
        "sigma of the beam current over the last hour",
    ],
)
async def test_a_statistic_over_one_window_is_planned_as_history(text):
    assert names(await plan(text)) == HISTORY


@pytest.mark.parametrize(
    ("text", "channel_words"),
    [
        ("how stable was the lifetime in the last 2 h", "lifetime"),
        ("is the vertical tune drifting over the last 4 h", "vertical tune"),
    ],
)
async def test_the_statistic_s_words_are_not_looked_for_as_a_channel(text, channel_words):
    finding = (await plan(text))[0]
    targets = finding["parameters"]["targets"]
    assert len(targets) == 1 and channel_words in targets[0]
    assert not any(w in targets[0] for w in ("stable", "drifting"))


@pytest.mark.parametrize(
    "text",
    [
        "compare the lifetime today with yesterday",
        "when did the current last drop by more than 1 mA",
        "vacuum in sector 3 vs sector 7 over the last hour",
        "did the current follow the vacuum yesterday",
        "largest orbit excursion today",
        "which BPM was least stable over the last hour",
    ],
)
async def test_comparisons_rankings_correlations_and_events_stay_investigations(text):
    assert names(await plan(text)) == ["investigation", "respond"]


async def test_a_statistic_without_a_window_asks_for_the_history_s_range():
    steps = await plan("standard deviation of the beam current")
    assert names(steps) == HISTORY  # the time step asks which range, as any history does


@pytest.mark.parametrize(
    "text",
    ["rms orbit now", "what spread between sp and rb is normal on a quad supply - 0.1 A?"],
)
async def test_a_statistic_of_the_present_or_of_a_stated_value_is_no_history(text):
    assert "archiver_retrieval" not in names(await plan(text))


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("std of BPM12 X over the last hour", ("std",)),
        ("mean and rms of RF f RB since 06:00", ("mean", "rms")),
        ("peak to peak of the horizontal tune, last 30 min", ("peak_to_peak",)),
        ("is the vertical tune drifting over the last 4 h", ("drift",)),
        ("how stable was the lifetime in the last 2 h", ("std", "peak_to_peak", "drift")),
        ("standard deviation of the beam current", ("std",)),
        ("σ of the lifetime", ("std",)),
        ("the min and max of QF3 over the last hour", ("minimum", "maximum")),
        ("peak I_beam over the last 24 h", ("maximum",)),
        ("plot the lifetime for the last 10 min", ()),
    ],
)
def test_the_statistics_asked_are_read_in_the_order_named(text, asked):
    assert asked_statistics(text) == asked


def test_mean_min_and_max_alone_are_what_the_history_table_shows():
    assert not asks_beyond_the_table("average lifetime over the last hour")
    assert not asks_beyond_the_table("min and max of QF3 since 8")
    assert asks_beyond_the_table("mean and std of QF3 since 8")


def test_a_statistic_s_words_leave_the_channel_phrase_unless_the_list_has_them():
    assert without_statistic_words("stats of the beam current") == "the beam current"
    assert without_statistic_words("rms of BPM 3", frozenset({"rms"})) == "rms of BPM 3"
