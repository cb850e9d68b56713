"""The app's settings: what they are, where they live, how they are checked and how the command
line overrides them. Qt-free.

Invariants: settings are a frozen ``AppSettings``; they are stored as ``settings.toml`` in the
config directory (written atomically: temp file + rename) and an unreadable or partly invalid file
never stops the app (unknown or bad values fall back to defaults); secrets (server token, provider
key) are never part of ``AppSettings`` or the file — they go to the keyring (``TokenStore``);
``validate`` returns every problem as a sentence, empty when the settings can be saved.
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from platformdirs import PlatformDirs

from composer_app.ui.viewers.viewer_logic import editor_argv

APP_DIR_NAME = "ComposerApp"
SETTINGS_FILE = "settings.toml"
SERVER_MODES = ("embedded", "remote")
PROVIDERS = ("local", "openai")
THEMES = ("system", "light", "dark")
DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"


@dataclass(frozen=True)
class AppSettings:
    """Everything the user can choose in the settings dialog (no secrets)."""

    server_mode: str = "embedded"
    server_url: str = ""
    provider: str = "local"
    knowledge_dir: str = ""
    openai_base_url: str = DEFAULT_OPENAI_BASE_URL
    openai_model: str = ""
    theme: str = "system"
    editor_command: str = ""
    """Opens a file in the user's editor: ``{path}`` and ``{line}`` are filled in; empty: the
    desktop's default application."""


@dataclass(frozen=True)
class AppPaths:
    """Where the app keeps its files; ``--data-dir`` puts all of them under one directory."""

    data_dir: Path
    config_dir: Path
    cache_dir: Path
    log_dir: Path

    @property
    def settings_file(self) -> Path:
        return self.config_dir / SETTINGS_FILE

    def folders_text(self) -> str:
        """The four folders, one a line (``--help`` and *Help ▸ About*)."""
        return (f"data:   {self.data_dir}\n"
                f"config: {self.config_dir}\n"
                f"cache:  {self.cache_dir}\n"
                f"logs:   {self.log_dir}")

    @property
    def server_dir(self) -> Path:
        """The embedded server's data directory."""
        return self.data_dir / "server"

    @property
    def drafts_dir(self) -> Path:
        return self.data_dir / "drafts"

    def client_dir(self, server_url: str | None) -> Path:
        """The sync client's directory: the data dir itself for the embedded server, a
        subdirectory per remote server otherwise (so caches of two servers never mix)."""
        if not server_url:
            return self.data_dir
        digest = hashlib.sha256(server_url.rstrip("/").encode("utf-8")).hexdigest()[:16]
        return self.data_dir / "remote" / digest


def app_paths(data_dir: Path | str | None = None) -> AppPaths:
    """Platform directories (honouring ``XDG_*``), or everything under ``data_dir``."""
    if data_dir:
        root = Path(data_dir).expanduser().resolve()
        return AppPaths(root, root / "config", root / "cache", root / "logs")
    dirs = PlatformDirs(appname=APP_DIR_NAME, appauthor=False)
    return AppPaths(Path(dirs.user_data_dir), Path(dirs.user_config_dir),
                    Path(dirs.user_cache_dir), Path(dirs.user_log_dir))


_CHOICES = {"server_mode": SERVER_MODES, "provider": PROVIDERS, "theme": THEMES}


def from_mapping(data: dict[str, Any]) -> AppSettings:
    """Settings from a parsed file: unknown keys ignored, bad values replaced by defaults."""
    defaults = AppSettings()
    values: dict[str, Any] = {}
    for f in fields(AppSettings):
        value = data.get(f.name)
        if not isinstance(value, str):
            continue
        if f.name in _CHOICES and value not in _CHOICES[f.name]:
            continue
        values[f.name] = value
    return replace(defaults, **values)


def _quote(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    for raw, code in (("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t")):
        escaped = escaped.replace(raw, code)
    escaped = "".join(c if ord(c) >= 0x20 and c != "\x7f" else f"\\u{ord(c):04x}"
                      for c in escaped)
    return f'"{escaped}"'


def to_toml(settings: AppSettings) -> str:
    """The file text (flat ``key = "value"`` lines, readable by ``tomllib``)."""
    lines = ["# Composer settings (secrets live in the system keyring, never here)"]
    lines += [f"{f.name} = {_quote(getattr(settings, f.name))}" for f in fields(AppSettings)]
    return "\n".join(lines) + "\n"


def load_settings(path: Path) -> AppSettings:
    """The stored settings, defaults when the file is missing or unreadable."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return AppSettings()
    return from_mapping(data)


def save_settings(path: Path, settings: AppSettings) -> None:
    """Write the settings atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(to_toml(settings), encoding="utf-8")
    os.replace(temporary, path)


def is_http_url(url: str) -> bool:
    """True for an absolute ``http``/``https`` URL with a host."""
    parts = urlsplit(url.strip())
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def normalize_url(url: str) -> str:
    """A server URL as used for keys and connections (trimmed, no trailing slash)."""
    return url.strip().rstrip("/")


def validate(settings: AppSettings) -> list[str]:
    """Every reason the settings cannot be used, as sentences (empty when they can)."""
    problems: list[str] = []
    if settings.server_mode == "remote" and not is_http_url(settings.server_url):
        problems.append("Enter the server address as an http:// or https:// URL.")
    if settings.provider == "local" and settings.knowledge_dir:
        folder = Path(settings.knowledge_dir).expanduser()
        if not folder.is_dir():
            problems.append(f"The knowledge folder {settings.knowledge_dir} does not exist.")
    if settings.provider == "openai":
        if not is_http_url(settings.openai_base_url):
            problems.append("Enter the OpenAI-compatible endpoint as an http(s) URL.")
        if not settings.openai_model.strip():
            problems.append("Enter the model name for the OpenAI-compatible endpoint.")
    if settings.editor_command.strip() and editor_argv(settings.editor_command, "f", 1) is None:
        problems.append("The editor command cannot be read (check its quotes).")
    return problems


@dataclass(frozen=True)
class Connection:
    """Which server this run talks to: the embedded one (``url`` empty) or a remote URL."""

    embedded: bool
    url: str = ""
    token: str | None = None


def choose_connection(settings: AppSettings, server_arg: str | None,
                      token_arg: str | None) -> Connection:
    """``--server`` wins; else the settings; nothing configured means the embedded server."""
    if server_arg:
        return Connection(False, normalize_url(server_arg), token_arg)
    if settings.server_mode == "remote" and is_http_url(settings.server_url):
        return Connection(False, normalize_url(settings.server_url), token_arg)
    return Connection(True)


def settings_for_start(settings: AppSettings, start_url: str) -> AppSettings:
    """``settings`` naming the server the app opens on (``start_url``; "" for the embedded
    server), so the settings file and the account book always agree; a remote server's address
    stays in ``server_url`` while the embedded server is chosen."""
    if start_url:
        return replace(settings, server_mode="remote", server_url=normalize_url(start_url))
    return replace(settings, server_mode="embedded")


def connected_text(embedded: bool, url: str, settings: AppSettings) -> str:
    """What the Settings dialog says this window is connected to; a server given for this run
    only (``--server`` or a cancelled sign-in) is named as such, so the saved choice below it is
    never mistaken for it."""
    if embedded:
        if settings.server_mode == "remote":
            return ("Connected now: the embedded server on this computer (for this session only; "
                    "the choice below is what Composer starts with).")
        return "Connected now: the embedded server on this computer."
    saved = normalize_url(settings.server_url) == normalize_url(url)
    if settings.server_mode == "remote" and saved:
        return f"Connected now: {url}."
    return (f"Connected now: {url} (for this session only; the choice below is what Composer "
            "starts with).")


def restart_reasons(before: AppSettings, after: AppSettings) -> list[str]:
    """What a change applies to only after a restart: ``the server`` and/or ``the assistant``."""
    server = ("server_mode", "server_url")
    assistant = ("provider", "knowledge_dir", "openai_base_url", "openai_model")
    return [name for name, keys in (("the server", server), ("the assistant", assistant))
            if any(getattr(before, key) != getattr(after, key) for key in keys)]


def restart_needed(before: AppSettings, after: AppSettings) -> bool:
    """True when a change only takes effect after a restart (server or provider)."""
    keep = ("theme", "editor_command")
    return any(getattr(before, f.name) != getattr(after, f.name)
               for f in fields(AppSettings) if f.name not in keep)


_LIGHT = {
    "Window": "#f6f7f9", "WindowText": "#1f2328", "Base": "#ffffff", "AlternateBase": "#f3f4f6",
    "Text": "#1f2328", "Button": "#f3f4f6", "ButtonText": "#1f2328", "Highlight": "#2563eb",
    "HighlightedText": "#ffffff", "PlaceholderText": "#6b7280", "Link": "#1d4ed8",
    "Mid": "#d1d5db", "Midlight": "#e5e7eb", "Dark": "#9ca3af", "Shadow": "#6b7280",
    "BrightText": "#111827", "ToolTipBase": "#ffffff", "ToolTipText": "#1f2328",
}
_DARK = {
    "Window": "#1b1e24", "WindowText": "#e5e7eb", "Base": "#16181d", "AlternateBase": "#22262e",
    "Text": "#e5e7eb", "Button": "#262a33", "ButtonText": "#e5e7eb", "Highlight": "#3b82f6",
    "HighlightedText": "#ffffff", "PlaceholderText": "#9ca3af", "Link": "#93c5fd",
    "Mid": "#374151", "Midlight": "#2f3541", "Dark": "#0f1115", "Shadow": "#000000",
    "BrightText": "#ffffff", "ToolTipBase": "#262a33", "ToolTipText": "#e5e7eb",
}


def theme_colors(theme: str, system_dark: bool = False) -> dict[str, str]:
    """Palette colours by ``QPalette.ColorRole`` name for a theme choice (``system`` follows
    the desktop's light or dark preference)."""
    dark = theme == "dark" or (theme == "system" and system_dark)
    return dict(_DARK if dark else _LIGHT)
