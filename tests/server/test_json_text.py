"""The server's reusable JSON encoders write exactly what ``json.dumps`` writes."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from composer_app.server.json_text import canonical, compact, strict

VALUES: list[Any] = [
    None, True, False, 0, -7, 2**62, 1.5, -0.0, 1e300, "", "plain", "naïve ☃ \"q\" \\ \n \t \x01",
    "\ud800 lone", [], {}, [1, [2, [3, {}]]],
    {"b": 1, "a": [None, "x", {"z": 2.25, "y": "é"}], "c": {"": ""}},
    {"type": "event", "subscriptionId": "s", "event": {"sequence": 3, "payload": {"k": [1.0]}}},
]


@pytest.mark.parametrize("value", VALUES)
def test_the_encoders_match_json_dumps(value: Any) -> None:
    assert compact(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert canonical(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                                          sort_keys=True)
    assert strict(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                                       allow_nan=False)


def test_not_json_is_refused_and_strict_refuses_nan() -> None:
    for encode in (compact, canonical, strict):
        with pytest.raises(TypeError):
            encode({"when": object()})
        with pytest.raises(TypeError):
            encode({1j: 1})
    assert compact([math.nan, math.inf]) == "[NaN,Infinity]"
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            strict({"x": [bad]})
