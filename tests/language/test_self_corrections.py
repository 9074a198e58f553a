"""A value corrected as it is typed, lines pasted from a checklist, and a few nouns that ask
for a reading or a plot (``language.change_phrasings``, ``language.item_lists``,
``language.rewordings``, ``language.spelling``)."""

from __future__ import annotations

import pytest

from osprey_desktop.language.item_lists import items_said_as_a_list
from osprey_desktop.language.request import Vocabulary, parse_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "id", "ig", "bpm"}),
    channel_words=frozenset({"current", "lifetime", "gap", "energy", "vacuum", "gauge", "beam"}),
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("qd 8 to 95.5 ... wait, 95.25", 95.25),
        ("hcm 12 to .2 no wait .25", 0.25),  # the point of the value is no pause
        ("set VCM 4 to -0.1. no. -.15", -0.15),
        ("HCM 30 -> 0.3 … make that 0.35", 0.35),
        ("vcm 9 down 0.05, no, 0.04", -0.04),
    ],
)
def test_the_value_said_last_replaces_the_one_taken_back(text, value):
    request = parse_request(text, WORDS)
    assert request.intent == "write"
    assert request.quantity is not None and request.quantity.value == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Step 7: QD 12 to 95 A", "QD 12 to 95 A"),
        ("4) HCM 2, HCM 3: 0.1 A each", "HCM 2, HCM 3: 0.1 A each"),
        ("Change 2 of 3: VCM 5 = 0.05 A", "VCM 5 = 0.05 A"),
        ("Item #3: read the lifetime", "read the lifetime"),
        ("1.5 A on HCM 3", "1.5 A on HCM 3"),  # a value, no label
    ],
)
def test_a_checklists_labels_are_no_part_of_a_line(text, said):
    assert items_said_as_a_list(text) == said


def test_a_list_announced_with_its_occasion_is_its_items():
    said = items_said_as_a_list("I want to see some values before injection: the energy, IG 3")
    assert said == "I want to see the energy, IG 3"


@pytest.mark.parametrize(
    ("text", "intent", "targets"),
    [
        ("one chart of the lifetime for the last 2 hours", "plot", ("the lifetime",)),
        ("a quick rundown of the gauges in sector 4", "read", ("the gauges in sector 4",)),
        ("the IGs in sector 6", "read", ("the IG in sector 6",)),
    ],
)
def test_nouns_that_ask_for_a_plot_or_a_reading(text, intent, targets):
    request = parse_request(text, WORDS)
    assert request.intent == intent
    assert request.targets == targets


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Step 5: HCM 22 — read, then zero", 0.0),
        ("QD 6: check, then lower by 0.5 A", -0.5),
    ],
)
def test_a_device_then_what_to_do_with_it_reads_then_changes_it(text, value):
    request = parse_request(text, WORDS)
    assert request.intent == "write" and request.reads_first
    assert request.quantity is not None and request.quantity.value == pytest.approx(value)
