"""Settings ▸ Accounts: the GitHub token goes to the keyring (never the settings file), and the
pull-request lookup reads it from there; Forget removes it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from pytestqt.qtbot import QtBot

from composer_app.ui.context.pull_requests import keyring_token
from composer_app.ui.settings.accounts_section import TOKEN_OBJECT_NAME, AccountsSection
from composer_app.ui.settings.dialog import SettingsDialog, store_github_token
from composer_app.ui.settings.editor_section import COMMAND_OBJECT_NAME
from composer_app.ui.settings.settings_logic import AppSettings, save_settings


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.values.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.values[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.values.pop((service, username))


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def test_the_dialog_has_the_accounts_and_editor_fields(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = SettingsDialog(AppSettings(editor_command="gvim +{line} {path}"),
                            github_token_stored=True)
    qtbot.addWidget(dialog)
    assert dialog.accounts.title() == "Accounts"
    assert dialog.findChild(type(dialog.accounts.github_token), TOKEN_OBJECT_NAME) is not None
    editor = dialog.findChild(type(dialog.accounts.github_token), COMMAND_OBJECT_NAME)
    assert editor is not None and editor.text() == "gvim +{line} {path}"
    assert "stored" in dialog.accounts.github_token.placeholderText()
    dialog.accounts.github_token.setText("  ghp_secret  ")
    editor.setText(" code -g {path}:{line} ")
    result = dialog.result_value()
    assert result.github_token == "ghp_secret" and not result.forget_github_token
    assert result.settings.editor_command == "code -g {path}:{line}"
    save_settings(tmp_path / "settings.toml", result.settings)
    assert "ghp_secret" not in (tmp_path / "settings.toml").read_text()


def test_the_token_is_kept_read_and_forgotten(memory_keyring: MemoryKeyring,
                                              qtbot: QtBot) -> None:
    section = AccountsSection(token_stored=False)
    qtbot.addWidget(section)
    assert not section.forget_button.isEnabled()
    section.github_token.setText("ghp_first")
    dialog = SettingsDialog(AppSettings())
    qtbot.addWidget(dialog)
    dialog.accounts.github_token.setText("ghp_first")
    assert store_github_token(dialog.result_value()) is None
    assert keyring_token() == "ghp_first"
    again = SettingsDialog(AppSettings(), github_token_stored=keyring_token() is not None)
    qtbot.addWidget(again)
    assert again.accounts.forget_button.isEnabled()
    again.accounts.forget_button.click()
    assert again.accounts.forgotten() and not again.accounts.forget_button.isEnabled()
    assert store_github_token(again.result_value()) is None
    assert keyring_token() is None
    problem = store_github_token(again.result_value())  # nothing left to remove: said, not raised
    assert problem is not None and "could not be removed" in problem


def test_without_a_keyring_the_token_field_is_disabled_and_says_why(qtbot: QtBot) -> None:
    dialog = SettingsDialog(AppSettings(), keyring_available=False)
    qtbot.addWidget(dialog)
    assert not dialog.accounts.github_token.isEnabled()
    assert "gh auth login" in dialog.accounts.hint.text()
    assert dialog.result_value().github_token is None
