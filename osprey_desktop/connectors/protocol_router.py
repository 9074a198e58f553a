"""``ProtocolRouterConnector``: one connector for Channel Access, PV Access and Tango names.

Channel names follow PyDM's convention: ``ca://NAME`` goes to Channel Access, ``pva://NAME``
to PV Access, ``tango://host:port/d/f/m/attr`` to Tango, and a bare ``NAME`` to the protocol
the channel list spells it with (a list entry ``pva://X`` makes a typed ``X`` a PV Access
channel), else to the default protocol (``control_system.epics.default_protocol``, Channel
Access unless set). The prefix never changes which channel it is (``channels.addresses``).
Each protocol's connector is built and connected on first use, so a facility that only speaks
CA never starts a PV Access client.

Results keep the name as the caller spelt it (``pva://X`` stays ``pva://X``), so a caller
that reads several channels finds each answer under its own name. Writes go to the routed
connector's ``write_channel`` like any other: the guarded write path (policy, audit, approval)
is above this class and sees one connector.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from osprey_desktop.channels.addresses import AddressError, parse_address
from osprey_desktop.connectors.base import (
    ChannelMetadata,
    ChannelNotFoundError,
    ChannelValue,
    ChannelWriteResult,
    ControlSystemConnector,
    ValueCallback,
    Verification,
)

PROTOCOLS: tuple[str, ...] = ("ca", "pva", "tango")


def split_protocol(name: str, default: str = "ca", database: Any = None) -> tuple[str, str]:
    """(protocol, bare name) of ``ca://X``, ``pva://X``, ``tango://…`` or a bare ``X``.

    A bare name takes the protocol its channel-list entry is spelt with, else ``default``.
    """
    try:
        address = parse_address(name)
    except AddressError as exc:
        raise ChannelNotFoundError(str(name), str(exc)) from exc
    if address.protocol is not None:
        return address.protocol, address.name
    record = database.get(address.name) if database is not None else None
    listed = parse_address(record.name).protocol if record is not None else None
    return listed or default, address.name


class ProtocolRouterConnector(ControlSystemConnector):
    """Routes each channel to the connector of its protocol prefix (see the module)."""

    kind = "epics"

    def __init__(
        self,
        factories: Mapping[str, Callable[[], ControlSystemConnector]],
        default_protocol: str = "ca",
        database: Any = None,
    ) -> None:
        if default_protocol not in factories:
            raise ValueError(
                f"default protocol '{default_protocol}' is none of {', '.join(factories)}"
            )
        self._factories = dict(factories)
        self.default_protocol = default_protocol
        self._database = database
        self._connectors: dict[str, ControlSystemConnector] = {}
        self._lock = asyncio.Lock()
        self._open = False

    @property
    def database(self) -> Any:
        """The channel list (readback pairs, listed protocols)."""
        if self._database is not None:
            return self._database
        return getattr(self._peek(self.default_protocol), "database", None)

    def protocol_of(self, name: str) -> str:
        """The protocol ``name`` is reached by (its prefix, its list entry or the default)."""
        return split_protocol(name, self.default_protocol, self.database)[0]

    @property
    def timeout(self) -> float | None:
        return getattr(self._peek(self.default_protocol), "timeout", None)

    def _peek(self, protocol: str) -> ControlSystemConnector:
        """The protocol's connector, built (not connected) if need be: for its settings."""
        if protocol not in self._connectors:
            self._connectors[protocol] = self._factories[protocol]()
        return self._connectors[protocol]

    async def connect(self) -> None:
        self._open = True

    @property
    def connected(self) -> bool:
        return self._open

    async def disconnect(self) -> None:
        connectors, self._connectors = self._connectors, {}
        self._open = False
        for connector in connectors.values():
            await connector.disconnect()

    async def connector_for(self, name: str) -> tuple[ControlSystemConnector, str]:
        """The connected connector of ``name``'s protocol and the bare name it knows."""
        protocol, bare = split_protocol(name, self.default_protocol, self.database)
        if protocol not in self._factories:
            raise ChannelNotFoundError(
                name,
                f"'{name}' is a {protocol} channel, and this control system speaks "
                f"{', '.join(self._factories)} only; check control_system.type.",
            )
        async with self._lock:
            connector = self._peek(protocol)
            if self._open and not connector.connected:
                await connector.connect()
        return connector, bare

    async def read_channel(self, name: str, timeout: float | None = None) -> ChannelValue:
        connector, bare = await self.connector_for(name)
        value = await connector.read_channel(bare, timeout=timeout)
        return value if value.name == name else dataclasses.replace(value, name=name)

    async def get_metadata(self, name: str) -> ChannelMetadata:
        connector, bare = await self.connector_for(name)
        return await connector.get_metadata(bare)

    async def write_channel(
        self,
        name: str,
        value: Any,
        verification: Verification = "readback",
        tolerance: float | None = None,
        timeout: float | None = None,
    ) -> ChannelWriteResult:
        connector, bare = await self.connector_for(name)
        result = await connector.write_channel(
            bare, value, verification=verification, tolerance=tolerance, timeout=timeout
        )
        return result if result.channel == name else dataclasses.replace(result, channel=name)

    async def subscribe(self, name: str, callback: ValueCallback) -> str:
        connector, bare = await self.connector_for(name)
        protocol = self.protocol_of(name)

        def renamed(value: ChannelValue) -> Any:
            return callback(value if value.name == name else dataclasses.replace(value, name=name))

        sub_id = await connector.subscribe(bare, renamed)
        return f"{protocol}:{sub_id}"

    async def unsubscribe(self, subscription_id: str) -> None:
        protocol, _, inner = subscription_id.partition(":")
        connector = self._connectors.get(protocol)
        if connector is not None and inner:
            await connector.unsubscribe(inner)


__all__ = ["PROTOCOLS", "ProtocolRouterConnector", "split_protocol"]
