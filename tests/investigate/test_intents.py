"""Which requests the investigation capabilities claim, and which they leave alone."""

from __future__ import annotations

import pytest

from osprey_desktop.planners.investigation_intents import investigation_kind


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("what is in alarm right now?", "alarms"),
        ("any alarms?", "alarms"),
        ("what's red in sector 3?", "alarms"),
        (
            "We lost about 5 mA of beam yesterday around 14:32. Did the vacuum do anything "
            "weird around then?",
            "incident",
        ),
        ("The beam dumped this morning. Figure out what happened and plot the data.", "incident"),
        ("what changed around 09:00?", "incident"),
        ("largest orbit excursion today", "statistics"),
        ("which BPM was least stable over the last hour", "statistics"),
        ("vacuum in sector 3 vs sector 7 yesterday", "statistics"),
        ("compare the mean lifetime today with yesterday", "statistics"),
        ("did the beam current follow the vacuum yesterday?", "correlation"),
        ("when did the current last fall by more than 1 mA?", "events"),
        ("how often did the reflected power spike in the last 2 days?", "events"),
    ],
)
def test_investigative_questions_are_claimed(text: str, kind: str) -> None:
    assert investigation_kind(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "what are the alarm limits of HCM01?",
        "plot the beam current over the last 2 hours",
        "set HCM01 to 1 A",
        "what is the max current of HCM01",
        "compare the beam current with 08:00",
        "read the tunes",
        "reset the alarm on BPM3",
        "is any neutron monitor in alarm?",
        "gamma detector 2 one-minute average dose rate",
        "average lifetime over the last 2 hours",
        # a statistic of named channels over one window is a history request
        "mean and spread of the lifetime over the last shift",
        "std of BPM12 X over the last hour",
        "is the vertical tune drifting over the last 4 h",
        "max vertical tune today",
        "vacuum in sector 3 between 11 pm and 1 am",
        "compare the horizontal and vertical tune over the last hour",
        "compare QF01 to QF03 since 6:00",
        "hello",
    ],
)
def test_other_requests_are_left_alone(text: str) -> None:
    assert investigation_kind(text) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("what was the RF voltage right before the beam dump at 01:40?", None),
        ("lifetime at the moment of the 05:05 RF trip", None),
        ("the beam dumped at 01:40, what happened?", "incident"),
        ("what happened at the 05:05 trip?", "incident"),
    ],
)
def test_a_value_at_an_event_is_no_investigation_of_it(text, kind):
    assert investigation_kind(text) == kind


def test_the_largest_excursion_of_one_named_device_is_its_own_statistic_not_a_ranking():
    from osprey_desktop.planners.investigation_intents import investigation_kind

    assert investigation_kind("largest excursion of BPM 21 y over the last 3 hours") is None
    assert investigation_kind("largest excursion of BPM 21 and BPM 22 since 06:00") == "statistics"
    assert investigation_kind("which BPM had the largest excursion in the last 2 hours")
