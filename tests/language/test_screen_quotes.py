"""Readings copied from a screen before a request: set aside, their names where pronouns were."""

from __future__ import annotations

import pytest

from osprey_desktop.language.screen_quotes import screen_quotes_set_aside


@pytest.mark.parametrize(
    ("typed", "asked"),
    [
        # a screen named before a colon; a place by the quoted device goes with it
        (
            "vacuum page: SR02C:IG03:Pressure HIHI 4e-8 Torr - what does IG04 beside it say?",
            "what does IG04 say?",
        ),
        # a severity in capitals; the pronoun takes the quoted name
        (
            "SR:BEAM:Energy 2.99 GeV MINOR. trend it for the last hour",
            "trend SR:BEAM:Energy for the last hour",
        ),
        # a verb of display with a device's name; "its" names the device, not its readback
        ("HCM07 RB shows 0.512 A. What is its setpoint?", "What is the HCM07 setpoint?"),
        # a change names the device, never the quoted readback
        ("QD12 RB reads 96.1 A on the quad display - put it back to 96 A", "put QD12 back to 96 A"),
        # the lines of one pasted block are quoted together; "both" takes every name
        (
            "event log:\n10:01:07 SR:TUNE:X HIGH 14.31\n10:01:09 SR:TUNE:Y HIGH 8.42\n"
            "plot both today",
            "plot SR:TUNE:X and SR:TUNE:Y today",
        ),
        # a doubt about the quoted value beside a request is answered by the reading
        (
            "Lifetime reads 7.1 h in yellow. Is that normal? trend it since noon",
            "trend Lifetime since noon",
        ),
        # a reading's value taken in a change: "of that"
        ("ID04 gap RB 14.2 mm. set ID05 to 90 % of that", "set ID05 to 90 % of ID04 gap RB"),
    ],
)
def test_a_quoted_reading_is_set_aside_and_named_where_the_request_points_at_it(typed, asked):
    assert screen_quotes_set_aside(typed) == asked


@pytest.mark.parametrize(
    "typed",
    [
        "the run plan says QF 3 to 121 A at 20:00 - noting it only",  # a document's words
        "beamline 4 says the flux is low - can we open it a bit?",  # a report, no reading
        "HCM3 0.2 A, HCM4 0.3 A - set both",  # no mark of a screen: values given
        "SR:DCCT:Lifetime 6.4 h MINOR",  # nothing asked beside the quote
        "SR:DCCT:Lifetime 6.4 h MINOR - average over the last hour?",  # asked of the quote
        "set HCM3 to 0.2 A - then read it back",  # a request, never a quote
        "QD 5 to 95 A on the quad page - then plot the tunes",  # a value given, no quote
        "VCM4 tripped; the e-log says it was 0.3 A, set it to 0.3 A",  # a request beside it
    ],
)
def test_what_is_no_quote_or_asks_nothing_else_is_left_as_typed(typed):
    assert screen_quotes_set_aside(typed) == typed
