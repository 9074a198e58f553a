"""``language.command_lines``: the command line's forms said in words."""

from __future__ import annotations

import pytest

from osprey_desktop.language.command_lines import command_lines_said_plainly


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("caget SR:DCCT:Current", "read SR:DCCT:Current"),
        ("caget -a -w 5 SR:DCCT:Current", "read SR:DCCT:Current"),
        ("pvget --verbose SR:TUNE:X", "read SR:TUNE:X"),
        ("caput X:SP 0.3", "set X:SP to 0.3"),
        ("caput X:SP=0.3 A", "set X:SP to 0.3 A"),
        ("caput -c X:SP -1.5", "set X:SP to -1.5"),
        ("caput X:SP", "set X:SP"),
        ("hcm20 += 0.1", "increase hcm20 by 0.1"),
        ("hcm20 -= 0.1 A", "decrease hcm20 by 0.1 A"),
        ("qf1 *= 1.01", "scale qf1 by 1.01"),
        ("qf1 /= 2", "scale qf1 by 0.5"),
        ("no, -= 0.1", "no, decrease it by 0.1"),
        ("read QF1, then qf1 += 1", "read QF1, then increase qf1 by 1"),
    ],
)
def test_a_command_line_form_is_said_in_words(typed, said):
    assert command_lines_said_plainly(typed) == said


@pytest.mark.parametrize(
    "typed", ["set HCM3 to 0.2", "HCM3 = 0.2", "lifetime - current", "qf1 /= 0"]
)
def test_other_requests_are_left_as_typed(typed):
    assert command_lines_said_plainly(typed) == typed


def test_a_long_request_without_an_operator_is_left_as_typed():
    text = " and ".join(["read the beam current"] * 400)
    assert command_lines_said_plainly(text) == text
