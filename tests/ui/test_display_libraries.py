"""The start-up check for Qt's X11 plugin: parsing the loader's report and naming packages."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from composer_app.ui import display_libraries
from composer_app.ui.display_libraries import (
    install_command,
    missing_libraries,
    packages_for,
    parse_missing,
    uses_xcb,
    xcb_plugin,
)

LDD_REPORT = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibweird.so.9 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007f)
"""


def test_parse_missing_names_each_unfound_library_once_in_order() -> None:
    assert parse_missing(LDD_REPORT) == [
        "libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libweird.so.9"]


def test_parse_missing_of_a_complete_report_is_empty() -> None:
    assert parse_missing("\tlibc.so.6 => /lib/libc.so.6 (0x1)\n\tstatically linked\n") == []


def test_packages_for_maps_known_libraries_and_names_the_rest() -> None:
    packages, unknown = packages_for(parse_missing(LDD_REPORT))
    assert packages == ["libxcb-icccm4", "libxcb-keysyms1"]
    assert unknown == ["libweird.so.9"]


def test_install_command_uses_sudo_unless_root() -> None:
    assert install_command(["a", "b"], as_root=True) == ["apt-get", "install", "-y", "a", "b"]
    assert install_command(["a"], as_root=False)[0] == "sudo"


@pytest.mark.parametrize(("environ", "expected"), [
    ({"DISPLAY": ":0"}, True),
    ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, True),
    ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, False),
    ({"WAYLAND_DISPLAY": "wayland-0", "QT_QPA_PLATFORM": "wayland"}, False),
    ({}, False),
])
def test_uses_xcb_only_with_an_x_display(environ: dict[str, str], expected: bool) -> None:
    assert uses_xcb(environ) is expected


def test_the_installed_plugin_is_found_and_its_report_matches_the_loader() -> None:
    plugin = xcb_plugin()
    assert plugin is not None and plugin.name == "libqxcb.so"
    if shutil.which("ldd") is None:
        pytest.skip("no ldd on this machine")
    report = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, check=False)
    assert missing_libraries(plugin) == parse_missing(report.stdout)
    # Every library the plugin links is one the map (and so the .deb) knows about.
    linked = [line.split("=>")[0].strip() for line in report.stdout.splitlines() if "=>" in line]
    xcb_family = [lib for lib in linked if lib.startswith(("libxcb", "libX11-xcb", "libxkbcommon"))]
    assert set(xcb_family) <= set(display_libraries.DEBIAN_PACKAGES)


def test_check_succeeds_without_an_x_display() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "composer_app.ui.display_libraries"],
        capture_output=True, text=True, check=False,
        env={"PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "offscreen",
             "PYTHONPATH": str(Path(display_libraries.__file__).parents[2])})
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_check_names_the_missing_packages_with_an_x_display(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    monkeypatch.setattr(display_libraries, "xcb_plugin", lambda: plugin)
    monkeypatch.setattr(display_libraries, "missing_libraries",
                        lambda _plugin: ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"])
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    assert display_libraries.main([]) == 1
    err = capsys.readouterr().err
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in err
    assert "apt-get install -y libxcb-icccm4 libxcb-keysyms1" in err
