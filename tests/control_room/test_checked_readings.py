"""The check a reading was asked for is answered first, from the values read or archived
(``answers.checks``), through whole turns on the simulated ring."""

from __future__ import annotations

import pytest


async def test_a_band_around_nominal_is_checked_on_each_channel(session):
    result = await session.submit("are both tunes within 0.01 of nominal?", "t1")
    assert result.response.lstrip().startswith("**Yes: both within 0.01 of nominal**")

    result = await session.submit("are both tunes within 1e-9 of nominal?", "t2")
    assert "**No:" in result.response and "not within 1e-09 of nominal" in result.response


async def test_a_level_is_checked_in_the_channels_units(session):
    result = await session.submit("is the beam current above 0.4 A?", "t1")
    assert result.response.lstrip().startswith("**Yes: it is above 0.4 A**")
    result = await session.submit("is the lifetime below 2 h?", "t2")
    assert result.response.lstrip().startswith("**No: it is not below 2 h**")


async def test_a_level_at_any_point_of_a_window_is_checked_on_every_sample(session):
    result = await session.submit("was the sector 7 vacuum above 1e-12 at any point today?", "t1")
    assert "**Yes: 2 of 2 were above 1e-12 at any point in the window**" in result.response


async def test_the_worst_of_a_family_is_named(session):
    result = await session.submit("worst vacuum gauge in the ring right now?", "t1")
    first = result.response.lstrip().splitlines()[0]
    assert first.startswith("**Worst: SR") and ":Pressure at " in first and "(of 24)" in first


async def test_a_reading_asked_without_a_check_gets_no_verdict(session):
    result = await session.submit("what's the beam current", "t1")
    assert "**Yes" not in result.response and "**No" not in result.response


async def test_how_near_a_value_is_said_with_the_distance(session):
    result = await session.submit("is the x tune still near 14.22 or did it drift?", "t1")
    assert result.response.lstrip().startswith("**How near 14.22:** SR:TUNE:X")


async def test_the_distance_from_nominal_is_said_for_each_channel(session):
    result = await session.submit("is the RF frequency readback still at nominal?", "t1")
    first = result.response.lstrip().splitlines()[0]
    assert first.startswith("**Distance from nominal:** SR:RF:Frequency:RB 499.65")


async def test_a_window_said_with_over_gets_no_verdict(session):
    result = await session.submit("plot the lifetime over 2 hours", "t1")
    assert "**No:" not in result.response and "**Yes:" not in result.response


async def test_how_often_a_level_was_passed_is_a_count_of_separate_times(session):
    result = await session.submit("how often was the lifetime over 50 h today?", "t1")
    assert result.response.lstrip().startswith("**SR:DCCT:Lifetime never went above 50 h")
    result = await session.submit("how many times did the beam current go above 0.1 mA today", "t2")
    first = result.response.lstrip().splitlines()[0]
    assert first.startswith("**SR:DCCT:Current went above 0.1 mA once")


def test_a_run_past_the_limit_is_one_time_and_jitter_on_it_is_not_another():
    from osprey_desktop.answers.checks import _times_past

    assert _times_past([1, 1, 1, 5, 6, 5, 1, 1, 1, 1, 7, 1, 1, 1], 4, above=True) == 2
    assert _times_past([5, 5, 1], 4, above=True) == 1  # the window starts past the limit
    assert _times_past([3, 3, 3], 4, above=True) == 0
    # a value that dips just under the limit by less than its own step-to-step jitter
    # stays one time
    assert _times_past([0.0, 0.1, 0.2, 5.0, 3.9, 5.0, 0.2, 0.1, 0.0], 4, above=True) == 1
    assert _times_past([9, 9, 2, 8, 8, 9, 9, 1, 9, 9], 3, above=False) == 2


async def test_a_value_asked_to_be_confirmed_is_read_and_checked_never_written(session):
    result = await session.submit("confirm the QD 22 setpoint = 96.0", "t1")
    assert result.pending_approval is None
    assert result.response.lstrip().startswith("**No: it is not at 96.0**: SR06C:QD22")
    result = await session.submit("make sure the RF frequency setpoint is 499.654 MHz", "t2")
    assert result.pending_approval is None
    assert result.response.lstrip().startswith("**Yes: it is at 499.654 MHz**")
    result = await session.submit("hold QF 9 at 120", "t3")
    assert result.pending_approval is None and "**Yes: all are at 120**" in result.response


def test_a_value_is_the_one_named_to_the_digits_typed():
    from osprey_desktop.answers.checks import _typed_tolerance

    assert _typed_tolerance("0.0") == pytest.approx(0.05)
    assert _typed_tolerance("499.654") == pytest.approx(0.0005)
    assert _typed_tolerance("121") == pytest.approx(0.5)


def test_crossings_either_way_are_counted_and_jitter_is_none():
    from osprey_desktop.answers.checks import _times_crossed

    assert _times_crossed([1, 1, 5, 5, 1, 1, 5, 5], 3) == 3
    assert _times_crossed([1.0, 1.1, 1.0, 1.1], 1.05) == 0  # jitter on the level


async def test_how_often_a_level_was_crossed_is_answered(session):
    result = await session.submit("how often did the lifetime cross 50 h today?", "t1")
    assert result.response.lstrip().startswith("**SR:DCCT:Lifetime never crossed 50 h")
