"""Amounts spelled out read the same as their digits: one grammar (language.numbers) for all."""

from __future__ import annotations

import re

import pytest

from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, read_number, spelled_number


@pytest.mark.parametrize(
    ("words", "value"),
    [
        ("zero", 0.0),
        ("seventeen", 17.0),
        ("twenty", 20.0),
        ("twenty-five", 25.0),
        ("ninety nine", 99.0),
        ("a hundred", 100.0),
        ("three hundred and twenty", 320.0),
        ("one hundred nineteen", 119.0),
        ("two thousand", 2000.0),
        ("four thousand five hundred and six", 4506.0),
        ("two point five", 2.5),
        ("zero point two five", 0.25),
        ("point five", 0.5),
        ("twelve point oh five", 12.05),
        ("one and a half", 1.5),
        ("two and a quarter", 2.25),
        ("one and three quarters", 1.75),
        ("half", 0.5),
        ("half an", 0.5),
        ("a quarter of an", 0.25),
        ("three quarters of a", 0.75),
        ("minus three hundred", -300.0),
        ("negative one", -1.0),
        ("minus a half", -0.5),
    ],
)
def test_a_spelled_amount_is_computed(words: str, value: float) -> None:
    assert spelled_number(words) == pytest.approx(value)
    assert re.fullmatch(SPELLED_NUMBER_PATTERN, words, re.I), "the pattern finds what is read"


@pytest.mark.parametrize("words", ["hundred", "and", "a", "one two", "point", "five furlongs"])
def test_words_that_are_not_one_amount_are_not_read(words: str) -> None:
    assert spelled_number(words) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [("1.5", 1.5), ("-0.3", -0.3), ("− 2", -2.0), ("1e-3", 0.001), ("minus 0.4", -0.4)],
)
def test_digits_and_spelled_amounts_share_one_reader(text: str, value: float) -> None:
    assert read_number(text) == pytest.approx(value)
    assert read_number("negative 0.1") == read_number("minus zero point one") == -0.1


def test_the_pattern_stops_at_the_unit() -> None:
    found = re.search(SPELLED_NUMBER_PATTERN, "set HCM01 to one and a half amps", re.I)
    assert found and found.group(0) == "one and a half"
    found = re.search(SPELLED_NUMBER_PATTERN, "HCM04 to three quarters of an ampere", re.I)
    assert found and found.group(0) == "three quarters of an"
