"""Graded scenario tests: plain-English requests through real turns with the built-in
planner, checked on the facts of the answer against the scenario files' truth and numpy."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from osprey_desktop.connectors import get_archiver_connector
from osprey_desktop.connectors.sim_scenarios import load_scenario
from osprey_desktop.context import ContextManager
from tests.support.turns import steps

VACUUM_PROMPT = (
    "We lost about 5 mA of beam yesterday around 14:32. Did the vacuum do anything weird "
    "around then?"
)
DUMP_PROMPT = "The beam dumped this morning. Figure out what happened and plot the data."


def investigation(result) -> object:
    contexts = ContextManager(result.state).get_all_of_type("INVESTIGATION")
    assert contexts, result.response
    return next(iter(contexts.values()))


async def test_vacuum_burst_names_sector_7_first_with_its_correlation(ring, session) -> None:
    machine = ring("vacuum_burst")
    truth = load_scenario("vacuum_burst").truth
    result = await session.submit(VACUUM_PROMPT)
    assert steps(result) == ["investigation", "respond"], result.response
    answer = result.response
    # the sector is named first, before any other sector
    sectors = [int(s) for s in re.findall(r"\bsector (\d+)", answer)]
    assert sectors and sectors[0] == truth["sector"], answer
    found = investigation(result)
    assert found.results["top_sector"] == truth["sector"]
    # the printed r matches numpy on the archived data, and the truth within ±0.05
    printed = float(re.search(r"Pearson r = ([+-−]?\d\.\d\d)", answer).group(1).replace("−", "-"))
    moment = found.results["moment"]
    archiver = await get_archiver_connector()
    start, end = moment - 1800, moment + 1800
    data = await archiver.get_data(
        [truth["gauges"][0], truth["current"]],
        datetime.fromtimestamp(start, UTC),
        datetime.fromtimestamp(end, UTC),
    )
    gauge, current = (data.series[n] for n in (truth["gauges"][0], truth["current"]))
    r = np.corrcoef(gauge.values, current.values)[0, 1]
    assert printed == pytest.approx(round(r, 2), abs=0.011)
    assert printed == pytest.approx(-0.88, abs=0.05)
    # every other sector's gauges: no correlation beyond chance (the scenario is anchored on
    # the wall clock, so their noise is a new draw each hour; slow noise over one hour has
    # reached |r| = 0.081, against -0.88 for the burst's own gauge)
    others = [
        c["r"]
        for c in found.results["correlations"]
        if machine.database.get(c["a"]).sector != truth["sector"]
    ]
    assert others and max(abs(x) for x in others) <= 0.15
    # the loss: about 5 mA, within a minute of 14:32
    loss = found.results["loss"]
    assert abs(loss["amount"] - truth["beam_loss_ma"]) < 1.0
    anchor = machine.scenario.t0 + truth["moment"]
    assert abs(loss["time"] - anchor) < 60
    assert "Not checked" in answer and "samples" in answer


async def test_beam_dump_names_the_cavity_and_plots(ring, session) -> None:
    machine = ring("rf_trip")
    truth = load_scenario("rf_trip").truth
    result = await session.submit(DUMP_PROMPT)
    assert steps(result) == ["investigation", "respond"], result.response
    answer = result.response
    found = investigation(result)
    anchor = machine.scenario.t0 + truth["moment"]
    assert abs(found.results["moment"] - anchor) < 60
    assert found.results["precursor"]["device"] == truth["cavity"]
    assert truth["cavity"] in answer
    # the RF is named as the first to move, before the beam
    first = re.search(r"First to move: ([^*]+)\*\*", answer).group(1)
    assert truth["trip_channel"] in first and truth["current"] not in first
    earlier = found.results["precursor"]["earlier"]
    assert sum(len(v) for v in earlier.values()) == truth["earlier_excursions"]
    # plotted: a time-series figure over the investigated channels
    figures = result.state.get("ui_captured_figures") or []
    assert any(f.get("metadata", {}).get("figure_type") == "timeseries" for f in figures)
    assert ContextManager(result.state).get_all_of_type("ARCHIVER_DATA")


async def test_unrecorded_corrector_change_is_found_around_its_time(ring, session) -> None:
    machine = ring("corrector_step")
    truth = load_scenario("corrector_step").truth
    when = datetime.fromtimestamp(machine.scenario.t0 + truth["moment"], ring.zone)
    result = await session.submit(f"What changed around {when:%H:%M}?")
    assert steps(result) == ["investigation", "respond"], result.response
    found = investigation(result)
    ranked = [r["channel"] for r in found.results["ranking"]]
    assert truth["corrector"] in ranked[:3] or truth["readback"] in ranked[:3], ranked
    assert "No write was recorded in the audit log" in result.response
    assert f"**{truth['corrector']} changed with no write in the audit log**" in result.response


async def test_alarm_questions_list_only_channels_in_alarm(ring, session) -> None:
    machine = ring("corrector_step")
    for prompt in ("what is in alarm right now?", "any alarms?"):
        result = await session.submit(prompt)
        assert steps(result) == ["alarm_overview", "respond"], result.response
        rows = next(
            iter(ContextManager(result.state).get_all_of_type("ALARM_OVERVIEW").values())
        ).rows
        assert rows, result.response
        for row in rows:
            assert row["severity"] in ("MINOR", "MAJOR", "INVALID", "DISCONNECTED")
            assert machine.read(row["channel"]).alarm_severity != "NO_ALARM"
        ranks = [("MINOR", "MAJOR", "INVALID").index(r["severity"]) for r in rows]
        assert ranks == sorted(ranks, reverse=True)
    result = await session.submit("what's red in sector 3?")
    rows = next(iter(ContextManager(result.state).get_all_of_type("ALARM_OVERVIEW").values())).rows
    assert all(machine.database.get(r["channel"]).sector == 3 for r in rows)


async def test_statistics_match_numpy_to_the_printed_precision(ring, session) -> None:
    ring("vacuum_burst")
    result = await session.submit("mean and spread of the lifetime over the last 2 hours")
    # one channel over one window: the history plan, answered with the statistics asked
    assert steps(result) == [
        "channel_finding",
        "time_range_parsing",
        "archiver_retrieval",
        "respond",
    ], result.response
    (found,) = ContextManager(result.state).get_all_of_type("ARCHIVER_DATA").values()
    (stats,) = found.statistics.values()
    archiver = await get_archiver_connector()
    prov = stats["provenance"]
    data = await archiver.get_data(
        [stats["channel"]],
        datetime.fromtimestamp(prov["start"], UTC),
        datetime.fromtimestamp(prov["end"], UTC),
    )
    values = data.series[stats["channel"]].values
    assert f"mean {float(f'{np.mean(values):.4g}'):.4g}" in result.response
    assert stats["std"] == pytest.approx(np.std(values), rel=1e-9)


async def test_when_did_the_current_last_fall(ring, session) -> None:
    machine = ring("vacuum_burst")
    result = await session.submit(
        "when did the beam current last fall by more than 1 mA in the last 2 days?"
    )
    found = investigation(result)
    events = found.results["events"]
    assert events and abs(events[-1]["time"] - machine.scenario.t0) < 90
    assert all(e["size"] < -1.0 for e in events)
    assert timedelta(seconds=0) < timedelta(seconds=events[-1]["time"] - events[0]["time"] + 1)


async def test_correlation_of_the_vacuum_with_the_beam_current(ring, session) -> None:
    ring("vacuum_burst")
    result = await session.submit("did the beam current follow the vacuum yesterday?")
    assert steps(result) == ["investigation", "respond"], result.response
    found = investigation(result)
    best = found.results["correlations"][0]
    assert best["a"].startswith("SR07C:") and best["r"] < -0.3
    assert best["best_lag_s"] == pytest.approx(15, abs=2)  # the current follows the pressure
    assert "Also: SR07C:" in result.response


async def test_sector_against_sector(ring, session) -> None:
    ring("vacuum_burst")
    result = await session.submit("vacuum in sector 3 vs sector 7 yesterday")
    assert steps(result) == ["investigation", "respond"], result.response
    found = investigation(result)
    assert found.kind == "comparison"
    assert max(found.results["sectors"], key=lambda row: row["mean"])["sector"] == 7
    assert result.response.startswith("**Sector 7 is highest")


async def test_today_against_yesterday(ring, session) -> None:
    ring("vacuum_burst")
    result = await session.submit("compare the mean lifetime today with yesterday")
    found = investigation(result)
    (row,) = found.results["comparisons"]
    # yesterday's burst pulled the lifetime down: its mean is lower than today's
    assert row["label_a"] == "yesterday" and row["mean_change"] > 0


async def test_what_changed_lists_the_write_the_audit_log_recorded(ring, session) -> None:
    ring("vacuum_burst")
    asked = await session.submit("set HCM01 to 0.5 A")
    assert asked.pending_approval, asked.response
    done = await session.resume(asked.thread_id, True)
    assert "verified" in (done.response or "").lower() or done.error is None
    when = datetime.now(ring.zone)
    result = await session.submit(f"what changed around {when:%H:%M}?", asked.thread_id)
    found = investigation(result)
    assert "recorded write" in result.response
    assert "SR01C:HCM01:Current:SP" in result.response
    ranked = [r["channel"] for r in found.results["ranking"]]
    assert "SR01C:HCM01:Current:SP" in ranked or "SR01C:HCM01:Current:RB" in ranked


async def test_an_honest_refusal_at_the_corrector_limit(ring, session) -> None:
    machine = ring("corrector_step")
    truth = load_scenario("corrector_step").truth
    before = machine.value(truth["corrector"])
    result = await session.submit("set HCM14 to 50 A")
    assert result.pending_approval is None
    assert "Nothing was written" in result.response and "blocked" in result.response
    assert "maximum of 5.0 A" in result.response
    assert machine.value(truth["corrector"]) == before == truth["step_a"]


async def test_a_long_list_is_checked_a_sector_at_a_time(ring, session, monkeypatch) -> None:
    import osprey_desktop.capabilities.control_room.alarm_overview as alarm_overview

    ring("corrector_step")
    monkeypatch.setattr(alarm_overview, "MAX_CHANNELS", 100)
    asked = await session.submit("any alarms?")
    assert steps(asked)[-1] == "clarify", asked.response
    assert "Which sector or system should I check?" in asked.response
    narrowed = await session.submit("what's red in sector 5?")
    assert steps(narrowed) == ["alarm_overview", "respond"], narrowed.response


async def test_no_incident_in_the_window_asks_for_the_time(ring, session) -> None:
    ring("vacuum_burst")  # nothing happened this morning
    result = await session.submit(DUMP_PROMPT)
    assert steps(result)[-1] == "clarify", result.response
    assert "I found no incident to investigate" in result.response


async def test_a_quiet_system_is_said_to_be_quiet(ring, session) -> None:
    ring("corrector_step")  # the vacuum did nothing
    result = await session.submit("did the vacuum do anything weird in the last 2 hours?")
    assert steps(result) == ["investigation", "respond"], result.response
    assert "**No, nothing unusual**" in result.response
