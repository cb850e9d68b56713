"""Settings: file round trip, tolerance of bad files, validation, connection choice."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from composer_app.ui.settings.settings_logic import (
    AppSettings,
    Connection,
    app_paths,
    choose_connection,
    load_settings,
    restart_needed,
    save_settings,
    theme_colors,
    to_toml,
    validate,
)


def test_round_trip_and_defaults_for_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "config" / "settings.toml"
    assert load_settings(path) == AppSettings()
    chosen = AppSettings(server_mode="remote", server_url="https://c.example.org",
                         provider="openai", openai_model="llama3.1", theme="dark")
    save_settings(path, chosen)
    assert load_settings(path) == chosen
    assert "token" not in path.read_text(encoding="utf-8").lower().replace("# composer", "")


def test_bad_values_and_broken_files_fall_back_to_defaults(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('theme = "purple"\nprovider = 3\nserver_url = "http://x"\nextra = "y"\n',
                    encoding="utf-8")
    assert load_settings(path) == AppSettings(server_url="http://x")
    path.write_text("this is = = not toml", encoding="utf-8")
    assert load_settings(path) == AppSettings()


@given(st.text(max_size=60))
def test_any_string_value_survives_the_file_format(value: str) -> None:
    settings = AppSettings(knowledge_dir=value, openai_model=value)
    data = tomllib.loads(to_toml(settings))
    assert data["knowledge_dir"] == value and data["openai_model"] == value


def test_validation_names_each_problem(tmp_path: Path) -> None:
    assert validate(AppSettings()) == []
    problems = validate(AppSettings(server_mode="remote", server_url="ftp://x",
                                    provider="openai", openai_base_url="nope"))
    assert len(problems) == 3
    assert validate(AppSettings(knowledge_dir=str(tmp_path / "missing")))[0].startswith(
        "The knowledge folder")
    assert validate(AppSettings(knowledge_dir=str(tmp_path))) == []


def test_connection_choice() -> None:
    remote = AppSettings(server_mode="remote", server_url="https://a.example/")
    assert choose_connection(AppSettings(), None, None) == Connection(True)
    assert choose_connection(remote, None, "tok") == Connection(False, "https://a.example", "tok")
    assert choose_connection(AppSettings(), "http://b.example/", None) == Connection(
        False, "http://b.example")
    broken = AppSettings(server_mode="remote", server_url="")
    assert choose_connection(broken, None, None) == Connection(True)


def test_paths_under_a_data_dir_keep_servers_apart(tmp_path: Path) -> None:
    paths = app_paths(tmp_path)
    assert paths.settings_file == tmp_path / "config" / "settings.toml"
    assert paths.client_dir(None) == tmp_path
    a, b = paths.client_dir("https://a.example"), paths.client_dir("https://b.example")
    assert a != b and a.parent == tmp_path / "remote"
    assert paths.client_dir("https://a.example/") == a


def test_restart_needed_only_for_server_or_provider_changes() -> None:
    base = AppSettings()
    assert not restart_needed(base, AppSettings(theme="dark"))
    assert restart_needed(base, AppSettings(provider="openai"))


def test_theme_colours_follow_the_choice() -> None:
    assert theme_colors("dark")["Base"] != theme_colors("light")["Base"]
    assert theme_colors("system", system_dark=True) == theme_colors("dark")
    assert theme_colors("system", system_dark=False) == theme_colors("light")


def test_restart_reasons_name_what_needs_a_restart() -> None:
    from composer_app.ui.settings.settings_logic import restart_reasons

    base = AppSettings()
    assert restart_reasons(base, AppSettings(theme="dark")) == []
    assert restart_reasons(base, AppSettings(provider="openai")) == ["the assistant"]
    assert restart_reasons(base, AppSettings(server_mode="remote", server_url="https://a.b",
                                             openai_model="m")) == ["the server", "the assistant"]


def test_connected_text_tells_a_session_server_from_the_saved_one() -> None:
    from composer_app.ui.settings.settings_logic import connected_text

    saved = AppSettings(server_mode="remote", server_url="https://a.example")
    assert connected_text(False, "https://a.example", saved) == "Connected now: https://a.example."
    assert "for this session only" in connected_text(False, "https://b.example", saved)
    assert "for this session only" in connected_text(False, "https://a.example", AppSettings())
    assert connected_text(True, "", AppSettings()) == (
        "Connected now: the embedded server on this computer.")


def test_the_editor_command_is_kept_and_a_malformed_one_refused(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    chosen = AppSettings(editor_command='code -g "{path}:{line}"')
    save_settings(path, chosen)
    assert load_settings(path).editor_command == 'code -g "{path}:{line}"'
    assert validate(chosen) == []
    assert validate(AppSettings(editor_command='code "{path}')) == [
        "The editor command cannot be read (check its quotes)."]
    assert not restart_needed(AppSettings(), chosen)  # used by the next viewer, no restart
