"""Desktop integration files and the bundle spec, checked without building anything."""

from __future__ import annotations

import ast
import configparser
import shutil
import struct
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import composer_app
from composer_app import APP_ID
from composer_app.ui.display_libraries import DEBIAN_PACKAGES

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
SPEC = ROOT / "packaging" / "composer-app.spec"
ICONS = ROOT / "resources" / "icons" / "hicolor"
PNG_SIZES = (16, 32, 48, 64, 128, 256)

EXPECTED_ENTRY = {
    "Type": "Application",
    "Name": "Composer",
    "GenericName": "Chat Composer",
    "Comment": "Compose messages with inline context and review answers with their sources",
    "Exec": "composer-app %U",
    "Icon": APP_ID,
    "Terminal": "false",
    "Categories": "Network;Chat;Development;",
    "StartupWMClass": "composer-app",
    "StartupNotify": "true",
}


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (Debian package {package})")
    return path


# --- .desktop ---------------------------------------------------------------------------------


def test_desktop_entry_has_exactly_the_specified_keys() -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(DESKTOP.read_text(encoding="utf-8"))
    assert parser.sections() == ["Desktop Entry"]
    assert dict(parser["Desktop Entry"]) == EXPECTED_ENTRY


def test_desktop_entry_is_valid() -> None:
    tool = _tool("desktop-file-validate", "desktop-file-utils")
    done = subprocess.run([tool, str(DESKTOP)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "error:" not in done.stdout + done.stderr


# --- AppStream metainfo -----------------------------------------------------------------------


def _metainfo() -> ET.Element:
    return ET.parse(METAINFO).getroot()


def test_metainfo_is_valid() -> None:
    tool = _tool("appstreamcli", "appstream")
    done = subprocess.run([tool, "validate", "--no-net", str(METAINFO)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_metainfo_identifies_the_app_and_its_launcher() -> None:
    root = _metainfo()
    assert root.tag == "component"
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    launchable = root.find("launchable")
    assert launchable is not None
    assert launchable.get("type") == "desktop-id"
    assert launchable.text == DESKTOP.name
    assert root.findtext("provides/binary") == "composer-app"
    assert root.findtext("metadata_license") == "CC0-1.0"
    rating = root.find("content_rating")
    assert rating is not None
    assert rating.get("type") == "oars-1.1"


def test_metainfo_declares_developer_homepage_and_license() -> None:
    root = _metainfo()
    developer = root.find("developer")
    assert developer is not None
    assert developer.get("id")
    assert (developer.findtext("name") or "").strip()
    homepage = root.find("url[@type='homepage']")
    assert homepage is not None
    assert (homepage.text or "").startswith("https://")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert root.findtext("project_license") == project["license"]
    for tag in ("name", "summary", "description"):
        assert root.find(tag) is not None, tag


def test_metainfo_release_is_the_package_version() -> None:
    releases = _metainfo().findall("releases/release")
    assert releases, "no release listed"
    newest = releases[0]
    assert newest.get("version") == composer_app.__version__
    date = newest.get("date") or ""
    assert len(date) == 10
    assert date[4] == date[7] == "-"


# --- icons ------------------------------------------------------------------------------------


def _png_header(path: Path) -> tuple[int, int, int]:
    """Width, height and colour type of a PNG, from its IHDR chunk."""
    head = path.read_bytes()[:26]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return width, height, head[25]


@pytest.mark.parametrize("size", PNG_SIZES)
def test_png_icon_has_its_pixel_size_and_an_alpha_channel(size: int) -> None:
    path = ICONS / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    width, height, colour_type = _png_header(path)
    assert (width, height) == (size, size)
    assert colour_type == 6, "expected RGBA (a transparent background)"


def test_scalable_icon_is_a_square_svg() -> None:
    root = ET.parse(ICONS / "scalable" / "apps" / f"{APP_ID}.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    _, _, width, height = (float(v) for v in (root.get("viewBox") or "").split())
    assert width == height


# --- PyInstaller spec -------------------------------------------------------------------------


def _spec_strings(name: str) -> set[str]:
    """The string literals of the list assigned to ``name`` at the top of the spec."""
    tree = ast.parse(SPEC.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return {n.value for n in ast.walk(node.value)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    raise AssertionError(f"{name} is not assigned in {SPEC.name}")


def test_spec_excludes_plaintext_keyrings_and_heavy_qt_modules() -> None:
    excludes = _spec_strings("EXCLUDES")
    required = {
        "keyrings.alt", "tkinter",
        "PySide6.QtQml", "PySide6.QtQuick",
        "PySide6.QtWebEngineCore", "PySide6.QtWebEngineWidgets", "PySide6.QtWebEngineQuick",
        "PySide6.QtPdf", "PySide6.QtPdfWidgets",
        "PySide6.QtMultimedia", "PySide6.Qt3DCore", "PySide6.Qt3DRender",
        "PySide6.QtAsyncio",
    }
    assert required <= excludes
    assert not {"PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets"} & excludes


def test_spec_bundles_lazily_found_modules_and_keyring_metadata() -> None:
    hidden = _spec_strings("HIDDEN_IMPORTS")
    assert {"keyring.backends.SecretService", "keyring.backends.libsecret",
            "secretstorage", "jeepney", "websockets"} <= hidden
    assert "keyring" in _spec_strings("DATAS")
    source = SPEC.read_text(encoding="utf-8")
    assert 'copy_metadata("keyring")' in source
    assert 'collect_data_files("composer_app")' in source


def test_spec_builds_one_folder() -> None:
    calls = {n.func.id for n in ast.walk(ast.parse(SPEC.read_text(encoding="utf-8")))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert {"Analysis", "PYZ", "EXE", "COLLECT"} <= calls


def test_build_tools_are_pinned() -> None:
    text = (ROOT / "packaging" / "requirements-build.txt").read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    names = {line.split("==")[0].lower() for line in lines}
    assert names == {"pyinstaller", "pyinstaller-hooks-contrib"}
    assert all("==" in line for line in lines)


def test_deb_depends_on_every_library_the_xcb_plugin_links() -> None:
    build = (ROOT / "packaging" / "build").read_text(encoding="utf-8")
    depends = [line for line in build.splitlines() if line.startswith("Depends:")]
    assert len(depends) == 1
    items = depends[0].removeprefix("Depends:").split(",")
    packages = {item.strip().split(" ")[0] for item in items}
    specified = {"libc6", "libxcb-cursor0", "libxkbcommon-x11-0", "libegl1", "libgl1",
                 "libfontconfig1", "libdbus-1-3"}
    assert specified <= packages
    assert set(DEBIAN_PACKAGES.values()) <= packages


@pytest.mark.parametrize("script", ["build", "ci-stage", "linux/install.sh", "linux/uninstall.sh"])
def test_shell_scripts_parse_and_are_executable(script: str) -> None:
    path = ROOT / "packaging" / script
    assert path.stat().st_mode & 0o111, f"{script} is not executable"
    done = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
