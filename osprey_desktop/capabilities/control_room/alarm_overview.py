"""``alarm_overview``: what is in alarm right now ("any alarms?", "what's red in sector 3?").

Every channel of the list (or of the sector and systems the request names) is read in
batches (``investigate.alarms``); the rows in MINOR, MAJOR, INVALID or disconnected are
stored worst first, with value, status and since when (from the archive when there is one,
else the reading's own time). Channels that are OK are never listed. Reads only.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from osprey_desktop.base.errors import ClarificationRequired
from osprey_desktop.capabilities.control_room.common import ControlRoomCapability
from osprey_desktop.capabilities.control_room.investigation_contexts import AlarmOverviewContext
from osprey_desktop.capabilities.control_room.investigation_subjects import (
    sector_of,
    subjects_in,
)
from osprey_desktop.connectors.base import format_value
from osprey_desktop.investigate.alarms import add_since, read_alarms
from osprey_desktop.planners.investigation_intents import is_alarm_request
from osprey_desktop.state import StateManager

#: Larger lists are read for alarms only a sector or a system at a time.
MAX_CHANNELS = 5000


def facility_zone() -> Any:
    """The zone of ``machine.timezone`` (None: this computer's)."""
    from zoneinfo import ZoneInfo

    from osprey_desktop.capabilities.control_room.time_range_parsing import configured_timezone

    name = configured_timezone()
    return ZoneInfo(name) if name else None


def clock(t: float, zone: Any, with_date: bool = False) -> str:
    moment = datetime.fromtimestamp(t, zone) if zone else datetime.fromtimestamp(t).astimezone()
    today = datetime.now(moment.tzinfo).date()
    fmt = "%H:%M:%S" if moment.date() == today and not with_date else "%Y-%m-%d %H:%M:%S"
    return moment.strftime(fmt)


async def channel_list() -> Any:
    """The channels the connected control system serves (with a scenario's, on the ring)."""
    from osprey_desktop.connectors import (
        get_configured_channel_database,
        get_control_system_connector,
    )

    connector = await get_control_system_connector()
    database = getattr(connector, "database", None)
    if database is None or not hasattr(database, "channels_named"):
        database = get_configured_channel_database()
    return connector, database


class AlarmOverviewCapability(ControlRoomCapability):
    """List the channels in alarm or disconnected now, worst first."""

    name = "alarm_overview"
    description = (
        "List what is in alarm right now (MINOR, MAJOR, INVALID, disconnected), worst first, "
        "for the whole machine, a sector or a system"
    )
    provides = ["ALARM_OVERVIEW"]
    requires = []
    keywords = ["alarm", "alarms", "in alarm", "red"]
    examples = ["what is in alarm right now?", "any alarms?", "what's red in sector 3?"]

    @classmethod
    def claims(cls, text: str) -> bool:
        return is_alarm_request(text)

    @classmethod
    def mentioned_in(cls, text: str) -> bool | None:
        return is_alarm_request(text)

    async def execute(self) -> dict[str, Any]:
        from osprey_desktop.config import get_config_value
        from osprey_desktop.connectors import get_archiver_connector

        text = StateManager.get_user_query(self._state) or self.request_text()
        connector, database = await channel_list()
        names, scope = self._scope(text, database)
        if len(names) > MAX_CHANNELS:
            raise ClarificationRequired(
                f"{scope.capitalize()} has {len(names):,} channels; reading them all for "
                f"alarms would take a while. Which sector or system should I check?",
                ["what's red in sector 3?", "any vacuum alarms?", "are the RF channels in alarm?"],
            )
        records = {r.name: r for r in database}
        rows, checked = await read_alarms(connector, names, records)
        try:
            archiver = await get_archiver_connector()
        except Exception:  # noqa: BLE001 - no archive: the readings' own times stand
            archiver = None
        rows = await add_since(archiver, rows, lookback_hours=6.0)
        zone = facility_zone()
        context = AlarmOverviewContext(
            rows=[r.to_dict() for r in rows],
            checked=checked,
            scope=scope,
            read_at=time.time(),
            control_system=str(get_config_value("control_system.type", "") or ""),
            clock=clock(time.time(), zone),
            since_text={
                r.channel: clock(r.since, zone) + ("" if r.since_source == "archive" else " (read)")
                for r in rows
                if r.since is not None
            },
            value_text={
                r.channel: format_value(r.value, records[r.channel].precision, r.units)
                if r.channel in records and r.value is not None
                else ("—" if r.value is None else str(r.value))
                for r in rows
            },
        )
        return self.store_output_context(context)

    @staticmethod
    def _scope(text: str, database: Any) -> tuple[list[str], str]:
        sector = sector_of(text)
        subjects = subjects_in(text, database)
        if subjects:
            names = [n for s in subjects for n in s.channels]
            label = " and ".join(s.label for s in subjects)
            where = f"the {label} channels" + (f" of sector {sector}" if sector else "")
            return list(dict.fromkeys(names)), where
        names = [r.name for r in database if sector is None or r.sector == sector]
        return names, f"sector {sector}" if sector else "the whole channel list"


__all__ = ["AlarmOverviewCapability", "channel_list", "clock", "facility_zone"]
