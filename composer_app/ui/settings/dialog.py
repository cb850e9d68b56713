"""``SettingsDialog`` (server, assistant provider, theme) and ``apply_theme``.

Invariants: the dialog edits a copy of ``AppSettings`` and only closes with *OK* when
``settings_logic.validate`` finds no problem (the problems are shown in the dialog); secrets typed
here (server token, provider API key) are handed back separately and never enter ``AppSettings``;
the keyring fallback is stated in the dialog when it applies. ``apply_theme`` sets the application
palette from ``settings_logic.theme_colors``; *follow system* tracks the desktop's colour scheme.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from composer_app import APP_ID
from composer_app.ui.session import Session
from composer_app.ui.settings.accounts_section import AccountsSection
from composer_app.ui.settings.editor_section import EditorSection
from composer_app.ui.settings.settings_logic import (
    THEMES,
    AppSettings,
    normalize_url,
    restart_reasons,
    save_settings,
    theme_colors,
    validate,
)

THEME_NAMES = {"system": "Follow system", "light": "Light", "dark": "Dark"}


def system_prefers_dark() -> bool:
    """True when the desktop asks for a dark colour scheme."""
    hints = QGuiApplication.styleHints()
    return bool(hints.colorScheme() == Qt.ColorScheme.Dark)


def theme_palette(theme: str) -> QPalette:
    """The palette of a theme choice."""
    palette = QPalette()
    for name, color in theme_colors(theme, system_prefers_dark()).items():
        palette.setColor(getattr(QPalette.ColorRole, name), QColor(color))
    disabled = QColor(palette.color(QPalette.ColorRole.PlaceholderText))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText,
                 QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    # a disabled field sits on the window colour, so it reads as unavailable even when empty
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Base,
                     palette.color(QPalette.ColorRole.Window))
    return palette


class _ThemeFollower:
    """Re-applies *follow system* when the desktop's colour scheme changes."""

    theme = "system"
    connected = False

    @classmethod
    def on_color_scheme_changed(cls, *_: object) -> None:
        app = QApplication.instance()
        if cls.theme == "system" and isinstance(app, QApplication):
            app.setPalette(theme_palette("system"))


def apply_theme(app: QApplication, theme: str) -> None:
    """Use ``theme`` (``system``/``light``/``dark``) for the whole application."""
    _ThemeFollower.theme = theme if theme in THEMES else "system"
    if not _ThemeFollower.connected:
        QGuiApplication.styleHints().colorSchemeChanged.connect(
            _ThemeFollower.on_color_scheme_changed)
        _ThemeFollower.connected = True
    app.setPalette(theme_palette(_ThemeFollower.theme))


@dataclass(frozen=True)
class SettingsResult:
    """What the dialog returns: settings plus secrets typed in (``None``: left unchanged)."""

    settings: AppSettings
    server_token: str | None
    api_key: str | None
    github_token: str | None = None
    forget_github_token: bool = False


class SettingsDialog(QDialog):
    """The groups: Server, Assistant, Appearance, Editor, Accounts."""

    def __init__(self, settings: AppSettings, parent: QWidget | None = None, *,
                 keyring_available: bool = True, token_notice: str | None = None,
                 connected: str = "", github_token_stored: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(520)
        self._initial = settings
        outer = QVBoxLayout(self)
        # the groups scroll when the screen is shorter than they are; the buttons never do
        self.groups_area = QScrollArea(self)
        self.groups_area.setWidgetResizable(True)
        self.groups_area.setFrameShape(QFrame.Shape.NoFrame)
        self.groups_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content = QWidget(self.groups_area)
        self._content = content
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        self._groups = layout
        self._keyring_ok = keyring_available
        layout.addWidget(self._server_group(settings, keyring_available, token_notice))
        self.connected = QLabel(connected, self.server_box)
        self.connected.setObjectName("connectedServer")
        self.connected.setWordWrap(True)
        self.connected.setVisible(bool(connected))
        box_layout = self.server_box.layout()
        if isinstance(box_layout, QVBoxLayout):
            box_layout.insertWidget(0, self.connected)
        layout.addWidget(self._provider_group(settings, keyring_available))
        layout.addWidget(self._appearance_group(settings))
        self.editor_section = EditorSection(settings.editor_command, self)
        layout.addWidget(self.editor_section)
        self.accounts = AccountsSection(self, keyring_available=keyring_available,
                                        token_stored=github_token_stored)
        layout.addWidget(self.accounts)
        # each group keeps the height its rows need: a box layout that mixes word-wrapped
        # labels with form rows otherwise squeezes the form's fields below their text
        for box in self.findChildren(QGroupBox):
            box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.problems = QLabel(self)
        self.problems.setObjectName("settingsProblems")
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet("color: #c2410c;")
        self.problems.hide()
        layout.addWidget(self.problems)
        layout.addStretch(1)
        self.groups_area.setWidget(content)
        outer.addWidget(self.groups_area, 1)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        outer.addWidget(self.buttons)
        self._connect_signals()
        self._on_choice_changed()
        self._fit_to_screen()

    def _fit_to_screen(self) -> None:
        """As tall as the groups need, but never taller than the screen (the groups then
        scroll); as wide as the widest group."""
        content = self._content
        outer = self.layout()
        margins = outer.contentsMargins() if outer is not None else None
        frame = (margins.top() + margins.bottom() if margins is not None else 22)
        chrome = frame + self.buttons.sizeHint().height() + (outer.spacing() if outer else 6)
        width = max(self.minimumWidth(), content.sizeHint().width() + frame
                    + self.groups_area.verticalScrollBar().sizeHint().width())
        inner = width - frame
        wanted = max(content.sizeHint().height(), content.minimumSizeHint().height(),
                     content.heightForWidth(inner)) + chrome
        screen = self.screen() or QGuiApplication.primaryScreen()
        available = screen.availableGeometry().height() - 80 if screen is not None else wanted
        self.resize(width, max(240, min(wanted, available)))

    def add_servers_page(self, pages: QWidget) -> None:
        """The *Servers* section (a page per server, live) above the other groups."""
        box = QGroupBox("Servers", self)
        box.setObjectName("serversBox")
        box_layout = QVBoxLayout(box)
        box_layout.addWidget(pages)
        self.servers_box = box
        box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self._groups.insertWidget(0, box)
        self._fit_to_screen()
        # each server's page says what is connected and which one Composer opens on; the
        # single-server group would only repeat (or contradict) it
        self.server_box.hide()

    # -- groups ---------------------------------------------------------------------------------
    def _server_group(self, s: AppSettings, keyring_ok: bool, notice: str | None) -> QGroupBox:
        box = QGroupBox("Server", self)
        self.server_box = box
        self.embedded = QRadioButton("Embedded server on this computer (works offline)", box)
        self.remote = QRadioButton("Remote server", box)
        self.server_group = QButtonGroup(box)
        self.server_group.addButton(self.embedded)
        self.server_group.addButton(self.remote)
        (self.remote if s.server_mode == "remote" else self.embedded).setChecked(True)
        self.server_url = QLineEdit(s.server_url, box)
        self.server_url.setPlaceholderText("https://composer.example.org")
        self.token = QLineEdit(box)
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setPlaceholderText("leave empty to keep the stored token")
        form = QFormLayout()
        form.addRow("Address", self.server_url)
        form.addRow("Token", self.token)
        layout = QVBoxLayout(box)
        layout.addWidget(self.embedded)
        layout.addWidget(self.remote)
        layout.addLayout(form)
        hint = ("The token is kept in the system keyring." if keyring_ok else
                "No system keyring is available: the token is kept only while the app runs.")
        if notice:
            hint += f" {notice}."
        self.token_hint = QLabel(hint, box)
        self.token_hint.setWordWrap(True)
        layout.addWidget(self.token_hint)
        return box

    def _provider_group(self, s: AppSettings, keyring_ok: bool) -> QGroupBox:
        box = QGroupBox("Assistant (embedded server)", self)
        self.local = QRadioButton("Local assistant (offline, answers from context and a folder)",
                                  box)
        self.openai = QRadioButton("OpenAI-compatible endpoint", box)
        self.provider_group = QButtonGroup(box)
        self.provider_group.addButton(self.local)
        self.provider_group.addButton(self.openai)
        (self.openai if s.provider == "openai" else self.local).setChecked(True)
        self.knowledge_dir = QLineEdit(s.knowledge_dir, box)
        self.knowledge_dir.setPlaceholderText("optional folder of documents")
        self.browse = QPushButton("Browse…", box)
        folder = QHBoxLayout()
        folder.addWidget(self.knowledge_dir, 1)
        folder.addWidget(self.browse)
        self.base_url = QLineEdit(s.openai_base_url, box)
        self.model = QLineEdit(s.openai_model, box)
        self.model.setPlaceholderText("e.g. gpt-4o-mini or llama3.1")
        self.api_key = QLineEdit(box)
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText("leave empty to keep the stored key" if keyring_ok else
                                        "no keyring: set COMPOSER_OPENAI_API_KEY instead")
        self.api_key.setEnabled(keyring_ok)
        form = QFormLayout()
        form.addRow("Knowledge folder", folder)
        form.addRow("Endpoint", self.base_url)
        form.addRow("Model", self.model)
        form.addRow("API key", self.api_key)
        layout = QVBoxLayout(box)
        layout.addWidget(self.local)
        layout.addWidget(self.openai)
        layout.addLayout(form)
        return box

    def _appearance_group(self, s: AppSettings) -> QGroupBox:
        box = QGroupBox("Appearance", self)
        self.theme = QComboBox(box)
        for key in THEMES:
            self.theme.addItem(THEME_NAMES[key], key)
        self.theme.setCurrentIndex(max(0, self.theme.findData(s.theme)))
        form = QFormLayout(box)
        form.addRow("Theme", self.theme)
        return box

    def _connect_signals(self) -> None:
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        self.server_group.buttonToggled.connect(self._on_choice_changed)
        self.provider_group.buttonToggled.connect(self._on_choice_changed)
        self.browse.clicked.connect(self._on_browse_clicked)

    # -- values ---------------------------------------------------------------------------------
    def settings(self) -> AppSettings:
        """The settings as currently entered."""
        return AppSettings(
            server_mode="remote" if self.remote.isChecked() else "embedded",
            server_url=normalize_url(self.server_url.text()),
            provider="openai" if self.openai.isChecked() else "local",
            knowledge_dir=self.knowledge_dir.text().strip(),
            openai_base_url=normalize_url(self.base_url.text()),
            openai_model=self.model.text().strip(),
            theme=str(self.theme.currentData() or "system"),
            editor_command=self.editor_section.command(),
        )

    def result_value(self) -> SettingsResult:
        """Settings and the secrets typed in."""
        token = self.token.text().strip() or None
        key = self.api_key.text().strip() or None
        return SettingsResult(self.settings(), token, key, self.accounts.token(),
                              self.accounts.forgotten())

    # -- handlers -------------------------------------------------------------------------------
    def _on_choice_changed(self, *_: object) -> None:
        remote = self.remote.isChecked()
        self.server_url.setEnabled(remote)
        self.token.setEnabled(remote)
        local = self.local.isChecked()
        self.knowledge_dir.setEnabled(local)
        self.browse.setEnabled(local)
        for field in (self.base_url, self.model):
            field.setEnabled(not local)
        self.api_key.setEnabled(not local and self._keyring_ok)

    def _on_browse_clicked(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Knowledge folder",
                                                  self.knowledge_dir.text())
        if folder:
            self.knowledge_dir.setText(folder)

    def _on_buttons_accepted(self) -> None:
        problems = validate(self.settings())
        self.problems.setText("\n".join(problems))
        self.problems.setVisible(bool(problems))
        if not problems:
            self.accept()


def store_github_token(result: SettingsResult) -> str | None:
    """Keep (or forget) the GitHub token of *Settings ▸ Accounts* in the system keyring; a
    sentence when that failed."""
    import keyring

    from composer_app.ui.context.pull_requests import GITHUB_TOKEN_KEYRING_USER

    try:
        if result.github_token:
            keyring.set_password(APP_ID, GITHUB_TOKEN_KEYRING_USER, result.github_token)
        elif result.forget_github_token:
            keyring.delete_password(APP_ID, GITHUB_TOKEN_KEYRING_USER)
    except Exception:  # not remembered (or already gone): say so
        return ("The GitHub token could not be "
                f"{'stored in' if result.github_token else 'removed from'} the system keyring.")
    return None


def apply_settings_result(session: Session, result: SettingsResult,
                          use_token: Callable[[str, str], bool] | None = None) -> str:
    """Save what the settings dialog returned into ``session`` and the settings file; the status
    message to show (may be empty). A new token goes to the token store and, when it is for the
    server this window is connected to, to the sync engine at once (it reconnects with it;
    ``use_token(url, token)``, when given, hands it to the signed-in server at ``url``, whichever
    it is, and says whether one took it); a new API key goes to the system keyring (only when
    there is one); the theme applies at once; a new server or assistant after a restart, and the
    message names which."""
    import keyring

    from composer_app.server.providers.registry import keyring_user

    before = session.settings
    after = result.settings
    save_settings(session.paths.settings_file, after)
    session.settings = after
    in_use = False
    if result.server_token and after.server_mode == "remote" and after.server_url:
        session.tokens.set(after.server_url, result.server_token)
        if use_token is not None:
            in_use = use_token(after.server_url, result.server_token)
        elif not session.embedded and normalize_url(after.server_url) == normalize_url(
                session.server_url):
            token = result.server_token
            try:
                session.bridge.submit(lambda engine: engine.set_token(token))
                in_use = True
            except RuntimeError:  # its engine is not running: the token waits in the store
                in_use = False
    if result.api_key and session.tokens.uses_keyring:
        try:
            keyring.set_password(APP_ID, keyring_user(after.openai_base_url), result.api_key)
        except Exception:  # the key simply is not remembered; say so
            return "The API key could not be stored in the system keyring."
    github_problem = store_github_token(result) if session.tokens.uses_keyring else None
    if github_problem:
        return github_problem
    app = QApplication.instance()
    if isinstance(app, QApplication):
        apply_theme(app, after.theme)
    message = "Settings saved." + (" The new token is in use." if in_use else "")
    reasons = restart_reasons(before, after)
    if reasons:
        names = " and ".join(reason.removeprefix("the ") for reason in reasons)
        message += f" Restart Composer to use the new {names}."
    return message
