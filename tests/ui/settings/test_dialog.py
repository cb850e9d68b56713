"""The settings dialog: fields reflect the settings, OK validates, secrets come back apart."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QListWidget
from pytestqt.qtbot import QtBot

from composer_app.ui.settings.dialog import SettingsDialog, apply_theme
from composer_app.ui.settings.settings_logic import AppSettings


def test_fields_follow_the_choices_and_values_come_back(qtbot: QtBot, tmp_path: Path) -> None:
    dialog = SettingsDialog(AppSettings(), keyring_available=True)
    qtbot.addWidget(dialog)
    assert dialog.embedded.isChecked() and not dialog.server_url.isEnabled()
    assert dialog.local.isChecked() and not dialog.api_key.isEnabled()  # local needs no key
    dialog.openai.setChecked(True)
    assert dialog.api_key.isEnabled() and not dialog.knowledge_dir.isEnabled()
    dialog.local.setChecked(True)
    dialog.remote.setChecked(True)
    assert dialog.server_url.isEnabled() and dialog.token.isEnabled()
    dialog.server_url.setText(" https://c.example.org/ ")
    dialog.token.setText("secret-token")
    dialog.knowledge_dir.setText(str(tmp_path))
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    result = dialog.result_value()
    assert result.settings == AppSettings(server_mode="remote",
                                          server_url="https://c.example.org",
                                          knowledge_dir=str(tmp_path), theme="dark")
    assert result.server_token == "secret-token" and result.api_key is None


def test_ok_with_problems_stays_open_and_lists_them(qtbot: QtBot) -> None:
    dialog = SettingsDialog(AppSettings(), keyring_available=False)
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.api_key.isEnabled()
    assert "No system keyring" in dialog.token_hint.text()
    dialog.openai.setChecked(True)
    dialog.model.setText("")
    dialog.buttons.accepted.emit()
    assert dialog.isVisible() and dialog.result() == 0
    assert "model name" in dialog.problems.text()
    dialog.model.setText("llama3.1")
    dialog.buttons.accepted.emit()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted


def test_apply_theme_sets_the_palette(qtbot: QtBot) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    before = app.palette()
    try:
        apply_theme(app, "dark")
        dark = app.palette().color(QPalette.ColorRole.Base).lightness()
        apply_theme(app, "light")
        light = app.palette().color(QPalette.ColorRole.Base).lightness()
        assert dark < 80 < light
        palette = app.palette()  # disabled fields look unavailable, not like empty ones
        assert (palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Base)
                != palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.Base))
    finally:
        app.setPalette(before)


def test_no_field_is_squeezed_below_its_text(qtbot: QtBot) -> None:
    """Word-wrapped hints beside form rows once squeezed the Assistant's fields to a sliver;
    every field and label keeps the height its text needs, with or without the Servers page."""
    dialog = SettingsDialog(AppSettings(), keyring_available=False)
    qtbot.addWidget(dialog)
    servers = QListWidget()
    servers.addItems(["This computer", "Team server"])
    dialog.add_servers_page(servers)
    dialog.show()
    qtbot.waitExposed(dialog)
    fields = [w for w in dialog.findChildren(QLineEdit) + dialog.findChildren(QLabel)
              if w.isVisible()]
    assert len(fields) > 10
    for field in fields:
        needed = field.minimumSizeHint().height()
        if field.hasHeightForWidth():
            needed = field.heightForWidth(field.width())
        assert field.height() >= needed, (field.objectName() or field.text(), field.height())
    assert dialog.buttons.isVisible()
