"""Lists written in lines, slashes or under a shared head, and a physicist's notation, said
the way the parse reads them (``language.item_lists``, ``language.notation``)."""

from __future__ import annotations

import pytest

from osprey_desktop.language.item_lists import items_said_as_a_list
from osprey_desktop.language.notation import notation_said_in_words
from osprey_desktop.language.request import Vocabulary, parse_request
from osprey_desktop.language.write_parsing import parse_write_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset(
        {"beam", "current", "lifetime", "tune", "tunes", "rf", "voltage", "frequency", "gap"}
        | {"vacuum", "pressure", "orbit", "top", "up", "countdown", "stored"}
    ),
)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("- lifetime\n- tunes", "lifetime, tunes"),
        ("check:\n* IG13\n* IG14\n* RF voltage RB", "check: IG13, IG14, RF voltage RB"),
        ("status\n1) current\n2) lifetime", "status: current, lifetime"),
        ("current / lifetime / tunes", "current, lifetime, tunes"),
        ("RF: voltage, frequency", "RF voltage, RF frequency"),
        ("vacuum: s3, s4", "vacuum s3, vacuum s4"),
        ("Before the next injection: the current; the lifetime", "the current; the lifetime"),
        ("I wonder whether the vacuum in sector 9 is OK", "the vacuum in sector 9"),
        ("check whether the lifetime looks fine", "check the lifetime"),
    ],
)
def test_a_list_in_lines_slashes_or_under_a_head_is_one_list(text, said):
    assert items_said_as_a_list(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "orbit: BPM 3, BPM 4",  # the items name their own devices
        "note: lifetime is low, check vacuum",  # sentences, not items
        "HCM3: set it to 0.2 A",
        "BPM33 x/y, last 10 min",  # a pair of planes, not a list
        "read HCM 3, then set it to 0.2 A",
        "look at the lifetime and tell me if everything is fine",  # no channel named fine
    ],
)
def test_what_is_no_list_of_items_stays_as_typed(text):
    assert items_said_as_a_list(text) == text


def test_every_line_of_a_list_is_a_target():
    request = parse_request("- top-up countdown\n- lifetime\n- stored current", WORDS)
    assert request.intent == "read" and len(request.targets) == 3


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Qy over the last 4 h", "vertical tune over the last 4 h"),
        ("Q_x now", "horizontal tune now"),
        ("νy?", "vertical tune?"),
        ("lower V_RF by 100 kV", "lower RF voltage by 100 kV"),
        ("RF f RB since 06:00", "RF frequency RB since 06:00"),
        ("peak I_beam today", "peak beam current today"),
        ("σ(BPM20 x), last 30 min", "standard deviation of BPM20 x, last 30 min"),
        ("ΔI(QD16) = -0.5 A, please", "change QD16 by -0.5 A, please"),
        ("ΔQF3 = +0.2 A", "change QF3 by +0.2 A"),
    ],
)
def test_a_physicists_notation_is_said_in_words(text, said):
    assert notation_said_in_words(text) == said


@pytest.mark.parametrize(
    "text", ["set QF 3 to 121 A", "SR:TUNE:X now", "QX12 readback", "Qxyz", "the max of QF3"]
)
def test_names_and_plain_words_are_no_notation(text):
    assert notation_said_in_words(text) == text


def test_a_difference_written_with_delta_is_a_change_by_that_amount():
    request = parse_request("ΔI(QD16) = -0.5 A", WORDS)
    assert request.intent == "write" and request.quantity.kind == "relative"
    assert request.quantity.value == pytest.approx(-0.5)


def test_a_signed_plus_after_each_device_of_a_list_is_a_change_by_it():
    specs = parse_write_request("QF13 +0.5 A; QF15 +0.5 A")
    assert [(s.target, s.mode, s.amount) for s in specs] == [
        ("QF13", "delta", 0.5),
        ("QF15", "delta", 0.5),
    ]
    # a minus stays a value ("HCM3 -0.5 A" is set to -0.5 A, as alone)
    assert parse_write_request("HCM3 -0.5 A, HCM4 -0.2 A")[0].mode == "absolute"


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("read the corrector next to my hutch (HCM 12)", "read HCM12"),
        ("the quad after the injection septum (QF 3) to 121 A", "set QF3 to 121 A"),
    ],
)
def test_a_device_named_in_parentheses_stands_for_the_description_before_it(text, canonical):
    assert parse_request(text, WORDS).canonical == canonical


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        (
            "uh give me the vacuum the RF voltage um and the energy",
            ("the vacuum", "the RF voltage", "the energy"),
        ),
        ("read back the QF 7 current", ("the QF7 current readback",)),  # a particle, one item
        ("the gap of the ID04 please", ("the gap of the ID04",)),  # a preposition, one item
        # a clause about the noun before it, one item
        ("the gauge the night shift mentioned", ("the gauge the night shift mentioned",)),
    ],
)
def test_an_article_after_a_noun_starts_another_item(text, targets):
    assert parse_request(text, WORDS).targets[: len(targets)] == targets


def test_a_head_that_announces_the_list_is_no_part_of_its_items():
    request = parse_request("Please report the following: lifetime, energy, vertical tune", WORDS)
    assert request.targets == ("lifetime", "energy", "vertical tune")


def test_a_numbered_list_on_one_line_is_a_list():
    from osprey_desktop.language.item_lists import items_said_as_a_list

    said = items_said_as_a_list("1) stored current 2) lifetime 3) RF voltage readback")
    assert [p.strip() for p in said.split(",")] == [
        "stored current",
        "lifetime",
        "RF voltage readback",
    ]
    assert items_said_as_a_list("set HCM 3 to 0.2 A (1) and read it").count(",") == 0
