import pytest

from tests.support.vectors import load, run


@pytest.mark.parametrize("vector", load("records.json"))
def test_records_vector(vector: dict) -> None:
    run(vector)
