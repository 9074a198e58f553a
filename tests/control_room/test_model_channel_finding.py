"""Model-assisted channel finding: with ``models.planner: chat_model`` the model chooses the
channels, every name it gives is checked against the list, and the built-in finder answers
whenever the model's answer is unusable.

The model is the scripted OpenAI-compatible stub on 127.0.0.1; the capability, the channel
lists, the built-in finder and the chat-model planner's client are the real ones.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from osprey_desktop.base import ClarificationRequired
from osprey_desktop.capabilities.control_room import ChannelFindingCapability
from osprey_desktop.capabilities.control_room.model_channel_finding import (
    PROMPT_CHAR_LIMIT,
    SMALL_LIST,
    choose_channels,
)
from osprey_desktop.channels.database import ChannelDatabase, ChannelRecord
from osprey_desktop.state import StateManager
from tests.support.openai_stub import (
    OpenAIStub,
    StubReply,
    StubRequest,
    http_error,
    json_reply,
    text_reply,
)

FACILITY = """\
version: 1
machine: A made-up injector
channels:
- {name: "TL:STR:H1:SP", description: "Transfer line horizontal steerer 1 current setpoint",
   family: STR, device: H1, role: setpoint, writable: true, units: A}
- {name: "TL:STR:H1:RB", description: "Transfer line horizontal steerer 1 current readback",
   family: STR, device: H1, role: readback, units: A}
- {name: "TL:STR:H2:SP", description: "Transfer line horizontal steerer 2 current setpoint",
   family: STR, device: H2, role: setpoint, writable: true, units: A}
- {name: "TL:STR:H2:RB", description: "Transfer line horizontal steerer 2 current readback",
   family: STR, device: H2, role: readback, units: A}
- {name: "INJ:SEPTUM:V:SP", description: "Injection septum pulse voltage setpoint",
   family: SEPTUM, role: setpoint, writable: true, units: kV}
- {name: "INJ:SEPTUM:V:RB", description: "Injection septum pulse voltage readback",
   family: SEPTUM, role: readback, units: kV}
- {name: "RING:DCCT:I", description: "Stored beam current", family: DCCT, units: mA}
- {name: "RING:DCCT:TAU", description: "Beam lifetime", family: DCCT, units: h}
"""
TIER3 = Path("/work/shared/facility-channels/osprey-tier3/in_context.json")
LOGGER = "osprey_desktop.capabilities.control_room.model_channel_finding"


@pytest.fixture
def stub() -> Iterator[OpenAIStub]:
    with OpenAIStub() as server:
        yield server


@pytest.fixture
def facility(tmp_path: Path) -> Path:
    path = tmp_path / "channels.yaml"
    path.write_text(FACILITY, encoding="utf-8")
    return path


@pytest.fixture
def chat_model(configure, stub: OpenAIStub) -> Callable[..., None]:
    """Configure the chat-model planner on the stub with the channel list at ``path``."""

    def _configure(path: Path, planner: str = "chat_model", **chat: Any) -> None:
        configure(
            {
                "models": {
                    "planner": planner,
                    "chat_model": {"base_url": stub.base_url, "max_retries": 0, **chat},
                },
                "execution_control": {"limits": {"retry_backoff_seconds": 0}},
                "control_system": {"channel_database": str(path)},
            }
        )

    return _configure


def choice(*names: str) -> StubReply:
    return json_reply({"channels": list(names), "reasoning": "what the request names"})


async def find(text: str, *, writable: bool = False) -> list[str]:
    """The channels ``channel_finding`` stores for ``text``, run as the router runs it."""
    step = {
        "context_key": "cf",
        "capability": "channel_finding",
        "task_objective": text,
        "success_criteria": "",
        "expected_output": "CHANNEL_ADDRESSES",
        "parameters": {"writable": writable},
        "inputs": [],
    }
    state = dict(StateManager.create_fresh_state(text))
    state["task_current_task"] = text
    state["planning_execution_plan"] = {"steps": [step]}
    state["planning_current_step_index"] = 0
    state["capability_context_data"] = {}
    update = await ChannelFindingCapability(state, step).execute()
    return update["capability_context_data"]["CHANNEL_ADDRESSES"]["cf"]["channels"]


def listed(request: StubRequest) -> list[str]:
    """The names (or families) a prompt offers, one per line after its heading."""
    body = request.messages[-1]["content"].split(":\n", 1)[1]
    return [line.split(" | ")[0] for line in body.splitlines() if " | " in line]


# -- the model's choice ----------------------------------------------------------------------


async def test_the_models_valid_choice_is_used(stub, facility, chat_model):
    chat_model(facility)
    stub.queue(choice("RING:DCCT:I"))

    # the built-in finder knows neither "charge" nor "circulating" and would ask
    assert await find("how much charge is circulating?") == ["RING:DCCT:I"]

    (request,) = stub.requests
    assert request.response_schema["name"] == "ChannelChoiceReply"
    assert "how much charge is circulating?" in request.prompt_text
    assert len(listed(request)) == 8, "a small list is shown whole"
    assert "RING:DCCT:I | Stored beam current" in request.prompt_text


async def test_a_made_up_name_is_dropped_and_the_builtin_finder_answers(
    stub, facility, chat_model, caplog
):
    chat_model(facility)
    stub.queue(choice("INJ:SEPTUM:KICK:RB"))

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        found = await find("read the septum")

    assert found == ["INJ:SEPTUM:V:SP", "INJ:SEPTUM:V:RB"]  # the built-in finder's answer
    assert "dropped INJ:SEPTUM:KICK:RB, not in the channel list" in caplog.text
    assert "the built-in finder answers" in caplog.text


async def test_made_up_names_never_reach_the_answer_beside_a_valid_one(
    stub, facility, chat_model, caplog
):
    chat_model(facility)
    stub.queue(choice("TL:STR:H2:RB", "TL:STR:H3:RB", "tl:str:h1:rb"))

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        found = await find("how are the transfer line steerers 2 doing")

    assert found == ["TL:STR:H2:RB"]
    assert "dropped TL:STR:H3:RB, tl:str:h1:rb, not in the channel list" in caplog.text


async def test_the_request_numbers_bind_the_model_as_they_bind_the_finder(
    stub, facility, chat_model, caplog
):
    chat_model(facility)
    stub.queue(choice("TL:STR:H1:RB"))

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        found = await find("read steerer 2 readback")

    assert found == ["TL:STR:H2:RB"]
    assert "none numbered as" in caplog.text


# -- failures fall back ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        http_error(500, "model server crashed"),
        http_error(400, "response_format is not supported"),
        text_reply("I think you mean the septum."),
        json_reply({"names": ["INJ:SEPTUM:V:RB"]}),
    ],
    ids=["server error", "rejected request", "prose", "wrong shape"],
)
async def test_a_model_failure_falls_back_to_the_builtin_finder(
    stub, facility, chat_model, caplog, reply
):
    chat_model(facility)
    stub.queue(reply)

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        found = await find("read the septum")

    assert found == ["INJ:SEPTUM:V:SP", "INJ:SEPTUM:V:RB"]
    assert len(stub.requests) == 1
    assert "model-assisted channel finding failed" in caplog.text


async def test_a_model_that_does_not_answer_in_time_falls_back(stub, facility, chat_model, caplog):
    chat_model(facility, timeout_seconds=0.5)
    release = threading.Event()

    def slow(request: StubRequest) -> StubReply:
        release.wait(10)
        return choice("RING:DCCT:TAU")

    stub.set_responder(slow)
    started = time.monotonic()
    try:
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            found = await find("read the septum")
    finally:
        release.set()  # the handler thread ends; its late answer goes nowhere

    assert found == ["INJ:SEPTUM:V:SP", "INJ:SEPTUM:V:RB"]
    assert time.monotonic() - started < 3.0
    assert "did not answer within 0.5 s" in caplog.text
    assert "the built-in finder answers" in caplog.text


# -- the exact-name rules and writes ----------------------------------------------------------


async def test_a_typed_name_the_list_lacks_is_asked_about_before_the_model(
    stub, facility, chat_model
):
    chat_model(facility)
    stub.queue(choice("TL:STR:H2:SP"))

    with pytest.raises(ClarificationRequired, match="There is no H7"):
        await find("set H7 to 1 A", writable=True)

    assert stub.requests == [], "the model is not asked when the name itself is missing"


async def test_a_write_offers_and_keeps_only_writable_channels(stub, facility, chat_model):
    chat_model(facility)
    stub.queue(choice("INJ:SEPTUM:V:RB", "INJ:SEPTUM:V:SP"))

    assert await find("set the septum to 5 kV", writable=True) == ["INJ:SEPTUM:V:SP"]

    offered = listed(stub.requests[0])
    assert offered == ["TL:STR:H1:SP", "TL:STR:H2:SP", "INJ:SEPTUM:V:SP"]
    assert "will be written to" in stub.requests[0].prompt_text


async def test_with_the_builtin_planner_the_model_is_not_asked(stub, facility, chat_model):
    chat_model(facility, planner="builtin")

    assert await find("read the septum") == ["INJ:SEPTUM:V:SP", "INJ:SEPTUM:V:RB"]
    assert stub.requests == []


# -- large lists --------------------------------------------------------------------------------


@pytest.mark.skipif(not TIER3.exists(), reason="the shared 2,908-channel list is not here")
async def test_a_large_list_is_narrowed_by_families_under_the_prompt_bound(stub, chat_model):
    chat_model(TIER3)

    def model(request: StubRequest) -> StubReply:
        if request.response_schema["name"] == "FamilyChoiceReply":
            return json_reply({"families": ["SR:MAG:HCM:#:CURRENT:RB"], "reasoning": "readback"})
        return choice("SR:MAG:HCM:05:CURRENT:RB")

    stub.set_responder(model)

    found = await find("show the storage ring horizontal corrector 5 readback")

    assert found == ["SR:MAG:HCM:05:CURRENT:RB"]
    families, channels = stub.requests
    assert all(len(r.prompt_text) <= PROMPT_CHAR_LIMIT for r in stub.requests)
    assert "SR:MAG:HCM:#:CURRENT:RB" in listed(families)
    assert len(listed(families)) < 200, "families, not the 2,908 channels"
    offered = listed(channels)
    assert "SR:MAG:HCM:05:CURRENT:RB" in offered and len(offered) <= SMALL_LIST
    assert all(name.startswith("SR:MAG:HCM:") for name in offered)


async def test_a_family_the_list_lacks_is_dropped(stub, chat_model, caplog):
    chat_model(Path("resources/channels.yaml").absolute())  # 430 channels: the large path

    def model(request: StubRequest) -> StubReply:
        if request.response_schema["name"] == "FamilyChoiceReply":
            return json_reply({"families": ["SR:MAG:HCM:#", "SR#C:IG#:Pressure"], "reasoning": ""})
        return choice("SR04C:IG07:Pressure")

    stub.set_responder(model)

    with caplog.at_level(logging.WARNING, logger=LOGGER):
        found = await find("vacuum pressure at ion gauge 7 in sector 4")

    assert found == ["SR04C:IG07:Pressure"]
    assert "dropped unknown families ['SR:MAG:HCM:#']" in caplog.text
    assert all(name.startswith("SR") and ":IG" in name for name in listed(stub.requests[1]))


async def test_the_prompt_stays_under_the_bound_on_a_list_of_thousands_of_families(
    stub, chat_model, facility
):
    chat_model(facility)  # the planner; the list below is given directly
    database = ChannelDatabase(
        [
            ChannelRecord(name=f"PLANT:{_word(i)}:{_word(i * 7 + 3)}", description=_words(i))
            for i in range(4000)
        ]
    )

    def model(request: StubRequest) -> StubReply:
        if request.response_schema["name"] == "FamilyChoiceReply":
            return json_reply({"families": listed(request)[:2], "reasoning": ""})
        return choice(listed(request)[0])

    stub.set_responder(model)

    names = await choose_channels(database, f"read the {_words(17).split()[0]}", writable=False)

    assert names and names[0] in database
    families, channels = stub.requests
    assert len(families.prompt_text) <= PROMPT_CHAR_LIMIT
    assert "families the request's words match less are not shown" in families.prompt_text
    assert len(channels.prompt_text) <= PROMPT_CHAR_LIMIT


def _word(seed: int) -> str:
    """A digit-free name piece, different for each seed (each channel its own family)."""
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    out = ""
    seed += 1000
    while seed:
        seed, rest = divmod(seed, len(letters))
        out += letters[rest]
    return out


def _words(seed: int) -> str:
    return " ".join(_word(seed * 13 + k).lower() for k in range(10))
