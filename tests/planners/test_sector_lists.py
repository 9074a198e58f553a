"""A list of sectors is read sector by sector; it is a comparison (the investigation's
statistics) only with a word that compares or ranks."""

from __future__ import annotations

import pytest

from osprey_desktop.language.request import parse_request
from osprey_desktop.planners.investigation_intents import investigation_kind


@pytest.mark.parametrize(
    "text",
    ["pressure in sectors 4, 6 and 8", "orbit of sectors 10 and 11", "sectors 2, 3 & 5 vacuum"],
)
def test_a_list_of_sectors_without_a_comparison_is_no_investigation(text):
    assert investigation_kind(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "compare the pressure in sectors 4 and 8",
        "which of sectors 4, 6 and 8 has the highest pressure",
        "pressure in sector 4 versus sector 8",
    ],
)
def test_a_list_of_sectors_with_a_word_that_compares_is_a_comparison(text):
    assert investigation_kind(text) == "statistics"


def test_the_last_number_of_a_list_of_sectors_is_a_sector_not_an_amount():
    request = parse_request("pressure in sectors 4, 6 and 8")
    assert request.quantity is None
    assert request.targets == (
        "pressure in sectors 4",
        "pressure in sectors 6",
        "pressure in sectors 8",
    )
