"""The safe-link rule, shown hosts and identity URLs (docs/sources.md §8, §11)."""

from __future__ import annotations

from typing import Any

import pytest

from composer_app.core.codecs.sources import canonical_link, is_safe_link, link_host


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com",
        "http://example.com/path?q=1#frag",
        "HTTPS://Example.COM/x",
        "https://example.com:8443/x",
        "https://[2001:db8::1]/x",
        "https://bücher.example/x",
        "https://example.com/" + "a" * 2028,
    ],
)
def test_safe_links(url: str) -> None:
    assert is_safe_link(url)


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "data:text/html;base64,PHA+",
        "file:///etc/passwd",
        "ftp://example.com/",
        "mailto:a@example.com",
        "/relative",
        "relative/path",
        "//example.com/x",
        "https://",
        "https:///path",
        "https://user@example.com/",
        "https://user:pass@example.com/",
        "https://example.com:99999/",
        "https://example.com:port/",
        " https://example.com",
        "https://example.com/a b",
        "https://example.com/\n",
        "https://evil.example\\@good.example/",
        "https://example.com/" + "a" * 2029,
        "",
        None,
        7,
    ],
)
def test_unsafe_links(url: Any) -> None:
    assert not is_safe_link(url)


def test_link_host_shows_the_full_host_with_punycode_for_idns() -> None:
    assert link_host("https://docs.example.com/d/1") == "docs.example.com"
    assert link_host("https://bücher.example/x") == "xn--bcher-kva.example"
    assert link_host("https://Example.COM:8443/") == "example.com"
    assert link_host("javascript:alert(1)") is None


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("HTTPS://WWW.Example.org:443/Travel/", "https://www.example.org/Travel"),
        ("http://example.org:80/a/#top", "http://example.org/a"),
        ("http://example.org:8080/a", "http://example.org:8080/a"),
        (
            "https://example.org/a?utm_source=x&id=3&fbclid=y&UTM_medium=z&gclid=q",
            "https://example.org/a?id=3",
        ),
        ("https://example.org/?utm_source=x", "https://example.org"),
        ("https://example.org/a?b=1&&c", "https://example.org/a?b=1&c"),
    ],
)
def test_canonical_link(url: str, canonical: str) -> None:
    assert canonical_link(url) == canonical


def test_canonical_link_of_an_unsafe_url_is_none() -> None:
    assert canonical_link("ftp://example.org/") is None


def test_an_ipv6_host_keeps_its_brackets_in_the_identity() -> None:
    from composer_app.core.codecs.sources_links import canonical_link

    assert canonical_link("https://[::1]:443/a/") == "https://[::1]/a"
