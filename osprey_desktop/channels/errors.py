"""Errors shared by channel lists and the connectors that reach the channels.

``ConnectorError`` is the base of every failure whose message is meant for the operator
(a channel list that does not load, a channel that is not there, a read that failed);
``connectors`` re-exports both from ``connectors.base``, where its own errors derive from them.
"""

from __future__ import annotations

__all__ = ["ChannelNotFoundError", "ConnectorError"]


class ConnectorError(Exception):
    """Base of every connector failure; the message is meant for the operator."""


class ChannelNotFoundError(ConnectorError):
    """The channel is not in the database, or no server answered for it."""

    def __init__(self, channel: str, message: str | None = None) -> None:
        self.channel = channel
        super().__init__(
            message
            or f"Channel '{channel}' was not found. Check the name, or search the channel "
            "database for the right one."
        )
