"""Whole turns through AgentSession on the simulated ring: reads, histories, follow-ups and
the questions asked instead of guesses."""

from __future__ import annotations

from datetime import datetime

from tests.support.turns import steps


async def test_a_follow_up_with_a_new_range_reuses_the_channels(session):
    await session.submit("plot the beam current since 00:00", "t1")

    again = await session.submit("the same for the last 10 minutes", "t1")

    assert steps(again) == ["time_range_parsing", "archiver_retrieval", "respond"]
    values = await session.get_state_values("t1")
    ranges = values["capability_context_data"]["TIME_RANGE"]
    latest = ranges[again.plan["steps"][0]["context_key"]]
    start = datetime.fromisoformat(latest["start_date"])
    end = datetime.fromisoformat(latest["end_date"])
    assert (end - start).total_seconds() == 600
    history = values["capability_context_data"]["ARCHIVER_DATA"]
    assert {tuple(entry["time_series_data"]) for entry in history.values()} == {
        ("SR:DCCT:Current",)
    }


async def test_an_unknown_channel_ends_the_turn_with_a_question(session):
    result = await session.submit("read the flux capacitor temperature", "t1")
    assert "I found no channel matching 'flux capacitor temperature'" in result.response
    assert result.error is None and result.pending_approval is None
    values = await session.get_state_values("t1")
    assert "CHANNEL_VALUES" not in (values.get("capability_context_data") or {})


async def test_in_react_mode_an_ambiguous_range_is_asked_about_too(session):
    # "since 8" is the last 8 o'clock; a range's bare start is asked
    result = await session.submit("/mode:react plot the lifetime from 8", "t1")
    assert "'from 8' could mean 08:00 or 20:00" in result.response


async def test_a_question_using_a_change_verb_reads_and_writes_nothing(session, machine):
    result = await session.submit("is HCM01 set to zero?", "t1")
    assert steps(result) == ["channel_finding", "channel_read", "respond"]
    assert "SR01C:HCM01:Current:SP" in result.response and result.pending_approval is None


async def test_a_quantity_the_list_lacks_is_asked_not_answered_with_another(session):
    for request in ("what's the reflected power on cavity 2", "horizontal corrector 3 temperature"):
        result = await session.submit(request, "t1")
        assert steps(result)[-1] == "clarify", request
        assert "has no '" in result.response


async def test_a_quantity_word_that_only_qualifies_keeps_the_reading(session):
    result = await session.submit("sector 3 horizontal corrector power supply current", "t1")
    assert steps(result) == ["channel_finding", "channel_read", "respond"]
    assert "SR03C:HCM07:Current" in result.response


async def test_the_vacuum_around_a_device_is_read_in_its_sector(session):
    result = await session.submit("What does the vaccum look like around ID09?", "t1")
    assert steps(result) == ["channel_finding", "channel_read", "respond"]
    assert "SR09C:IG17:Pressure" in result.response and "Gap" not in result.response


async def test_a_refused_change_is_taken_in_and_nothing_is_read(session):
    result = await session.submit("never set the RF frequency above 499.656, understood?", "t1")
    assert steps(result) == ["respond"] and result.pending_approval is None
    assert result.response.startswith("Understood: nothing was changed.")


async def test_a_question_about_the_write_limits_is_answered_from_the_write_policy(session):
    result = await session.submit("how far could VCM 5 be moved in one step?", "t1")
    assert steps(result) == ["respond"] and result.pending_approval is None
    assert "SR02C:VCM05:Current:SP" in result.response
    assert "from -5 to 5 A, at most 2 A per write" in result.response

    checked = await session.submit("if I put QF 3 at 135 A, would that be allowed?", "t2")
    assert steps(checked) == ["respond"]
    assert "135 A is above the maximum: it would be refused" in checked.response


async def test_a_limits_question_naming_no_setpoint_asks_which(session):
    result = await session.submit("what's the max step for the flux capacitor?", "t1")
    assert steps(result) == ["respond"]
    assert "Which setpoint's limits do you mean?" in result.response


async def test_a_change_hinted_in_a_form_not_read_is_asked_never_only_read(session, machine):
    result = await session.submit("ID11 could do with a 12 mm gap, could we give them that?", "t1")
    assert steps(result) == ["clarify"] and result.pending_approval is None
    assert "Do you want a change to 12 mm?" in result.response
    state = await session.submit("is VCM 3 set to 0.5 A?", "t2")  # a question of state
    assert steps(state) == ["channel_finding", "channel_read", "respond"]


async def test_a_channel_question_is_answered_only_in_its_own_thread(session):
    asked = await session.submit("the RF power", "a")
    assert steps(asked)[-1] == "clarify"

    elsewhere = await session.submit("the frequency of the RF as read back", "b")
    assert "alias" not in elsewhere.response

    answered = await session.submit("SR:RF:Frequency:RB", "a")
    assert "'rf power' will mean SR:RF:Frequency:RB from now on" in answered.response


async def test_a_request_to_show_me_a_device_reads_it(session):
    """ "me" and "you" in a request to read are no chat: "show me IG 8" reads the gauge."""
    for text, thread in (("show me IG 8", "a"), ("can you give me IG 3 and IG 4", "b")):
        result = await session.submit(text, thread)
        assert steps(result) == ["channel_finding", "channel_read", "respond"]
    about = await session.submit("tell me about yourself", "c")
    assert steps(about) == ["respond"]


async def test_a_range_read_two_ways_is_asked_before_any_archive_is_read(session):
    # the channel is found, the question asked: no range worked out, no archive read
    result = await session.submit("lifetime between 9 and 11", "t1")
    assert steps(result) == ["channel_finding", "clarify"]
    assert "'between 9' could mean 09:00 or 21:00" in result.response
    assert "“between 09:00 and 11:00” or “between 21:00 and 23:00”" in result.response
    assert "For example, you could ask" not in result.response  # its own offers suffice
