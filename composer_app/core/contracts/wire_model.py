"""``WireModel``: the one base of every camelCase wire shape, and its one rule for ``null``.

Invariants: models are frozen; JSON keys are camelCase (Python attributes snake_case) and unknown
keys are ignored on decode and never written back. The ``null`` rule (docs/contract.md §0.3): a
field declared with the default ``None`` is *optional* and is left out of the JSON while it is
``None``; every other field is always written, so a required nullable field writes ``null``. A
class names in ``_null_written`` the optional fields whose ``null`` has a meaning of its own
(``afterSequence: null`` asks for a snapshot); those are written as ``null`` too. The rule holds at
every depth (nested models follow it as well).
"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer
from pydantic.alias_generators import to_camel


class WireModel(BaseModel):
    """A frozen wire object (see the module invariants for the ``null`` rule)."""

    model_config = ConfigDict(
        frozen=True,
        extra="ignore",
        alias_generator=to_camel,
        populate_by_name=True,
        hide_input_in_errors=True,
    )
    _optional: ClassVar[frozenset[str]] = frozenset()
    """Attribute names left out while ``None`` (computed per class from the field defaults)."""
    _null_written: ClassVar[frozenset[str]] = frozenset()
    _omitted: ClassVar[tuple[tuple[str, str], ...]] = ()
    _null_when_set: ClassVar[frozenset[str]] = frozenset()
    """Optional attributes whose explicit ``None`` is written (``null`` means "remove", absent
    means "unchanged"); left out only while they were never set."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._optional = frozenset(
            name for name, info in cls.model_fields.items()
            if not info.is_required() and info.default is None
        )
        cls._omitted = tuple(
            (name, cls.model_fields[name].alias or name)
            for name in sorted(cls._optional - cls._null_written)
        )

    @model_serializer(mode="wrap")
    def _leave_out_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for name, alias in self._omitted:
            if getattr(self, name) is None and not (
                name in self._null_when_set and name in self.model_fields_set
            ):
                data.pop(alias, None)
                data.pop(name, None)
        return data

    def to_wire(self) -> dict[str, Any]:
        """The JSON object of this model (camelCase keys, unset optional fields left out)."""
        return self.model_dump(mode="json", by_alias=True)


def wire_object(**fields: Any) -> dict[str, Any]:
    """A hand-built wire object under the same rule: camelCase keys, ``None`` values left out.

    For converters from rows that are already valid (a stored message, a cached one), where
    validating through a model again would only cost time. Keys keep the keyword order.
    """
    return {_camel(name): value for name, value in fields.items() if value is not None}


@cache
def _camel(name: str) -> str:
    """``to_camel`` of a field name, computed once per name (the names are a fixed few)."""
    return to_camel(name)
