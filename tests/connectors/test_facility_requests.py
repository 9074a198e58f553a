"""A facility's own IOC asked in plain English, in process: text and enum-state writes, an
exact name the channel list lacks, a waveform read as a summary, a facility list on the
simulated ring said to be simulated.

The IOC (``facility_ioc``, not made by this product) runs as a child process on free loopback
ports and is stopped by its pid; the session runs the real planner, finder and connectors.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from osprey_desktop.connectors import close_connectors
from osprey_desktop.planners.selection import reset_planner
from osprey_desktop.registry import reset_registry
from osprey_desktop.session import AgentSession
from tests.connectors.facility_ioc import FacilityIocProcess, PvaServerProcess
from tests.support.turns import operations

CHANNELS = """name,description,units,writable
FAC:MODE,Cooling plant operating mode,,yes
FAC:SHUTTER,Beam shutter,,yes
FAC:HEATER:SP,Heater power setpoint,W,yes
FAC:HEATER:RB,Heater power readback,W,no
FAC:WF,Beam profile,mm,no
"""
LIMITS = """channels:
  FAC:MODE:
    writable: true
  FAC:SHUTTER:
    writable: true
"""


@pytest.fixture(scope="module")
def ioc() -> Iterator[FacilityIocProcess]:
    with FacilityIocProcess() as process, PvaServerProcess() as pva:
        process.client_environment = {**process.client_environment, **pva.client_environment}
        yield process


@pytest.fixture
async def session(
    ioc, isolated_config: Path, configure, monkeypatch, tmp_path
) -> AsyncIterator[AgentSession]:
    for key, value in ioc.client_environment.items():
        monkeypatch.setenv(key, value)
    (tmp_path / "channels.csv").write_text(CHANNELS)
    (tmp_path / "limits.yaml").write_text(LIMITS)
    configure(
        {
            "control_system": {
                "type": "epics",
                "channel_database": str(tmp_path / "channels.csv"),
                "limits_database": str(tmp_path / "limits.yaml"),
                "epics": {"writes_enabled": True},
            }
        }
    )
    reset_registry()
    reset_planner()
    async with AgentSession.open(db_path=tmp_path / "threads.sqlite") as opened:
        yield opened
    await close_connectors()
    reset_registry()
    reset_planner()


pytestmark = [pytest.mark.ioc, pytest.mark.timeout(120)]


async def test_a_text_channel_is_written_with_the_words_given(session) -> None:
    asked = await session.submit("set FAC:MODE to maintenance", "t1")
    (operation,) = operations(asked)
    assert operation["new_value"] == "maintenance" and not operation.get("violation")
    done = await session.resume("t1", True)
    assert "**verified**" in done.response, done.response
    back = await session.submit("set the operating mode to auto", "t2")
    assert operations(back)[0]["new_value"] == "auto"
    await session.resume("t2", True)


async def test_a_state_named_like_a_number_is_the_state(session) -> None:
    """'Half' is the shutter's state, not 0.5."""
    asked = await session.submit("set the beam shutter to Half", "t1")
    (operation,) = operations(asked)
    assert operation["new_value"] == "Half", operation
    done = await session.resume("t1", True)
    assert "**verified**" in done.response, done.response
    closed = await session.submit("set the beam shutter to 0", "t2")
    assert operations(closed)[0]["new_value"] == 0
    await session.resume("t2", True)


async def test_a_number_that_is_no_state_is_asked_about(session) -> None:
    asked = await session.submit("set the beam shutter to 0.5", "t1")
    assert asked.pending_approval is None or operations(asked)[0].get("violation")
    assert "its states are 0 Closed, 1 Half, 2 Open" in asked.response, asked.response


async def test_an_exact_name_not_in_the_list_is_read_and_labelled(session) -> None:
    result = await session.submit("read FAC:TEMP", "t1")
    assert "FAC:TEMP is not in the channel list" in result.response, result.response
    assert "21.50 degC" in result.response


async def test_an_exact_pva_name_not_in_the_list_is_read_over_pv_access(session) -> None:
    result = await session.submit("what is pva://PVA:TEMP?", "t1")
    assert "pva://PVA:TEMP is not in the channel list" in result.response, result.response
    assert "21.50 degC" in result.response


async def test_an_exact_name_not_in_the_list_is_never_written(session) -> None:
    result = await session.submit("set FAC:SIGNAL to 2", "t1")
    assert result.pending_approval is None, "no approval for an unlisted channel"
    assert "FAC:SIGNAL" in result.response


async def test_a_waveform_read_is_a_summary(session) -> None:
    result = await session.submit("read FAC:WF", "t1")
    assert "16 values, min 0.50, max 8.00, mean 4.25 mm" in result.response, result.response
    assert "0.5, 1.0, 1.5" not in result.response
