"""The context, state and approval floors work without building (or importing) the registry.

Each check runs in a fresh interpreter, because this test process has long imported the
registry for other tests; ``sys.modules`` there shows what the floor really pulled in.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

_PROBE = textwrap.dedent(
    """
    import json, sys

    from osprey_desktop.approval import requires_approval
    from osprey_desktop.context import CapabilityContext, ContextManager
    from osprey_desktop.state import StateManager


    class ReadingContext(CapabilityContext):
        CONTEXT_TYPE = "READING"
        CONTEXT_CATEGORY = "MEASUREMENT"
        value: float

        def get_access_details(self, key):
            return {"value": self.value}

        def get_summary(self):
            return {"value": self.value}


    class Writer:
        name = "set_magnet"
        writes = True


    class Reader:
        name = "look"
        writes = False


    state = StateManager.create_fresh_state("read the magnet")
    update = StateManager.store_context(state, "READING", "magnet", ReadingContext(value=1.5))
    state["capability_context_data"] = update["capability_context_data"]
    stored = ContextManager(state).get_context("READING", "magnet")
    selective = {"agent_control": {"approval_global_mode": "selective"}}
    print(json.dumps({
        "value": stored.value,
        "writer_asks": requires_approval(Writer, selective),
        "reader_asks": requires_approval(Reader, selective),
        "unknown_name_asks": requires_approval("never_registered", selective),
        "loaded": sorted(
            m for m in sys.modules
            if m.startswith(("osprey_desktop.registry", "osprey_desktop.capabilities",
                             "osprey_desktop.planners", "osprey_desktop.infrastructure",
                             "osprey_desktop.graph"))
        ),
    }))
    """
)


@pytest.fixture(scope="module")
def probe() -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_contexts_and_state_work_with_no_registry_loaded(probe: dict) -> None:
    assert probe["value"] == 1.5
    assert probe["loaded"] == []


def test_approval_policy_without_a_registry_fails_closed_for_names_it_cannot_check(
    probe: dict,
) -> None:
    assert probe["writer_asks"] is True
    assert probe["reader_asks"] is False
    # a capability named in a plan cannot be looked up: treated as a writer, so it asks
    assert probe["unknown_name_asks"] is True
