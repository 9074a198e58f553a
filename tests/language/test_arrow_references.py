"""A restore or a copy given after an arrow, and a value described before it is asked for
(``language.arrow_references``)."""

from __future__ import annotations

import pytest

from osprey_desktop.language.arrow_references import references_said_plainly
from osprey_desktop.language.request import Vocabulary, parse_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "id"}),
    channel_words=frozenset({"setpoint", "sp", "gap", "current"}),
)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("HCM 11 sp -> value @ 22:15", "restore HCM 11 sp to its value from 22:15"),
        ("QD 40: revert → its value at 3 hours ago", "restore QD 40 to its value from 3 hours ago"),
        (
            "ID05 gap ⇒ setting from yesterday 18:00 thx",
            "restore ID05 gap to its value from yesterday 18:00",
        ),
        ("VCM 2 sp → same as VCM 3 sp", "set VCM 2 sp to the same value as VCM 3 sp"),
        ("QF 13 -> value of QF 15 pls", "set QF 13 to the same value as QF 15"),
        (
            "VCM 9: the setting it had at 6 this morning, bring it back to that value",
            "VCM 9: bring it back to what it was at 6 this morning",
        ),
    ],
)
def test_a_reference_after_an_arrow_is_said_as_the_grammar_reads_it(text, said):
    assert references_said_plainly(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "HCM 11 → 0.25 A",  # a value after the arrow
        "lifetime → ok?",
        "QF 3 value at 09:00?",  # no arrow: a question of the past
    ],
)
def test_anything_else_after_an_arrow_stays(text):
    assert references_said_plainly(text) == text


@pytest.mark.parametrize(
    ("text", "intent", "source"),
    [
        ("HCM 11 sp -> value @ 22:15", "restore", None),
        ("VCM 2 sp → same as VCM 3 sp", "copy", "VCM3"),
        (
            "VCM 9: the setting it had at 6 this morning, bring it back to that value",
            "restore",
            None,
        ),
    ],
)
def test_the_parse_is_a_restore_or_a_copy(text, intent, source):
    request = parse_request(text, WORDS)
    assert request.intent == intent
    assert request.quantity is None  # never a number of the moment written as the value
    if source:
        assert request.reference is not None and source in request.reference.words.replace(" ", "")
    else:
        assert request.time is not None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("QD 30 = QD 32 SP + 0.25 A", "set QD30 to the same value as QD32 SP plus 0.25 A"),
        (
            "set HCM 5 to the value the HCM 6 readback shows",
            "set HCM5 to the same value as HCM6 readback",
        ),
    ],
)
def test_a_copy_keeps_its_sources_role_and_its_offset_once(text, said):
    assert parse_request(text, WORDS).canonical == said
