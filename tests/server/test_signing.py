"""Signed capability tokens."""

from __future__ import annotations

import pytest

from composer_app.server.errors import ApiError
from composer_app.server.signing import sign_token, verify_token

SECRET = b"k" * 32


def test_a_token_verifies_for_its_purpose_until_it_expires() -> None:
    token, expires = sign_token(SECRET, "asset", {"a": "att_1"}, 300, now=1000.0)
    assert expires == 1300.0
    assert verify_token(SECRET, "asset", token, now=1299.0)["a"] == "att_1"
    with pytest.raises(ApiError) as expired:
        verify_token(SECRET, "asset", token, now=1301.0)
    assert (expired.value.status, expired.value.code) == (410, "url_expired")
    with pytest.raises(ApiError) as other:
        verify_token(SECRET, "upload", token, now=1000.0)
    assert other.value.status == 404


@pytest.mark.parametrize("mangle", [
    lambda t: t[:-2] + ("A" if t[-2] != "A" else "B") + t[-1],
    lambda t: "e30." + t.split(".")[1],
    lambda t: t.split(".")[0],
    lambda t: "%%%.%%%",
    lambda t: "",
])
def test_forged_tokens_are_404(mangle) -> None:  # type: ignore[no-untyped-def]
    token, _ = sign_token(SECRET, "asset", {"a": "att_1"}, 300, now=1000.0)
    with pytest.raises(ApiError) as forged:
        verify_token(SECRET, "asset", mangle(token), now=1000.0)
    assert forged.value.status == 404


def test_another_secret_does_not_verify() -> None:
    token, _ = sign_token(SECRET, "asset", {"a": "att_1"}, 300, now=1000.0)
    with pytest.raises(ApiError):
        verify_token(b"x" * 32, "asset", token, now=1000.0)
