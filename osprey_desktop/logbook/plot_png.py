"""A history plot as a PNG attachment, drawn without Qt (the core has no plotting library).

Lines on a white canvas inside a grey frame, one colour per channel, with faint grid lines at
a quarter of each axis. Channels that share units share the vertical scale; otherwise each
is drawn to its own range, and ``caption`` says so (the entry's text carries the numbers).
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WIDTH, HEIGHT, MARGIN = 800, 400, 20
COLOURS = [
    (31, 119, 180),
    (214, 39, 40),
    (44, 160, 44),
    (148, 103, 189),
    (255, 127, 14),
    (23, 190, 207),
    (140, 86, 75),
    (227, 119, 194),
]


@dataclass(frozen=True)
class Series:
    channel: str
    times: Sequence[float]
    values: Sequence[float | None]
    units: str = ""


def _finite(values: Sequence[float | None]) -> list[float]:
    return [float(v) for v in values if isinstance(v, int | float) and math.isfinite(v)]


def caption(series: Sequence[Series]) -> str:
    """What the picture shows, in words (colours in the order drawn)."""
    units = {s.units for s in series}
    names = ", ".join(s.channel for s in series)
    scale = "one vertical scale" if len(units) <= 1 else "each channel on its own scale"
    return f"{names} ({scale})"


def render(series: Sequence[Series], width: int = WIDTH, height: int = HEIGHT) -> bytes:
    """PNG bytes of the series (numbers only; gaps break the line)."""
    pixels = bytearray(b"\xff" * (width * height * 3))
    drawable = [s for s in series if _finite(s.values)]
    times = [t for s in drawable for t in s.times]
    t0, t1 = (min(times), max(times)) if times else (0.0, 1.0)
    shared = len({s.units for s in drawable}) <= 1
    all_values = [v for s in drawable for v in _finite(s.values)]
    left, top, right, bottom = MARGIN, MARGIN, width - MARGIN, height - MARGIN

    def put(x: int, y: int, colour: tuple[int, int, int]) -> None:
        if 0 <= x < width and 0 <= y < height:
            i = (y * width + x) * 3
            pixels[i : i + 3] = bytes(colour)

    for k in range(5):  # grid and frame
        shade = (120, 120, 120) if k in (0, 4) else (225, 225, 225)
        x = left + (right - left) * k // 4
        y = top + (bottom - top) * k // 4
        for yy in range(top, bottom + 1):
            put(x, yy, shade)
        for xx in range(left, right + 1):
            put(xx, y, shade)
    for index, s in enumerate(drawable):
        values = all_values if shared else _finite(s.values)
        low, high = min(values), max(values)
        if high - low < 1e-12:
            low, high = low - 1.0, high + 1.0
        colour = COLOURS[index % len(COLOURS)]
        previous: tuple[int, int] | None = None
        for t, v in zip(s.times, s.values, strict=False):
            if not (isinstance(v, int | float) and math.isfinite(v)):
                previous = None
                continue
            x = left + round((t - t0) / ((t1 - t0) or 1.0) * (right - left))
            y = bottom - round((float(v) - low) / (high - low) * (bottom - top))
            if previous is not None:
                _line(put, previous, (x, y), colour)
            else:
                put(x, y, colour)
            previous = (x, y)
    return _png(width, height, bytes(pixels))


def _line(put, a: tuple[int, int], b: tuple[int, int], colour: tuple[int, int, int]) -> None:
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    while True:
        put(x0, y0, colour)
        put(x0, y0 + 1, colour)  # two pixels thick: readable when scaled down
        if (x0, y0) == (x1, y1):
            return
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def _png(width: int, height: int, rgb: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    stride = width * 3
    raw = b"".join(b"\x00" + rgb[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 6))
        + chunk(b"IEND", b"")
    )


def series_of(
    timestamps: Mapping[str, Sequence[float]],
    data: Mapping[str, Sequence[object]],
    units: Mapping[str, str],
) -> list[Series]:
    """Numeric series of an archive context's fields (waveforms and strings are left out)."""
    out = []
    for channel, values in data.items():
        numbers = [
            v if isinstance(v, int | float) and not isinstance(v, bool) else None for v in values
        ]
        if _finite(numbers):
            out.append(
                Series(
                    channel,
                    list(timestamps.get(channel) or []),
                    numbers,
                    str(units.get(channel) or ""),
                )
            )
    return out


__all__ = ["Series", "caption", "render", "series_of"]
