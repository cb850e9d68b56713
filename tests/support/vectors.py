"""The golden-vector harness: load, expand, convert, call and normalize (vectors/README.md).

Every vector test goes through ``run`` so that the conversions and normalizations are written once.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

VECTOR_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "vectors"

FN_MODULES = {
    "format_href": "composer_app.core.codecs.references",
    "parse_href": "composer_app.core.codecs.references",
    "sanitize_label": "composer_app.core.codecs.references",
    "format_reference": "composer_app.core.codecs.references",
    "collect_references": "composer_app.core.codecs.references",
    "replace_references": "composer_app.core.codecs.references",
    "is_image_references_only": "composer_app.core.codecs.references",
    "collect_inline_context_ids": "composer_app.core.codecs.prompt",
    "strip_inline_context_references": "composer_app.core.codecs.prompt",
    "insert_inline_context_reference": "composer_app.core.codecs.prompt",
    "append_inline_context_reference": "composer_app.core.codecs.prompt",
    "remove_inline_context_references": "composer_app.core.codecs.prompt",
    "ensure_inline_context_references": "composer_app.core.codecs.prompt",
    "project_for_provider": "composer_app.core.codecs.projection",
    "format_provider_marker": "composer_app.core.codecs.projection",
    "upgrade_legacy_message": "composer_app.core.codecs.legacy",
    "serialize_legacy_message": "composer_app.core.codecs.legacy",
    "decode_record": "composer_app.core.contracts.records",
    "decode_message_context": "composer_app.core.contracts.messages",
    "encode_clipboard_html": "composer_app.core.codecs.clipboard",
    "decode_clipboard_html": "composer_app.core.codecs.clipboard",
    "decode_fragment": "composer_app.core.codecs.clipboard",
    "to_context_id": "composer_app.core.codecs.ids",
    "to_kind_scoped_context_id": "composer_app.core.codecs.ids",
}

RAISES = {"raises": "ContractError"}


def load(name: str) -> list[Any]:
    """The vectors of one file as pytest params, ids = vector names."""
    data = json.loads((VECTOR_DIR / name).read_text(encoding="utf-8"))
    return [pytest.param(v, id=v["name"]) for v in data["vectors"]]


def expand(value: Any) -> Any:
    """Apply ``$repeat`` and ``$concat`` recursively."""
    if isinstance(value, dict):
        if "$repeat" in value and set(value) == {"$repeat", "count"}:
            return expand(value["$repeat"]) * value["count"]
        if "$concat" in value and set(value) == {"$concat"}:
            return "".join(expand(part) for part in value["$concat"])
        return {key: expand(item) for key, item in value.items()}
    if isinstance(value, list):
        return [expand(item) for item in value]
    return value


def _convert(fn_name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    from composer_app.core.contracts.records import decode_record

    out = dict(kwargs)
    if "record" in out:
        out["record"] = decode_record(out["record"])
    if "records" in out and fn_name != "decode_message_context":
        out["records"] = [decode_record(item) for item in out["records"]]
    if fn_name == "replace_references" and "template" in out:
        template = out.pop("template")
        out["fn"] = lambda ref: template.format(
            kind=ref.kind, context_id=ref.context_id, label=ref.label
        )
    return out


def normalize(fn_name: str, result: Any) -> Any:
    """Turn a function's result into the JSON-comparable shape of the vectors."""
    from composer_app.core.contracts.messages import MessageContext, encode_message_context
    from composer_app.core.contracts.records import encode_record

    if result is None or isinstance(result, (str, bool, int)):
        return result
    if fn_name == "parse_href":
        return list(result)
    if fn_name == "upgrade_legacy_message":
        text, records = result
        return {"text": text, "records": [encode_record(r) for r in records]}
    if fn_name == "decode_record":
        return encode_record(result)
    if isinstance(result, MessageContext):
        return encode_message_context(result)
    if type(result).__name__ == "ClipboardFragment":
        from composer_app.core.codecs.clipboard import encode_fragment

        encoded = encode_fragment(result)
        assert encoded is not None
        return json.loads(encoded)
    if hasattr(result, "_fields") and set(result._fields) == {"prompt", "cursor"}:
        return {"prompt": result.prompt, "cursor": result.cursor}
    if isinstance(result, list):
        return [normalize_item(item) for item in result]
    if isinstance(result, tuple):
        return [normalize_item(item) for item in result]
    return result


def normalize_item(item: Any) -> Any:
    if hasattr(item, "context_id") and hasattr(item, "source") and hasattr(item, "start"):
        return {
            "kind": item.kind,
            "context_id": item.context_id,
            "label": item.label,
            "image": item.image,
            "source": item.source,
            "start": item.start,
            "end": item.end,
        }
    return item


def call(vector: dict[str, Any]) -> Any:
    """Resolve the vector's function, convert its input, call it and normalize the result."""
    fn_name = vector["fn"]
    kwargs = expand(vector["input"])
    if fn_name == "constant":
        module_name, _, attr = kwargs["name"].rpartition(".")
        value = getattr(importlib.import_module(module_name), attr)
        return list(value) if isinstance(value, tuple) else value
    fn = getattr(importlib.import_module(FN_MODULES[fn_name]), fn_name)
    return normalize(fn_name, fn(**_convert(fn_name, kwargs)))


def run(vector: dict[str, Any]) -> None:
    """Call the vector and assert its expectation (result, ``raises`` or ``expected_pattern``)."""
    from composer_app.core.errors import ContractError

    expected = expand(vector.get("expected"))
    if expected == RAISES:
        with pytest.raises(ContractError):
            call(vector)
        return
    result = call(vector)
    assert result == expected
    pattern = vector.get("expected_pattern")
    if pattern is not None:
        import re

        assert isinstance(result, str) and re.fullmatch(pattern, result)
