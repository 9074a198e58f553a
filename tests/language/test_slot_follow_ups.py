"""Follow-ups made only of slots (``language.slot_follow_ups``): every word names a slot of
the previous request or says nothing; one word of its own makes a request of its own."""

from __future__ import annotations

import pytest

from osprey_desktop.language.slot_follow_ups import slots_replaced
from tests.support.follow_up_turns import WORDS, merged, parse


@pytest.mark.parametrize("said", ["actually the SP value", "setpoint one, please"])
def test_a_role_with_words_that_say_nothing_replaces_the_role(said):
    request = merged("read VCM21 readback", said)
    assert request is not None and request.intent == "read"
    assert request.targets[0].split()[0] == "VCM21"
    assert request.targets[0].split()[-1].lower() in ("sp", "setpoint")


@pytest.mark.parametrize("said", ["and the minimum instead", "the min, thanks"])
def test_a_statistic_alone_replaces_the_statistic_and_keeps_the_window(said):
    request = merged("average of the lifetime over the last 3 hours", said)
    assert request is not None and request.intent == "statistic"
    assert request.canonical.startswith("min")
    assert "over the last 3 hours" in request.canonical


def test_a_statistic_asked_as_one_number_after_a_history():
    request = merged("RF voltage over the last 6 hours", "only the median as one figure")
    assert request is not None and request.intent == "statistic"
    assert request.canonical.startswith("median of")


@pytest.mark.parametrize("said", ["only the present value please", "what's it now"])
def test_now_after_a_plot_reads_the_same_channels(said):
    request = merged("plot the ID05 gap for the last 30 minutes", said)
    assert request is not None and request.intent == "read"
    assert request.time is None and "ID05" in request.canonical


def test_a_dropped_plot_leaves_a_reading_now():
    request = merged("trend of the RF voltage since 08:00", "forget the trend, what's it at now")
    assert request is not None and request.intent == "read" and request.time is None


@pytest.mark.parametrize(
    ("said", "moment"), [("half an hour earlier?", "13:40"), ("and 20 min after?", "14:30")]
)
def test_a_shift_moves_the_moment(said, moment):
    request = merged("vertical tune at 14:10", said)
    assert request is not None and request.time is not None
    assert moment in request.time.canonical


def test_a_shift_that_leaves_the_day_is_not_guessed():
    assert slots_replaced(parse("vertical tune at 23:50"), parse("20 minutes later"), WORDS) is None


def test_a_place_alone_moves_the_place_and_keeps_the_plot_and_its_time():
    request = merged("plot the vacuum in sector 3 since 06:00", "cell 9")
    assert request is not None and request.intent == "plot"
    assert "9" in request.targets[0] and "3" not in request.targets[0]
    assert request.time is not None and "06:00" in request.time.canonical


def test_i_mean_is_no_statistic():
    request = merged("read HCM17 readback", "no, I mean the setpoint")
    assert request is not None and request.intent == "read"
    assert request.targets[0].split()[-1].lower() == "setpoint"


@pytest.mark.parametrize("said", ["max of the beam current", "max lifetime yesterday"])
def test_a_word_of_its_own_is_a_request_of_its_own(said):
    assert slots_replaced(parse("mean lifetime over the last 2 hours"), parse(said), WORDS) is None


def test_a_change_is_never_a_slot_follow_up():
    assert slots_replaced(parse("set HCM4 to 0.3 A"), parse("readback now"), WORDS) is None


@pytest.mark.parametrize(
    ("first", "said", "kind", "value"),
    [
        ("bump QD 14 down", "0.3 A", "relative", -0.3),
        ("widen the ID 9 gap a little", "1.5 mm please", "relative", 1.5),
        ("trim HCM 8 by +0.1 A", "make it -0.05", "relative", -0.05),
        ("set the ID 9 gap", "to 31 mm", "absolute", 31.0),
    ],
)
def test_an_amount_answering_a_change_keeps_its_direction_or_its_typed_sign(
    first, said, kind, value
):
    request = merged(first, said)
    assert request is not None and request.intent == "write"
    assert request.quantity.kind == kind
    assert request.quantity.value == pytest.approx(value)


def test_a_place_said_with_as_well_asks_the_same_of_that_place():
    # the previous answer is on the screen: "too" asks the same of sector 10
    request = merged("the vacuum in sector 2", "sector 10 too")
    assert request is not None
    assert request.targets == ("the vacuum in sector 10",)


def test_a_place_added_keeps_both_places():
    request = merged("plot the vacuum in sector 2 over the last hour", "add sector 10")
    assert request is not None
    assert len(request.targets) == 2 and "2" in request.targets[0] and "10" in request.targets[1]


def test_the_other_plane_added_to_a_plot_plots_both():
    request = merged("plot the horizontal tune since 06:00", "add the vertical one")
    assert request is not None and request.intent == "plot"
    assert len(request.targets) == 2
    assert request.time is not None and "06:00" in request.time.canonical


def test_a_new_span_said_with_make_it_replaces_the_span():
    request = merged("plot BPM 19 y for the last hour", "make it the last 8 hours")
    assert request is not None and not request.changes
    assert request.time is not None and "8" in request.time.canonical


@pytest.mark.parametrize("said", ["yes, go ahead", "ok do it", "proceed please"])
def test_assent_after_a_change_is_that_change_again(said):
    request = merged("set VCM 30 to 0.15 A", said)
    assert request is not None and request.intent == "write"
    assert request.quantity.value == pytest.approx(0.15)


def test_assent_after_a_reading_is_no_change():
    request = merged("read VCM 30", "ok thanks")
    assert request is None or not request.changes


@pytest.mark.parametrize("said", ["now y", "the y plane too", "and x?"])
def test_a_plane_letter_alone_is_the_other_plane(said):
    first = "read BPM 22 y" if said == "and x?" else "read BPM 22 x"
    request = merged(first, said)
    assert request is not None and request.intent == "read"
    planes = {t.split()[-1].lower() for t in request.targets}
    # "the y plane too" asks the same of y (x is answered already)
    assert planes == ({"x"} if said == "and x?" else {"y"})


def test_as_a_table_after_a_plot_is_the_history_without_a_plot():
    request = merged("plot IG 12 since 05:00", "as a table please")
    assert request is not None and request.intent == "history"
    assert request.time is not None and "05:00" in request.time.canonical


def test_another_target_for_a_statistic_keeps_the_statistic_and_its_window():
    request = merged("mean beam current over the last 4 hours", "for the lifetime instead")
    assert request is not None and "lifetime" in request.canonical
    assert request.time is not None and request.canonical.lower().startswith("mean")


def test_the_other_way_after_a_change_flips_its_sign():
    request = merged("raise VCM 19 by 0.05 A", "the other way")
    assert request is not None and request.quantity.value == pytest.approx(-0.05)


def test_the_plane_of_the_previous_device_goes_to_the_next():
    request = merged("what's the BPM 51 x reading", "and BPM 52?")
    assert request is not None and request.targets[0].split()[-1].lower() == "x"


def test_the_current_value_after_a_history_is_the_value_now():
    request = merged("IG 17 pressure over the last day", "only the current value")
    assert request is not None and request.intent == "read" and request.time is None
    assert "IG17" in request.canonical


def test_at_that_moment_is_the_previous_moment():
    request = merged("what was the beam current at 04:20", "and the lifetime at that moment?")
    assert request is not None and request.time is not None
    assert "04:20" in request.time.canonical and "lifetime" in request.canonical


def test_go_and_a_number_after_a_change_is_its_new_value():
    request = merged("open the ID 11 gap to 30 mm", "go 28 instead")
    assert request is not None and request.intent == "write"
    assert request.quantity.value == pytest.approx(28)
