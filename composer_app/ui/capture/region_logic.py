"""Rules of picking a screenshot region (Qt-free).

Invariants: a region is normalised (any drag direction), clamped to the screen and scaled to
device pixels with the screen's ratio; a drag smaller than ``MIN_REGION`` logical pixels in either
direction is not a region (a click), so it never yields a sliver image.
"""

from __future__ import annotations

MIN_REGION = 4

Rect = tuple[int, int, int, int]


def drag_region(x1: float, y1: float, x2: float, y2: float, width: int,
                height: int) -> Rect | None:
    """The logical rectangle ``(x, y, w, h)`` a drag from ``(x1, y1)`` to ``(x2, y2)`` selects on
    a ``width`` × ``height`` screen, or None for a click."""
    left = max(0, min(int(min(x1, x2)), width))
    top = max(0, min(int(min(y1, y2)), height))
    right = max(0, min(int(max(x1, x2)), width))
    bottom = max(0, min(int(max(y1, y2)), height))
    if right - left < MIN_REGION or bottom - top < MIN_REGION:
        return None
    return left, top, right - left, bottom - top


def device_region(region: Rect, ratio: float, device_w: int, device_h: int) -> Rect:
    """``region`` in device pixels (scaled by ``ratio`` and clamped to the device image)."""
    x, y, w, h = (round(v * ratio) for v in region)
    x = min(max(x, 0), max(device_w - 1, 0))
    y = min(max(y, 0), max(device_h - 1, 0))
    return x, y, max(1, min(w, device_w - x)), max(1, min(h, device_h - y))
