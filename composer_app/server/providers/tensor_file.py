"""A safetensors file read as named NumPy arrays, memory-mapped rather than copied.

The format: 8 bytes (little-endian unsigned) giving the length of a JSON header, the header
(``{"name": {"dtype": "F32", "shape": [384, 384], "data_offsets": [begin, end]}, ...}`` plus an
optional ``"__metadata__"`` object), then one byte buffer that the offsets point into.

Invariants: every returned array is a read-only view of the mapped file (no weight is copied;
pages are read when first touched) with exactly the header's shape and dtype; a file whose
header, offsets or sizes disagree raises ``TensorFileError`` and never returns a partial table;
the mapping stays open as long as any returned array is alive.
"""

from __future__ import annotations

import json
import mmap
import struct
from pathlib import Path
from typing import Any

import numpy
import numpy.typing as npt

MAX_HEADER_BYTES = 100_000_000
_DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2",
           "I8": "i1", "U8": "u1", "BOOL": "?"}


class TensorFileError(ValueError):
    """The file is not a readable safetensors file (its text says what is wrong)."""


def read_tensors(path: Path) -> dict[str, npt.NDArray[Any]]:
    """Every tensor of the safetensors file at ``path`` by name (see the module invariant).

    Raises ``OSError`` when the file cannot be opened and ``TensorFileError`` when it is not a
    valid safetensors file."""
    with path.open("rb") as handle:
        size = path.stat().st_size
        if size < 8:
            raise TensorFileError(f"{path.name} is too short for a safetensors header")
        mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    (header_bytes,) = struct.unpack("<Q", mapped[:8])
    if header_bytes > min(MAX_HEADER_BYTES, size - 8):
        raise TensorFileError(f"{path.name} declares a header larger than the file")
    try:
        header = json.loads(bytes(mapped[8 : 8 + header_bytes]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TensorFileError(f"{path.name} has an unreadable header: {exc}") from exc
    if not isinstance(header, dict):
        raise TensorFileError(f"{path.name} has a header that is not a JSON object")
    start = 8 + header_bytes
    tensors: dict[str, npt.NDArray[Any]] = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        tensors[name] = _tensor(mapped, start, size, name, entry)
    return tensors


def _tensor(mapped: mmap.mmap, start: int, size: int, name: str, entry: object
            ) -> npt.NDArray[Any]:
    """One tensor of the header as a read-only view of ``mapped``."""
    if not isinstance(entry, dict):
        raise TensorFileError(f"tensor {name!r} has no description")
    dtype_name, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if dtype_name not in _DTYPES:
        raise TensorFileError(f"tensor {name!r} has the unsupported dtype {dtype_name!r}")
    if not (isinstance(shape, list) and all(isinstance(d, int) and d >= 0 for d in shape)):
        raise TensorFileError(f"tensor {name!r} has an invalid shape {shape!r}")
    if not (isinstance(offsets, list) and len(offsets) == 2
            and all(isinstance(o, int) for o in offsets)):
        raise TensorFileError(f"tensor {name!r} has invalid data offsets {offsets!r}")
    dtype = numpy.dtype(_DTYPES[dtype_name])
    count = 1
    for dimension in shape:
        count *= dimension
    begin, end = offsets
    if not 0 <= begin <= end or start + end > size or end - begin != count * dtype.itemsize:
        raise TensorFileError(f"tensor {name!r} does not fit its data offsets")
    array = numpy.frombuffer(mapped, dtype=dtype, count=count, offset=start + begin)
    return array.reshape(shape)
