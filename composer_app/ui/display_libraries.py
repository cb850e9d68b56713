"""Before the first window: can Qt's ``xcb`` platform plugin load on this machine?

Qt dies at start-up with one line naming a single library (often one that *is* installed) when its
X11 plugin cannot load. This module asks the dynamic loader instead (``ldd`` on the plugin that
PySide6 ships), maps every missing shared object to the Debian/Ubuntu package that provides it and
prints the exact ``apt-get install`` line; run as root with ``--install`` it runs that line itself.

Invariants: it never imports PySide6 (it only locates the installed package), so it works when Qt
itself cannot start; it checks nothing (and succeeds) when no X11 display is in use
(``QT_QPA_PLATFORM`` names another platform, or ``DISPLAY`` is unset); an unknown missing library
is still named, with no package guessed for it; the exit status is 0 when the plugin can load,
1 when something is missing after the (optional) install.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

#: Shared objects that Qt's xcb plugin links, and the Debian package of each.
DEBIAN_PACKAGES: Mapping[str, str] = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
}


def xcb_plugin() -> Path | None:
    """The ``libqxcb.so`` that the installed PySide6 would load, or None when there is none."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return None
    plugin = Path(spec.origin).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.is_file() else None


def parse_missing(ldd_output: str) -> list[str]:
    """The shared objects that ``ldd`` reports as ``not found``, each once, in first-seen order."""
    missing: list[str] = []
    for line in ldd_output.splitlines():
        name, arrow, rest = line.strip().partition("=>")
        if arrow and rest.strip() == "not found" and name.strip() not in missing:
            missing.append(name.strip())
    return missing


def missing_libraries(plugin: Path) -> list[str]:
    """What the loader cannot find for ``plugin``; empty when ``ldd`` is unavailable."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return []
    result = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, check=False)
    return parse_missing(result.stdout)


def packages_for(libraries: Sequence[str]) -> tuple[list[str], list[str]]:
    """``(packages, unknown)``: the packages that provide ``libraries`` (sorted, each once) and
    the libraries no package is known for."""
    packages = sorted({DEBIAN_PACKAGES[lib] for lib in libraries if lib in DEBIAN_PACKAGES})
    unknown = [lib for lib in libraries if lib not in DEBIAN_PACKAGES]
    return packages, unknown


def install_command(packages: Sequence[str], *, as_root: bool) -> list[str]:
    """The ``apt-get install`` command line for ``packages`` (with ``sudo`` unless root)."""
    prefix = [] if as_root else ["sudo"]
    return [*prefix, "apt-get", "install", "-y", *packages]


def uses_xcb(environ: Mapping[str, str]) -> bool:
    """Whether Qt would start on X11 here: a ``DISPLAY`` and no other platform asked for."""
    platform = environ.get("QT_QPA_PLATFORM", "")
    if platform and not platform.startswith("xcb"):
        return False
    return bool(environ.get("DISPLAY"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="composer-display-check",
        description="Check that Qt's X11 plugin can load, and name the packages it lacks.")
    parser.add_argument("--install", action="store_true",
                        help="run the apt-get line when something is missing and we are root")
    args = parser.parse_args(argv)
    plugin = xcb_plugin()
    if plugin is None or not sys.platform.startswith("linux") or not uses_xcb(os.environ):
        return 0
    missing = missing_libraries(plugin)
    if not missing:
        return 0
    packages, unknown = packages_for(missing)
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    command = install_command(packages, as_root=as_root)
    print(f"Composer's window needs libraries that are not installed: {', '.join(missing)}.",
          file=sys.stderr)
    if packages:
        print(f"Install them with:\n    {' '.join(command)}", file=sys.stderr)
    if unknown:
        print(f"No package is known here for: {', '.join(unknown)}.", file=sys.stderr)
    if args.install and as_root and packages and shutil.which("apt-get"):
        print("Installing them now (running as root)…", file=sys.stderr)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=False, env=env,
                       stdout=subprocess.DEVNULL)
        subprocess.run([*command, "-qq"], check=False, env=env, stdout=subprocess.DEVNULL)
        missing = missing_libraries(plugin)
        if not missing:
            print("The display libraries are installed.", file=sys.stderr)
            return 0
        print(f"Still missing: {', '.join(missing)}.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
