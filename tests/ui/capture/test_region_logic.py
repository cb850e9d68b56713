"""Region rules of the screenshot picker."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from composer_app.ui.capture.region_logic import device_region, drag_region


def test_drag_in_any_direction_and_clamped() -> None:
    assert drag_region(10, 20, 110, 70, 1920, 1080) == (10, 20, 100, 50)
    assert drag_region(110, 70, 10, 20, 1920, 1080) == (10, 20, 100, 50)
    assert drag_region(-50, -50, 30, 40, 100, 100) == (0, 0, 30, 40)
    assert drag_region(90, 90, 500, 500, 100, 100) == (90, 90, 10, 10)
    assert drag_region(50, 50, 52, 90, 100, 100) is None  # a sliver is a click


def test_device_pixels() -> None:
    assert device_region((10, 20, 100, 50), 2.0, 4000, 3000) == (20, 40, 200, 100)
    assert device_region((1900, 1000, 100, 100), 1.0, 1920, 1080) == (1900, 1000, 20, 80)


@given(st.floats(-100, 3000), st.floats(-100, 3000), st.floats(-100, 3000),
       st.floats(-100, 3000), st.sampled_from([1.0, 1.25, 2.0]))
def test_regions_stay_on_screen(x1: float, y1: float, x2: float, y2: float, ratio: float) -> None:
    region = drag_region(x1, y1, x2, y2, 1920, 1080)
    if region is None:
        return
    x, y, w, h = device_region(region, ratio, round(1920 * ratio), round(1080 * ratio))
    assert x >= 0 and y >= 0 and w >= 1 and h >= 1
    assert x + w <= round(1920 * ratio) and y + h <= round(1080 * ratio)
