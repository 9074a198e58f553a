"""Follow-ups that name no channel: the previous turn's parse with the slots the new turn names
replaced, the channels just read standing for "it", "that" or nothing at all."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from osprey_desktop.language.follow_ups import follow_up
from osprey_desktop.language.request import Request, Vocabulary, parse_request

WORDS = Vocabulary(
    device_prefixes=frozenset({"hcm", "vcm", "qf", "qd", "bpm", "id", "ig"}),
    channel_words=frozenset(
        {"beam", "current", "lifetime", "tune", "horizontal", "vertical", "rf", "frequency"}
        | {"voltage", "gap", "vacuum", "pressure", "orbit", "corrector", "sector", "stored"}
        | {"setpoint", "readback", "actual", "undulator"}
    ),
)
NOW = datetime(2026, 11, 26, 15, 30, tzinfo=ZoneInfo("Europe/Berlin"))


def after(previous: str, new: str) -> Request | None:
    return follow_up(parse_request(previous, WORDS, NOW), parse_request(new, WORDS, NOW), WORDS)


def value_of(request: Request) -> float | None:
    assert request.quantity is not None
    return request.quantity.value


# -- a value given to what was read -------------------------------------------------------


@pytest.mark.parametrize(
    ("read", "given", "device", "value", "unit"),
    [
        ("VCM 17 readback?", "so → 0.08 A", "VCM17", 0.08, "A"),
        ("qd 22 sp", "-> 97.25 please", "QD22", 97.25, None),
        ("what is the QF 29 setpoint?", "fine => 119.8", "QF29", 119.8, None),
        ("HCM 33 rb", "ok, to -0.07 A", "HCM33", -0.07, "A"),
        ("QD 40 setpoint", "= 96.1", "QD40", 96.1, None),
        ("rf frequency setpoint?", "→ 499.6545 MHz", "rf frequency", 499.6545, "MHz"),
        ("hcm 27 sp?", "ok, put to 0.125 A then", "HCM27", 0.125, "A"),
        ("QF 31 readback", "set to zero", "QF31", 0.0, None),
    ],
)
def test_an_arrowed_value_after_a_setpoint_or_readback_sets_that_device(
    read, given, device, value, unit
):
    merged = after(read, given)

    assert merged is not None and merged.intent == "write"
    assert merged.targets == (device,)
    assert value_of(merged) == value and merged.quantity.kind == "absolute"
    assert merged.quantity.unit == unit


@pytest.mark.parametrize(
    ("read", "given"),
    [
        ("BPM 31 y?", "→ 0.2"),  # a monitor has no setpoint
        ("what is the lifetime", "→ 9"),
        ("what is the lifetime", "set to 9"),
        ("VCM 17 readback?", "0.08 A"),  # no arrow: what it sets is not said
        ("HCM 3 and HCM 4 setpoints?", "→ 0.1"),  # which of the two?
    ],
)
def test_a_value_after_a_read_writes_nothing_unless_it_names_a_setting(read, given):
    merged = after(read, given)

    assert merged is None or not merged.changes


@pytest.mark.parametrize(
    ("change", "given", "device", "value"),
    [
        ("RF voltage setpoint 2.4 MV", "no → 2.45", "RF voltage setpoint", 2.45),
        ("QD18 → 95 A", "→ 94.6 instead", "QD18", 94.6),
        ("set VCM 40 to 0.12 A", "-> -0.12", "VCM40", -0.12),
    ],
)
def test_an_arrowed_value_after_a_change_replaces_only_its_value(change, given, device, value):
    merged = after(change, given)

    assert merged is not None and merged.intent == "write"
    assert merged.targets == (device,)
    assert value_of(merged) == value
    assert merged.quantity.unit == parse_request(change, WORDS, NOW).quantity.unit  # kept


# -- a change of what was read ------------------------------------------------------------


@pytest.mark.parametrize(
    ("read", "said", "device", "value"),
    [
        ("vcm 23 sp", "quarter amp up", "VCM23", 0.25),
        ("rf frequency setpoint?", "up 0.0012345 MHz", "rf frequency", 0.0012345),
        ("QD 14 readback please", "two amps down", "QD14", -2.0),
        ("what is the ID 6 gap", "take it out 1.5 mm", "ID6 gap", 1.5),
        ("ID 11 gap?", "bring it in 3mm", "ID11 gap", -3.0),
    ],
)
def test_a_change_without_a_target_changes_the_device_read(read, said, device, value):
    merged = after(read, said)

    assert merged is not None and merged.intent == "write"
    assert merged.targets == (device,)
    assert merged.quantity.kind == "relative" and value_of(merged) == value


def test_a_change_without_a_number_after_a_read_leaves_the_amount_to_be_asked():
    merged = after("hcm 33 sp?", "a tad lower")

    assert merged is not None and merged.intent == "write"
    assert merged.targets == ("HCM33",)
    assert merged.quantity is not None and merged.quantity.kind == "comparative"
    assert merged.quantity.value is None


def test_a_change_verb_without_an_amount_after_a_read_changes_the_device_read():
    merged = after("the ID 4 gap please", "ok, open slightly then")

    assert merged is not None and merged.intent == "write"
    assert merged.targets == ("ID4 gap",)
    assert merged.quantity is None or merged.quantity.value is None


@pytest.mark.parametrize("said", ["bring it up a bit", "raise it by 0.5 A"])
def test_it_after_a_readback_changes_the_device_never_its_readback(said):
    merged = after("what's the QF25 readback", said)

    assert merged is not None and merged.changes
    assert merged.targets == ("the QF25",) and "readback" not in merged.canonical


def test_a_change_without_a_target_after_a_monitor_is_left_alone():
    merged = after("what is the lifetime", "a bit up")

    assert merged is None or "lifetime" not in " ".join(merged.targets).lower()


# -- "it" with a time: the history or a comparison ----------------------------------------


def test_it_at_a_moment_is_the_history_of_what_was_read():
    merged = after("what's the HCM 21 setpoint?", "oops, and what was it at 3 am?")

    assert merged is not None and merged.intent == "history"
    assert merged.targets == ("HCM21 setpoint",)
    assert merged.time is not None and merged.time.kind == "moment"


def test_a_plot_of_that_over_a_span_is_the_history_of_what_was_read():
    merged = after("qd 9 rb", "chart of that over the last 45 minutes")

    assert merged is not None and merged.intent in ("plot", "history", "statistic")
    assert merged.targets == ("QD9 rb",)
    assert merged.time is not None and "45" in merged.time.canonical


def test_a_drift_of_it_over_a_span_is_a_statistic_of_what_was_read():
    merged = after("read bpm 12 horizontal", "how far did it drift in the last 2 hours")

    assert merged is not None and merged.intent in ("statistic", "history")
    assert merged.targets == ("BPM12 horizontal",)


@pytest.mark.parametrize(
    "said", ["was it lower than that at noon?", "compare it with its value 3 hours ago"]
)
def test_it_compared_with_a_moment_is_now_against_then(said):
    merged = after("what is the RF frequency?", said)

    assert merged is not None and merged.intent == "compare"
    assert merged.targets == ("RF frequency",)
    assert merged.time is not None and merged.time.kind == "moment"


def test_it_with_a_time_names_a_channel_of_its_own_when_it_does():
    merged = after("what's the HCM 21 setpoint?", "what was the lifetime at 3 am?")

    assert merged is None or "HCM21" not in " ".join(merged.targets)


# -- a moment shifted back ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "ago"),
    [
        ("and two hours earlier?", "2 hours ago"),
        ("a week before, at the same time, what was it?", "1 week ago"),
        ("and yesterday at the same hour?", "1 day ago"),
    ],
)
def test_a_moment_before_a_reading_of_now_is_that_long_ago(said, ago):
    merged = after("the vertical tune, please", said)

    assert merged is not None and merged.intent == "history"
    assert merged.targets == ("vertical tune",)
    assert merged.time is not None and merged.time.canonical == ago


def test_a_moment_before_says_nothing_more():
    merged = after("the vertical tune, please", "one day before, and set HCM 3 to 0.1")

    assert merged is None or not merged.changes


# -- a copy of what was read --------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "please give HCM 13 the same, like this one",
        "copy that onto HCM 13",
        "HCM 13 should get this value as well",
    ],
)
def test_another_device_given_the_same_copies_the_value_read(said):
    merged = after("what is the HCM 12 setpoint?", said)

    assert merged is not None and merged.intent == "copy"
    assert "HCM13" in merged.targets
    assert merged.reference is not None and "HCM12" in merged.reference.words


@pytest.mark.parametrize(
    "said", ["and HCM 13 the same?", "is HCM 13 the same as this one?", "HCM 13 as well"]
)
def test_another_device_asked_about_the_same_way_is_no_copy(said):
    merged = after("what is the HCM 12 setpoint?", said)

    assert merged is None or not merged.changes


# -- a change called off ------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    ["hmm no, dont move the quad, leave it", "wait wait, do not touch it", "never mind, leave it"],
)
def test_a_change_called_off_writes_nothing(said):
    merged = after("set QF 19 to 121.3 A", said)

    assert merged is not None and merged.intent == "conversation"


@pytest.mark.parametrize(
    "said", ["no, dont touch it, read the tunes instead", "no, don't set it, 121.1"]
)
def test_a_change_called_off_and_more_said_is_not_only_called_off(said):
    merged = after("set QF 19 to 121.3 A", said)

    assert merged is None or merged.intent != "conversation"


# -- the same for another channel, said politely ------------------------------------------


def test_the_same_for_another_channel_over_the_same_period_keeps_the_time():
    merged = after(
        "plot the RF voltage over the last 3 hours",
        "Would you please do the same for the vacuum in sector 6, for the same time span?",
    )

    assert merged is not None and merged.intent == "plot"
    assert merged.targets == ("the vacuum in sector 6",)
    assert merged.time is not None and "3 hours" in merged.time.canonical


@pytest.mark.parametrize(
    "said", ["same for the lifetime, same window", "can you do the same for the lifetime please"]
)
def test_the_same_for_another_channel_said_short_or_politely(said):
    merged = after("plot the beam current over the last 3 hours", said)

    assert merged is not None and merged.intent == "plot"
    assert merged.targets == ("the lifetime",)
    assert merged.canonical == "plot the lifetime over the last 3 hours"


def test_the_same_place_in_the_other_plane():
    merged = after("show me the vertical orbit in sector 3", "and the same sector, but in x")

    assert merged is not None and merged.targets == ("the horizontal orbit in sector 3",)


# -- the one at another place, a copy's new offset ----------------------------------------


@pytest.mark.parametrize(
    ("previous", "said", "target"),
    [
        ("set the undulator gap to 21 mm", "the one in sector 7 is better, I guess", None),
        ("show the vacuum in sector 4", "no, the ones in sector 11", "the vacuum in sector 11"),
    ],
)
def test_the_one_at_another_place_is_the_same_request_there(previous, said, target):
    merged = after(previous, said)
    before = parse_request(previous, WORDS, NOW)

    assert merged is not None and merged.intent == before.intent
    assert merged.targets == (target or "the undulator gap in sector 7",)
    assert merged.quantity == before.quantity


def test_a_new_offset_replaces_only_the_offset_of_a_copy():
    merged = after("set HCM 30 to HCM 29 minus 0.05 A", "offset -0.15 A then")

    assert merged is not None and merged.intent == "copy"
    assert merged.quantity is not None and merged.quantity.value == -0.15
    assert merged.canonical.startswith("set HCM30 to the same value as HCM29")


# -- a sign is never lost -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("previous", "said", "value"),
    [
        ("set VCM 40 to 0.12 A", "no -0.15", -0.15),
        ("set VCM 40 to 0.12 A", "no –0.15", -0.15),  # an en dash against the number
        ("set VCM 40 to 0.12 A", "ok → −0.15 A", -0.15),  # the minus sign U+2212
        ("vcm 40 readback", "→ −0.15 A", -0.15),
        ("vcm 40 readback", "set to -0.15", -0.15),
        ("vcm 40 readback", "set to −0.15", -0.15),
    ],
)
def test_a_minus_typed_in_any_form_stays_the_value_sign(previous, said, value):
    merged = after(previous, said)

    assert merged is not None and merged.intent == "write"
    assert merged.targets == ("VCM40",)
    assert value_of(merged) == value


@pytest.mark.parametrize("said", ["-0.1 A down", "+0.05 A lower"])
def test_a_sign_and_a_direction_both_said_write_nothing_to_the_device_read(said):
    merged = after("vcm 40 readback", said)

    assert merged is None or merged.targets != ("VCM40",)


@pytest.mark.parametrize(
    "new",
    [
        "Thank you. Could I see the same thing for the stored current?",
        "great, can I have the same for the stored current",
        "I'd like to see the same for the stored current",
    ],
)
def test_the_same_for_another_channel_asked_politely_keeps_the_plot_and_its_time(new):
    request = after("plot the lifetime over the last 3 hours", new)
    assert request is not None and request.intent == "plot"
    assert request.targets == ("the stored current",)
    assert request.time is not None and "3 hours" in request.time.canonical


def test_a_change_called_off_with_send_is_called_off():
    request = after("zero VCM 12", "forget it. don't send anything")
    assert request is not None and not request.changes and request.intent == "conversation"


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("undo whatever got done to VCM 30 since the 6 o'clock handover", "06:00"),
        ("undo what happened to QF 3 since 05:30", "05:30"),
    ],
)
def test_undoing_what_happened_since_a_moment_restores_that_moment(text, moment):
    request = parse_request(text, WORDS, NOW)
    assert request.intent == "restore"
    assert request.time is not None and moment in request.time.canonical


@pytest.mark.parametrize(
    ("previous", "new", "device"),
    [
        ("QD 14 SP to 95.5", "the one next door then, QD 16", "QD16"),
        ("HCM 30 -> 0.25 A", "HCM 31 -> same value", "HCM31"),
        ("set VCM 4 to -0.1 A", "actually VCM 5 instead", "VCM5"),
    ],
)
def test_the_change_asked_before_for_another_device_named_alone(previous, new, device):
    request = after(previous, new)
    assert request is not None and request.intent == "write"
    assert request.targets[0].replace(" ", "").upper().startswith(device)
    assert request.quantity is not None
    assert request.quantity.value == parse_request(previous, WORDS, NOW).quantity.value


def test_another_device_after_a_reading_is_no_change():
    request = after("read HCM 3", "HCM 4 then")
    assert request is None or not request.changes


def test_another_device_with_a_value_of_its_own_keeps_its_value():
    request = after("set HCM 3 to 0.2 A", "HCM 4 to 0.3 A then")
    assert request is None or request.quantity is None or request.quantity.value == 0.3


def test_another_device_with_a_time_of_its_own_is_no_change():
    request = after("set HCM 3 to 0.2 A", "HCM 4 readback since 06:00")
    assert request is None or not request.changes


@pytest.mark.parametrize(
    ("first", "then", "intent", "targets"),
    [
        ("Qx trend 2h", "Qy too", "plot", ("vertical tune",)),
        ("plot the lifetime for the last hour", "the current too", "plot", ("the current",)),
    ],
)
def test_an_item_said_with_too_keeps_the_request_and_its_time(first, then, intent, targets):
    merged = after(first, then)
    assert merged is not None and (merged.intent, merged.targets) == (intent, targets)
    assert merged.time is not None


@pytest.mark.parametrize(
    ("then", "when"),
    [("and at nine?", "09:00"), ("what about 10 o'clock", "10:00"), ("and 15:10?", "15:10")],
)
def test_an_hour_alone_after_a_moment_is_that_hour(then, when):
    merged = after("what was the horizontal tune at 7:00", then)
    assert merged is not None and when in merged.time.canonical
    assert after("what was HCM 3 at 14:30", "and 4") is None or (
        "04:00" not in (after("what was HCM 3 at 14:30", "and 4").canonical)
    )


def test_that_compared_with_now_after_a_moment_is_now_against_then():
    merged = after("What was the stored current at 04:00?", "And how does that compare with now?")
    assert merged is not None and merged.intent == "compare"


def test_another_quantity_after_a_readback_is_its_readback_without_the_courtesy():
    merged = after("Could you tell me the RF frequency readback?", "And the voltage, please?")
    assert merged is not None and merged.targets == ("the voltage readback",)
    assert "please" not in merged.canonical


@pytest.mark.parametrize(
    ("first", "then", "targets"),
    [
        (
            "Could you plot the horizontal tune for the last hour?",
            "Could both of them be on one chart, please?",
            ("the horizontal tune", "the vertical tune"),
        ),
        ("plot HCM 3 for an hour", "both planes", ("HCM3", "VCM3")),
    ],
)
def test_both_after_one_plane_shown_is_both_planes(first, then, targets):
    merged = after(first, then)
    assert merged is not None and merged.targets == targets and merged.time is not None


def test_a_statistic_of_that_over_a_span_after_a_reading():
    merged = after("IG07 pressure", "10-min average of that?")
    assert merged is not None and merged.intent == "statistic"
    assert merged.targets == ("IG07 pressure",) and "10 minutes" in merged.time.canonical


def test_now_and_a_place_after_a_history_is_that_place_over_that_time():
    merged = after("vacuum in sector 4 over the last 24 h", "now sector 9")
    assert merged is not None and merged.time is not None
    assert "sector 9" in " ".join(merged.targets)


@pytest.mark.parametrize(
    ("first", "way"), [("nudge VCM 20 up a bit", 1), ("nudge VCM 20 down a bit", -1)]
)
def test_an_amount_by_after_a_vague_change_is_in_its_way(first, way):
    merged = after(first, "by 0.1 A")
    assert merged is not None and merged.quantity.kind == "relative"
    assert merged.quantity.value == pytest.approx(way * 0.1)


def test_another_target_after_a_copy_keeps_its_source():
    merged = after("copy QF 5 to QF 7", "and QF 9 too")
    assert merged is not None and merged.intent == "copy" and merged.targets == ("QF9", "QF5")


def test_another_moment_after_a_restore_restores_from_it():
    merged = after("put QF11 back to where it was 2 hours ago", "make it 3 hours ago")
    assert merged is not None and merged.intent == "restore"
    assert merged.time.canonical == "3 hours ago"


def test_a_value_meant_instead_with_a_courtesy_after_it_replaces_the_value():
    merged = after("set HCM 8 to 0.5 A", "sorry, I meant 0.55 then, could you do that instead?")
    assert merged is not None and merged.changes and merged.quantity.value == 0.55


def test_a_spelled_amount_with_its_way_after_a_vague_change():
    merged = after("nudge HCM 7 a bit", "zero point one amps up")
    assert merged is not None and merged.changes and merged.quantity.value == pytest.approx(0.1)
