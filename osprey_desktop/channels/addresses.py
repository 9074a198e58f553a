"""One channel, however its name is written: the identity rule every lookup shares.

PyDM's convention puts the protocol in front of a name: ``ca://X`` (Channel Access),
``pva://X`` (PV Access), ``tango://host:port/domain/family/member/attribute`` (Tango). The
prefix says *how to reach* a channel, not *which* channel it is: ``ca://X``, ``pva://X`` and
``X`` are the one channel ``X`` for the channel list, the write limits, setpoint/readback
pairing, the audit log and the answer. ``channel_key`` is that identity:

- EPICS names (``ca://``, ``pva://``, bare): the name without its prefix, as written (EPICS
  names are case-sensitive; the channel list adds its own case-insensitive lookup);
- Tango names: ``domain/family/member/attribute`` in lower case, without the prefix and the
  database host (Tango names are case-insensitive, and one facility has one device of a name).

A name whose scheme is none of these keeps its whole text as its key, so an unknown scheme
can never collide with a listed channel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The protocols a channel name may name, PyDM's spelling.
PROTOCOLS: tuple[str, ...] = ("ca", "pva", "tango")


class AddressError(ValueError):
    """A name with a protocol prefix that is not supported; the message lists the supported."""


@dataclass(frozen=True)
class ChannelAddress:
    """A channel name split into its protocol (None when bare) and the name the server knows."""

    protocol: str | None
    name: str

    @property
    def key(self) -> str:
        """The channel's identity (see the module)."""
        if self.protocol == "tango":
            return tango_attribute_path(self.name).casefold()
        return self.name

    def spelled(self) -> str:
        """``pva://X`` or ``X``: the name with its prefix, as a list or an answer writes it."""
        return f"{self.protocol}://{self.name}" if self.protocol else self.name


def parse_address(text: str) -> ChannelAddress:
    """Split ``pva://X`` into ("pva", "X"); a bare ``X`` is (None, "X").

    Raises ``AddressError`` for a prefix that is no supported protocol.
    """
    name = text.strip() if isinstance(text, str) else ""
    scheme, sep, rest = name.partition("://")
    if not sep:
        return ChannelAddress(None, name)
    protocol = scheme.strip().lower()
    if protocol not in PROTOCOLS:
        raise AddressError(
            f"'{text}' names the protocol '{scheme}', which is not supported; use "
            "ca:// (Channel Access), pva:// (PV Access), tango:// (Tango) or a bare name."
        )
    return ChannelAddress(protocol, rest.strip())


def channel_key(text: str) -> str:
    """The identity of the channel ``text`` names: equal keys, one channel (see the module)."""
    try:
        return parse_address(text).key
    except AddressError:
        return text.strip() if isinstance(text, str) else str(text)


def protocol_of(text: str) -> str | None:
    """The protocol a name's prefix names, or None for a bare name or an unknown prefix."""
    try:
        return parse_address(text).protocol
    except AddressError:
        return None


def same_channel(first: str, second: str) -> bool:
    """Whether two spellings name one channel (``pva://X`` and ``X``: yes)."""
    return channel_key(first) == channel_key(second)


def tango_attribute_path(name: str) -> str:
    """``domain/family/member/attribute`` of a Tango name, without ``host:port/``.

    ``tango://host:10000/sys/tg_test/1/ampli`` and ``sys/tg_test/1/ampli`` give the same; a
    ``#dbase=no`` suffix (a device server without a database) is not part of the name.
    """
    parts = [p for p in name.strip().partition("#")[0].split("/") if p]
    if len(parts) == 5 and ":" in parts[0]:
        parts = parts[1:]
    return "/".join(parts)


#: A name typed as a control-system name: a protocol prefix, an EPICS name of at least two
#: ``:`` segments that starts with a letter (never a time such as 08:30), or a Tango
#: ``domain/family/member/attribute``.
_TYPED_NAME = re.compile(
    r"(?<![\w:/.-])("
    r"(?:ca|pva|tango)://[^\s,;]+"
    r"|[A-Za-z][\w-]*(?::[\w.-]*[\w])+"
    r"|[A-Za-z][\w-]*(?:/[\w.-]*[\w]){3}"
    r")(?![\w:/])",
    re.IGNORECASE,
)


def typed_names(text: str) -> list[str]:
    """The words of ``text`` written as exact channel names (``TEST:TEMP``, ``pva://X:Y``,
    ``sys/tg_test/1/ampli``), in order, without repeats; trailing punctuation is not part
    of a name."""
    found: dict[str, None] = {}
    for match in _TYPED_NAME.finditer(text or ""):
        found.setdefault(match.group(1).rstrip(".?!"), None)
    return list(found)


__all__ = [
    "PROTOCOLS",
    "AddressError",
    "ChannelAddress",
    "channel_key",
    "parse_address",
    "protocol_of",
    "same_channel",
    "tango_attribute_path",
    "typed_names",
]
