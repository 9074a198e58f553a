"""The alarm questions on EPICS: the demo IOC replays a scenario with BPMs in alarm, and the
answer lists what the IOC says is in alarm (its severities), and nothing that is OK."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from osprey_desktop.connectors import close_connectors
from osprey_desktop.connectors.demo_ioc_process import DemoIocProcess
from osprey_desktop.context import ContextManager
from osprey_desktop.planners.selection import reset_planner
from osprey_desktop.registry import reset_registry
from osprey_desktop.session import AgentSession
from tests.investigate.scenario_support import scenario_machine
from tests.support.turns import steps


@pytest.fixture(scope="module")
def scenario_ioc(tmp_path_factory) -> Iterator[DemoIocProcess]:
    folder = tmp_path_factory.mktemp("ioc_config")
    config = folder / "config.yaml"
    config.write_text("control_system:\n  sim:\n    scenario: corrector_step\n")
    process = DemoIocProcess(rate=2.0, extra_env={"OSPREY_DESKTOP_CONFIG": str(config)}).start()
    try:
        yield process
    finally:
        process.stop()


async def test_any_alarms_lists_what_the_ioc_has_in_alarm(
    scenario_ioc, configure, monkeypatch, tmp_path
) -> None:
    for name, value in scenario_ioc.client_environment.items():
        monkeypatch.setenv(name, value)
    configure({"control_system": {"type": "epics"}})
    reset_registry()
    reset_planner()
    # the same scenario computed here: what the IOC should report
    expected = scenario_machine("corrector_step")
    try:
        async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as session:
            result = await session.submit("any alarms?")
        assert steps(result) == ["alarm_overview", "respond"], result.response
        context = next(
            iter(ContextManager(result.state).get_all_of_type("ALARM_OVERVIEW").values())
        )
        assert context.control_system == "epics"
        rows = context.rows
        assert rows, result.response
        in_alarm = {r["channel"] for r in rows}
        assert all(r["severity"] in ("MINOR", "MAJOR", "INVALID") for r in rows), [
            (r["channel"], r["severity"], r["status"]) for r in rows
        ]
        assert all(":BPM" in name for name in in_alarm)
        # the BPMs furthest off in the model are among them; a quiet one is not
        now = [(abs(expected.value(n)), n) for n in expected.database.names if ":BPM" in n]
        worst = max(now)[1]
        assert worst in in_alarm
        assert min(now)[1] not in in_alarm
        assert f"{len(rows)} of {context.checked} channels in alarm" in result.response
    finally:
        await close_connectors()
        reset_registry()
        reset_planner()
