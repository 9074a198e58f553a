"""Changes said in another language's word order, and terse or collective writes: each is read
as the change it says, with the operator's own sign, digits and unit; a state word or a
comparative without its value stays a question, and a terse question of the limits writes
nothing (``language.word_order``, ``language.terse_writes``)."""

from __future__ import annotations

import pytest

from osprey_desktop.language.questions import asks_for_limits
from osprey_desktop.language.request import Vocabulary, parse_request
from osprey_desktop.language.terse_writes import terse_said_plainly, value_asked_of_limits
from osprey_desktop.language.word_order import changes_in_english_order, said_in_english_order

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "id", "bpm"}),
    channel_words=frozenset(
        {"gap", "setpoint", "readback", "corrector", "correctors", "current", "horizontal"}
        | {"vertical", "sector", "lifetime", "voltage", "rf"}
    ),
)


@pytest.mark.parametrize(
    ("text", "mode", "amount", "unit"),
    [
        # the verb after its object, the amount after "with" or "of"
        ("The HCM 6 make less with 0.2 ampere please.", "relative", -0.2, "ampere"),
        ("the VCM 14 make more with 0.05 A", "relative", 0.05, "A"),
        ("Make more the QD 4 of five percent.", "percent", 5.0, "%"),
        ("make smaller the QF 40 of 1.5 %", "percent", -1.5, "%"),
        ("Make the HCM 31 more with 0.15 A", "relative", 0.15, "A"),  # not "to 0.15 A"
        ("the VCM 2 you make 0.05 A less", "relative", -0.05, "A"),
        ("reduce of 1.5 percent the QF 45", "percent", -1.5, "%"),
        ("raise the QD 30 of 3 %", "percent", 3.0, "%"),
        # a plus after a name's colon is a change, as after the name itself
        ("QF 12, QF 14: +0.5 A each", "relative", 0.5, "A"),
        ("HCM 8 = +0.5 A", "absolute", 0.5, "A"),
        # a factor before its comparative
        ("The ID 09 gap four times bigger make.", "percent", 300.0, "%"),
        ("make the ID 11 gap 1.5 times larger", "percent", 50.0, "%"),
        # the value after "on", the verb after its object
        ("the QF 17 please set on 119.5 ampere", "absolute", 119.5, "ampere"),
        ("HCM 33 you put on -0.35 A", "absolute", -0.35, "A"),
        ("bring the ID 6 gap on 22 mm", "absolute", 22.0, "mm"),
        ("I want that the VCM 30 goes on -0.1 A", "absolute", -0.1, "A"),
        ("we would like that the ID 8 gap is at 17.5 mm", "absolute", 17.5, "mm"),
    ],
)
def test_another_languages_order_is_the_change_with_its_own_amount(text, mode, amount, unit):
    parsed = parse_request(text, WORDS)

    assert parsed.changes and parsed.quantity is not None, parsed
    assert (parsed.quantity.kind, parsed.quantity.unit) == (mode, unit)
    assert parsed.quantity.value == pytest.approx(amount)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Please to open the ID 3 gap to 30 mm", "Please open the ID 3 gap to 30 mm"),
        ("kindly you give me the lifetime", "kindly give me the lifetime"),
        (
            "First you read the HCM 2 setpoint, after you make it 0.25 A more.",
            "read the HCM 2 setpoint, then make it 0.25 A more.",
        ),
        ("show QD 7; afterwards you lower it by 1 A", "show QD 7; then lower it by 1 A"),
        ("make VCM 4 equal with the VCM 5 setpoint", "make VCM 4 equal to the VCM 5 setpoint"),
        (
            "The HCM 5 setpoint you control first, after you lower him by 0.1 A.",
            "check The HCM 5 setpoint, then lower it by 0.1 A.",
        ),
        (
            "First the beam current you read me, after open the ID 3 gap to 25 mm",
            "read the beam current, then open the ID 3 gap to 25 mm",
        ),
        ("the actual readback of HCM 30", "the readback of HCM 30"),
        # "actual" alone, and "after" that orders no change, are left as typed
        ("what is the actual lifetime", "what is the actual lifetime"),
        ("plot the current after 10:00", "plot the current after 10:00"),
    ],
)
def test_clause_order_of_another_language_is_said_the_english_way(text, said):
    assert said_in_english_order(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "make the QF 8 a bit more",  # no amount: asked, never guessed
        "the ID 3 gap two times smaller make",  # which factor? asked
        "read HCM3 and set on 0.1 A",  # a verb before: no object said first
        "put them on one plot",  # "one plot" is no value
        "the ID 5 gap 1 times bigger make",  # a factor of one changes nothing
        "reduce the current of sector 2",  # "of" names what it is of
        "increase of 2 the QD 5",  # "of" an amount without its unit: asked as typed
        "yesterday someone put HCM 3 on 0.2 A",  # told: the verb of someone, no imperative
        "why would anyone make QF 5 1 A more",
    ],
)
def test_forms_without_a_clear_change_are_left_as_typed(text):
    assert changes_in_english_order(text) == text


def test_a_read_then_a_change_said_with_after_reads_first_and_changes_what_was_read():
    parsed = parse_request(
        "First you show me the QF 44 actual setpoint, after you make it 2 A less.", WORDS
    )

    assert parsed.changes
    assert parsed.canonical.startswith("show me the QF44 setpoint, then decrease")
    assert parsed.quantity is not None and parsed.quantity.value == pytest.approx(-2.0)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("vcms in sec 2 all off pls (0)", "set vcms in sec 2 to 0"),
        ("vcm 7, vcm 8 and vcm 9 all off (0)", "set vcm 7, vcm 8 and vcm 9 to 0"),
        ("read QF3, then hcms in sec 2 off (0)", "read QF3, then set hcms in sec 2 to 0"),
        ("switch off the hcms in sector 8 (=0 A)", "set the hcms in sector 8 to 0 A"),
        (
            "I'd like the horizontal correctors in sector 9 turned off, i.e. 0 A",
            "set the horizontal correctors in sector 9 to 0 A",
        ),
        ("HCM 12 please make flat, set it to zero.", "set HCM 12 to zero."),
        ("chk vcm 30 then clear it to 0", "check vcm 30 then set it to 0"),
        ("a quarter of an amp on hcm 11", "put a quarter of an amp on hcm 11"),
        (
            "set QF1 to 120 A and QF3 to 121 A, in a single approval",
            "set QF1 to 120 A and QF3 to 121 A",
        ),
        ("h.c.m.12 to 0.1 A", "HCM12 to 0.1 A"),
        # a group named, then the value each takes
        ("sector 2 vcms, each -0.05 A", "set sector 2 vcms to -0.05 A"),
        ("the hcms of sector 7, all of them on 0.1 A please", "set the hcms of sector 7 to 0.1 A"),
        ("QD 4 and QD 6, both +0.5 A", "increase QD 4 and QD 6 by 0.5 A"),
        # a state asked for without a verb: the writer asks what "off" is for a number
        ("VCM 21 off pls", "switch off VCM 21"),
        ("sr09 idgap readback", "sector 9 ID gap readback"),
        (
            "current < 400 mA -> HCM 9 SP 0.2 A",
            "if current is below 400 mA, set HCM 9 SP to 0.2 A",
        ),
        ("LT >= six h → QF 5 SP to 121 A", "if LT is at least 6 h, set QF 5 SP to 121 A"),
        ("lifetime under 5 h: VCM 3 -0.05 A", "if lifetime is below 5 h, set VCM 3 to -0.05 A"),
        # a signed plus after a name is a change; after "to" a value
        ("BC? if >300mA → VCM 4 +0.1A", "if BC is above 300 mA, increase VCM 4 by 0.1A"),
        ("BC > 300 mA → VCM 4 to +0.1 A", "if BC is above 300 mA, set VCM 4 to +0.1 A"),
        ("IG 12 < 2e-9 -> raise VCM 4 by 0.1 A", "if IG 12 is below 2e-09, raise VCM 4 by 0.1 A"),
    ],
)
def test_terse_and_collective_writes_are_said_plainly(text, said):
    assert terse_said_plainly(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "switch off HCM3",  # a state alone: the channel's state, or a question
        "VCM 21 off",  # a logbook's line may tell a state
        "is VCM 21 off pls",  # asked
        "hcm 4 off (0.2 A)",  # "off" said with another value: asked, never guessed
        "-0.1 A on hcm 4",  # a sign: a change or a value, as typed
        "2 h on hcm 4",  # no amount to put
        "e.g. 5 A",  # an abbreviation, no device
        "if the current > 400 mA -> HCM 9 to 0.2 A",  # said with "if": read by the conditions
    ],
)
def test_terse_forms_without_their_value_are_left_as_typed(text):
    assert terse_said_plainly(text) == text


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("qf 8 -1.5a ok?", True),
        ("hcm 2 0.3 A fine or too much", True),
        ("vcm 20 +2a ok or not", True),
        ("HCM 5 to 4.5 A over the limit?", True),
        ("hcm 2 to 0.3 A", False),
        ("hcm 2 +0.1 A ok", False),  # no question: the go-ahead of a change
    ],
)
def test_a_terse_value_asked_of_the_limits_is_a_question(text, asked):
    assert value_asked_of_limits(text) is asked
    assert asks_for_limits(text) is asked
    assert (parse_request(text, WORDS).intent == "knowledge") is asked


@pytest.mark.parametrize(
    "text",
    [
        "The QF 3 make more with 1 A?",
        "HCM 4 please you put on 0.1 A?",
        "what if I make QF3 more with 1 A?",
    ],
)
def test_a_change_in_another_order_asked_as_a_question_writes_nothing(text):
    parsed = parse_request(text, WORDS)

    assert not (parsed.changes and parsed.quantity is not None and parsed.quantity.value)


@pytest.mark.parametrize(
    ("text", "amount"),
    [("HCM 30 −0.25 A", -0.25), ("read QF3, then VCM 8 → −0.1 A", -0.1), ("VCM 8 −.05A", -0.05)],
)
def test_a_typographic_minus_keeps_its_sign(text, amount):
    parsed = parse_request(text, WORDS)

    assert parsed.changes and parsed.quantity is not None
    assert parsed.quantity.value == pytest.approx(amount)
