"""The answer model: tables of values, histories and writes, facts first, Markdown for the CLI."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from osprey_desktop.answers import Answer, answer_of_message, compose_answer, plan_answer
from osprey_desktop.answers.history import history_table
from osprey_desktop.answers.numbers import format_reading
from osprey_desktop.answers.tables import values_table
from osprey_desktop.capabilities.control_room.contexts import (
    ArchiverDataContext,
    ChannelReading,
    ChannelValuesContext,
    ChannelWriteResultsContext,
    WriteOperationResult,
)

NOW = datetime(2026, 11, 24, 14, 2, 55, tzinfo=UTC)


def reading(value, units="mm", severity="NO_ALARM", status="NO_ALARM", precision=3, age=2.0):
    return ChannelReading(
        value=value,
        timestamp=NOW - timedelta(seconds=age),
        units=units,
        alarm_severity=severity,
        alarm_status=status,
        precision=precision,
    )


def state_with(contexts: dict, plan_steps: list | None = None) -> dict:
    data: dict = {}
    results = {}
    for i, (ctype, key, obj) in enumerate(contexts):
        data.setdefault(ctype, {})[key] = obj.model_dump(mode="json")
        results[key] = {"success": True, "context_key": key, "step_index": i, "timestamp": i}
    return {
        "capability_context_data": data,
        "execution_step_results": results,
        "planning_execution_plan": {"steps": plan_steps or []},
        "execution_start_time": NOW.timestamp() - 3,
    }


def test_values_use_the_channel_precision_not_an_exponent_beside_zeros():
    assert format_reading(-9.274e-04, 3, "A") == "-0.001 A"
    assert format_reading(0.0, 3, "A") == "0.000 A"
    assert format_reading(-0.0001, 3, "A") == "0.000 A"  # never "-0.000"


def test_a_value_far_below_the_precision_keeps_its_exponent():
    # a vacuum pressure listed with 2 decimals is not zero
    assert format_reading(2.3e-9, 2, "Torr") == "2.300e-09 Torr"
    assert format_reading(0.0, 2, "Torr") == "0.00 Torr"


def test_a_values_table_names_alarms_disconnections_and_ages():
    context = ChannelValuesContext(
        channel_values={
            "SR03C:BPM13:X": reading(2.208, severity="MAJOR", status="HIHI", precision=4),
            "SR01C:HCM01:Current": reading(-9.274e-04, units="A"),
        },
        errors={"SR05C:BPM30:X": "timed out after 2 s"},
    )
    table = values_table(context, {"SR03C:BPM13:X": "Horizontal orbit at BPM13"}, NOW.timestamp())
    assert table.columns == ["Channel", "Description", "Value", "Alarm", "Age"]
    bpm, hcm, lost = table.rows
    assert [c.text for c in bpm] == [
        "SR03C:BPM13:X",
        "Horizontal orbit at BPM13",
        "2.2080 mm",
        "MAJOR · HIHI",
        "2.0 s",
    ]
    assert bpm[2].severity == bpm[3].severity == "MAJOR"
    assert hcm[2].text == "-0.001 A" and hcm[3].text == "OK" and not hcm[3].severity
    assert lost[3].text == "DISCONNECTED" and lost[2].severity == "DISCONNECTED"
    assert "2 in alarm or disconnected" in table.title
    markdown = table.to_markdown()
    assert "| SR03C:BPM13:X | Horizontal orbit at BPM13 | 2.2080 mm (MAJOR) | MAJOR · HIHI |" in (
        markdown
    )


def test_a_history_of_many_bpms_lists_the_unusual_ones_first_and_cuts_the_rest():
    t = np.linspace(NOW.timestamp() - 86400, NOW.timestamp(), 500)
    names = [f"SR{i // 6 + 1:02d}C:BPM{i + 1:02d}:X" for i in range(50)]
    data = {n: (0.01 * np.sin(t / 3600 + i)).tolist() for i, n in enumerate(names)}
    data["SR05C:BPM27:X"] = (1.5 + 0.01 * np.sin(t / 3600)).tolist()  # far from the others
    context = ArchiverDataContext(
        timestamps={n: t.tolist() for n in names},
        time_series_data=data,
        units={n: "mm" for n in names},
        start_date=NOW - timedelta(days=1),
        end_date=NOW,
    )
    table = history_table(context, alarms={"SR01C:BPM03:X": "MINOR"})
    assert table.columns == ["Channel", "Last", "Min", "Max", "Mean", "Note"]
    first = [row[0].text for row in table.rows[:2]]
    assert first == ["SR01C:BPM03:X", "SR05C:BPM27:X"]  # names order among the flagged
    assert table.rows[0][1].severity == "MINOR" and "MINOR alarm now" in table.rows[0][5].text
    assert "far from the others" in table.rows[1][5].text
    assert len(table.rows) == 16 and "need a look" in table.title
    assert table.notes and table.notes[0].startswith("… and 34 more channels, none out of")
    # one number of decimals for the whole unit: the column lines up
    decimals = {row[1].text.split()[0].split(".")[1].__len__() for row in table.rows}
    assert len(decimals) == 1


def test_write_facts_stay_first_and_word_for_word_with_a_table_for_the_window():
    write = ChannelWriteResultsContext(
        results=[
            WriteOperationResult(
                channel="SR01C:HCM01:Current:SP",
                requested_value=50,
                previous_value=0.0,
                units="A",
                outcome="blocked",
                message="50.0 A is above the maximum of 5.0 A",
            )
        ]
    )
    state = state_with([("CHANNEL_WRITE_RESULTS", "w", write)])
    summaries = {"CHANNEL_WRITE_RESULTS.w": write.get_summary()}
    plan = plan_answer(state, summaries, now=NOW.timestamp())
    assert not plan.ask_planner  # nothing left for the planner: it cannot add "Done."
    answer = compose_answer(plan, "", state, now=NOW.timestamp())
    assert answer.tone == "refused" and answer.headline == "Refused"
    assert answer.to_markdown() == "\n".join(write.get_summary()["facts"])
    table = answer.tables("writes")[0]
    assert table.rows[0][4].text == "blocked" and table.rows[0][4].look == "refused"


def test_values_become_a_table_and_the_channels_that_fed_them_are_not_repeated():
    values = ChannelValuesContext(channel_values={"SR:DCCT:Current": reading(500.21, "mA")})
    state = state_with(
        [("CHANNEL_VALUES", "read", values)],
        plan_steps=[
            {
                "capability": "channel_read",
                "context_key": "read",
                "inputs": [{"CHANNEL_ADDRESSES": "find"}],
            }
        ],
    )
    summaries = {
        "CHANNEL_ADDRESSES.find": {"type": "Channel Addresses", "channels": ["SR:DCCT:Current"]},
        "CHANNEL_VALUES.read": values.get_summary(),
        "CUSTOM.extra": {"type": "Custom", "note": "said by the planner"},
    }
    plan = plan_answer(state, summaries, now=NOW.timestamp())
    assert list(plan.for_planner) == ["CUSTOM.extra"]
    answer = compose_answer(plan, "The planner's words.", state, now=NOW.timestamp())
    markdown = answer.to_markdown()
    assert markdown.index("| SR:DCCT:Current |") < markdown.index("The planner's words.")
    assert "500.210 mA" in markdown and "channel_read" not in markdown


def test_a_table_never_hides_a_failed_step():
    values = ChannelValuesContext(channel_values={"SR:DCCT:Current": reading(500.0, "mA")})
    state = state_with([("CHANNEL_VALUES", "read", values)])
    state["execution_step_results"]["hist"] = {
        "success": False,
        "task_objective": "Retrieve the lifetime history",
        "error": "the archiver did not answer",
    }
    plan = plan_answer(state, {"CHANNEL_VALUES.read": values.get_summary()}, NOW.timestamp())
    answer = compose_answer(plan, "", state)
    assert answer.tone == "failed"
    assert "- Retrieve the lifetime history: the archiver did not answer" in answer.to_markdown()


def test_the_answer_survives_the_message_round_trip():
    values = ChannelValuesContext(
        channel_values={"A:B": reading(1.0, severity="MINOR", status="LOW")}
    )
    answer = Answer(blocks=[values_table(values, {}, NOW.timestamp())], tone="success")
    message = {
        "type": "ai",
        "content": "x",
        "additional_kwargs": {"osprey_answer": answer.to_dict()},
    }
    back = answer_of_message(message)
    assert back is not None and back.to_markdown() == answer.to_markdown()
    assert back.tables("values")[0].rows[0][3].severity == "MINOR"
    assert answer_of_message({"type": "ai", "content": "plain"}) is None
