"""The error a channel list service raises when it cannot be read."""

from __future__ import annotations

from osprey_desktop.channels.records import ChannelDatabaseError

__all__ = ["SourceError"]


class SourceError(ChannelDatabaseError):
    """A channel list service could not be read (and, on load, no cached copy exists)."""
