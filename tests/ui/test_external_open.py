"""External URL opening: the child environment never carries the bundle's library path."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QObject, QUrl, Slot
from PySide6.QtGui import QDesktopServices

from composer_app.ui import external_open
from composer_app.ui.external_open import child_environment, open_url_externally

# --- child_environment (pure) -------------------------------------------------------------------


def test_original_library_path_is_restored() -> None:
    env = {"LD_LIBRARY_PATH": "/opt/composer-app/_internal:/usr/local/lib",
           "LD_LIBRARY_PATH_ORIG": "/usr/local/lib", "HOME": "/home/a"}
    assert child_environment(env) == {"LD_LIBRARY_PATH": "/usr/local/lib", "HOME": "/home/a"}


def test_library_path_is_removed_when_the_user_had_none() -> None:
    env = {"LD_LIBRARY_PATH": "/opt/composer-app/_internal", "PATH": "/usr/bin"}
    assert child_environment(env) == {"PATH": "/usr/bin"}


def test_an_empty_original_stays_empty() -> None:
    env = {"LD_LIBRARY_PATH": "/opt/composer-app/_internal", "LD_LIBRARY_PATH_ORIG": ""}
    assert child_environment(env) == {"LD_LIBRARY_PATH": ""}


def test_bootloader_variables_are_dropped() -> None:
    env = {"_PYI_APPLICATION_HOME_DIR": "/opt/composer-app/_internal",
           "_PYI_PARENT_PROCESS_LEVEL": "1", "PYI_USER_SETTING": "kept", "LANG": "C.UTF-8"}
    assert child_environment(env) == {"PYI_USER_SETTING": "kept", "LANG": "C.UTF-8"}


def test_the_input_mapping_is_not_modified() -> None:
    env = {"LD_LIBRARY_PATH": "/bundle", "LD_LIBRARY_PATH_ORIG": "/user"}
    child_environment(env)
    assert env == {"LD_LIBRARY_PATH": "/bundle", "LD_LIBRARY_PATH_ORIG": "/user"}


def test_paths_into_the_bundle_are_removed() -> None:
    env = {"QT_PLUGIN_PATH": "/opt/composer-app/_internal/PySide6/Qt/plugins",
           "XDG_DATA_DIRS": "/opt/composer-app/_internal/share:/usr/share",
           "OTHER_APP": "/opt/composer-app-other/lib", "BROWSER": "firefox"}
    assert child_environment(env, "/opt/composer-app/") == {
        "XDG_DATA_DIRS": "/usr/share", "OTHER_APP": "/opt/composer-app-other/lib",
        "BROWSER": "firefox"}


def test_without_a_bundle_folder_paths_are_kept() -> None:
    env = {"QT_PLUGIN_PATH": "/opt/composer-app/_internal/PySide6/Qt/plugins"}
    assert child_environment(env) == env


_names = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ_abc0123456789", min_size=1, max_size=12)
_plain_env = st.dictionaries(
    _names.filter(lambda k: not k.startswith("_PYI_") and not k.startswith("LD_LIBRARY_PATH")),
    st.text(max_size=20))


@given(_plain_env, st.one_of(st.none(), st.text(max_size=20)))
def test_only_the_library_path_differs_from_the_parent(env: dict[str, str],
                                                      original: str | None) -> None:
    parent = {**env, "LD_LIBRARY_PATH": "/bundle"}
    if original is not None:
        parent["LD_LIBRARY_PATH_ORIG"] = original
    child = child_environment(parent)
    assert child.get("LD_LIBRARY_PATH") == original
    child.pop("LD_LIBRARY_PATH", None)
    assert child == env


# --- open_url_externally ------------------------------------------------------------------------


@pytest.fixture
def fake_opener(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A frozen-looking process whose PATH has an ``xdg-open`` that records what it received."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    record = tmp_path / "opened.txt"
    script = bindir / "xdg-open"
    script.write_text(
        "#!/bin/sh\n"
        f"printf '%s\\n%s\\n%s\\n%s\\n' \"$1\" \"${{LD_LIBRARY_PATH-unset}}\" "
        f"\"${{_PYI_APPLICATION_HOME_DIR-unset}}\" \"${{QT_PLUGIN_PATH-unset}}\" "
        f"> '{record}.part'\n"
        f"mv '{record}.part' '{record}'\n",
        encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}/usr/bin{os.pathsep}/bin")
    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/composer-app/_internal")
    monkeypatch.setenv("LD_LIBRARY_PATH_ORIG", "/home/user/lib")
    monkeypatch.setenv("_PYI_APPLICATION_HOME_DIR", "/opt/composer-app/_internal")
    executable_dir = Path(sys.executable).resolve().parent
    monkeypatch.setattr(sys, "executable", str(executable_dir / "composer-app"))
    monkeypatch.setenv("QT_PLUGIN_PATH", str(executable_dir / "_internal" / "plugins"))
    return record


def _received(qtbot, record: Path) -> list[str]:
    qtbot.waitUntil(record.exists, timeout=10_000)
    return record.read_text(encoding="utf-8").splitlines()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xdg-open is the Linux opener")
def test_frozen_app_starts_xdg_open_with_the_users_library_path(qtbot, fake_opener: Path) -> None:
    assert open_url_externally("https://example.invalid/a b?q=1")
    url, library_path, bootloader, plugins = _received(qtbot, fake_opener)
    assert url == "https://example.invalid/a%20b?q=1"
    assert library_path == "/home/user/lib"
    assert bootloader == "unset"
    assert plugins == "unset"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xdg-open is the Linux opener")
def test_frozen_app_without_xdg_open_reports_failure(qtbot, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert not open_url_externally("https://example.invalid/")


def test_an_empty_url_is_not_opened(qtbot) -> None:
    assert not open_url_externally("")


class _Recorder(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def record(self, url: QUrl) -> None:
        self.urls.append(url.toString())


def test_outside_the_bundle_qt_opens_the_url(qtbot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    recorder = _Recorder()
    QDesktopServices.setUrlHandler("composer-test", recorder, "record")  # type: ignore[arg-type]
    try:
        assert open_url_externally("composer-test:thread/42")
    finally:
        QDesktopServices.unsetUrlHandler("composer-test")
    assert recorder.urls == ["composer-test:thread/42"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xdg-open is the Linux opener")
def test_installed_handlers_route_qt_url_opening_through_the_clean_environment(
        qtbot, fake_opener: Path) -> None:
    assert external_open.install_url_handlers()
    try:
        assert not external_open.install_url_handlers()
        QDesktopServices.openUrl(QUrl("https://example.invalid/docs"))
        url, library_path, _, _ = _received(qtbot, fake_opener)
    finally:
        external_open.remove_url_handlers()
    assert url == "https://example.invalid/docs"
    assert library_path == "/home/user/lib"


def test_handlers_are_not_installed_outside_the_bundle(qtbot,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert not external_open.install_url_handlers()
