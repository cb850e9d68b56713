"""``SourcesPanel``: the full source inventory of one assistant message (a dock's content).

Invariants: the panel renders what ``sources_logic.build_sources_panel`` returns and nothing else —
group order, counts, collapsed state, empty text and the actions per row; it makes no network calls:
Open goes to an injectable opener (the system browser by default) after showing the full host,
``http`` links ask once per host, and Download goes to an injectable downloader given the
authenticated route and a progress object; Open on a knowledge-folder or workspace file goes to an
injectable ``file_opener`` (an in-app viewer at the cited lines) with the entry, thread and
message; selecting a row emits ``row_selected`` so the transcript
highlights the blocks it supports, and ``select_entry`` (a token activation) selects and reveals
its row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtWidgets import (
    QLabel,
    QMessageBox,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from composer_app.core.codecs.sources import download_route, link_host, open_link
from composer_app.core.codecs.sources_actions import needs_open_confirmation
from composer_app.core.contracts.sources import SourceEntry
from composer_app.ui.external_open import open_url_externally
from composer_app.ui.transcript import sources_logic
from composer_app.ui.transcript.source_row import SourceRow


def _system_browser(url: QUrl) -> bool:
    """The default opener: the system browser, outside the app (no cookies, no referrer)."""
    return open_url_externally(url.toString())


EMPTY_TEXT = ("Sources of an answer appear here. Ask a question, then choose Sources under "
              "the answer or press Ctrl+Shift+S.")
"""What the panel says before it shows an answer's sources."""
MIN_WIDTH = 280
"""The narrowest the panel gets: a source's title, kind and actions stay readable."""

class DownloadProgress(QObject):
    """Progress of one download; safe to signal from any thread (queued to the panel)."""

    progressed = Signal(int, int)  # bytes received, total (0 when unknown)
    finished = Signal(bool, str)  # ok, message


PANEL_STYLE = """
#sourceRow { border: 1px solid transparent; border-radius: 8px; }
#sourceRow:hover { background: palette(alternate-base); }
#sourceRow[selected="true"] { border: 1px solid palette(highlight);
                              background: palette(alternate-base); }
#sourceNumber { background: palette(mid); color: palette(bright-text); border-radius: 9px;
                font-weight: 600; }
#sourcesGroupHeader { font-weight: 600; border: none; padding: 6px 2px; }
#sourcesNotice { color: palette(placeholder-text); }
#sourceRow QPushButton { color: palette(link); border: none; border-radius: 5px;
                         padding: 2px 8px; background: transparent; }
#sourceRow QPushButton:hover { background: palette(mid); }
#sourceRow QPushButton:checked { background: palette(mid); }
"""

Opener = Callable[[QUrl], object]
Downloader = Callable[[str, DownloadProgress], object]
FileOpener = Callable[[SourceEntry, str, str], object]  # entry, thread id, message id


class SourcesPanel(QWidget):
    """Groups of source rows for one message, with a header and the empty state."""

    row_selected = Signal(str, str)  # message id, entry id
    open_requested = Signal(str)  # URL
    download_requested = Signal(str, str)  # entry id, route
    file_open_requested = Signal(str)  # entry id

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        opener: Opener | None = None,
        downloader: Downloader | None = None,
        confirm_http: Callable[[str], bool] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("sourcesPanel")
        self.opener: Opener = opener or _system_browser
        self.downloader = downloader
        self.file_opener: FileOpener | None = None
        self.confirm_http = confirm_http or self._ask_http
        self.linked_accounts: Mapping[str, str] = {}
        self.message_id = ""
        self.thread_id = ""
        self.public = False
        self.model = sources_logic.SourcesPanelContent()
        self.rows: dict[str, SourceRow] = {}
        self.group_buttons: dict[str, QToolButton] = {}
        self.group_bodies: dict[str, QWidget] = {}
        self.downloads: dict[str, DownloadProgress] = {}
        self._confirmed_hosts: set[str] = set()
        self._entries: dict[str, SourceEntry] = {}
        self._selected: str | None = None
        self.setStyleSheet(PANEL_STYLE)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setObjectName("sourcesNotice")
        self.notice.setContentsMargins(12, 8, 12, 4)
        outer.addWidget(self.notice)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QScrollArea.Shape.NoFrame)
        # rows wrap to the panel's width: never a sideways scroll bar
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer.addWidget(self.scroll_area)
        self.setMinimumWidth(MIN_WIDTH)
        self.clear()

    def clear(self) -> None:
        """No answer shown: the panel says what will appear here."""
        self.message_id = self.thread_id = ""
        self._entries = {}
        self._selected = None
        self.model = sources_logic.SourcesPanelContent()
        self._rebuild()
        self.notice.setText(EMPTY_TEXT)
        self.notice.setVisible(True)

    # -- content ---------------------------------------------------------------------------------

    def show_message(
        self,
        message_id: str,
        thread_id: str,
        entries: Sequence[SourceEntry],
        numbers: Mapping[str, int],
        grounding_mode: str | None,
        *,
        public: bool = False,
    ) -> None:
        """Show the inventory of one message."""
        self.message_id, self.thread_id, self.public = message_id, thread_id, public
        self._entries = {entry.id: entry for entry in entries}
        self.model = sources_logic.build_sources_panel(
            entries, numbers, grounding_mode, public=public, linked_accounts=self.linked_accounts
        )
        self._selected = None
        self._rebuild()

    def _rebuild(self) -> None:
        self.rows.clear()
        self.group_buttons.clear()
        self.group_bodies.clear()
        text = self.model.empty_text or self.model.notice
        self.notice.setText(text or "")
        self.notice.setVisible(bool(text))
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(8, 4, 8, 8)
        layout.setSpacing(2)
        for group in self.model.groups:
            button = QToolButton()
            button.setObjectName("sourcesGroupHeader")
            button.setText(group.header)
            button.setCheckable(True)
            button.setChecked(not group.collapsed)
            button.setAutoRaise(True)
            button.setToolButtonStyle(button.toolButtonStyle().ToolButtonTextBesideIcon)
            body = QWidget()
            body_layout = QVBoxLayout(body)
            body_layout.setContentsMargins(0, 0, 0, 6)
            body_layout.setSpacing(4)
            for row_model in group.rows:
                row = SourceRow(row_model, self)
                row.selected.connect(self._on_row_selected)
                row.action_triggered.connect(self._on_row_action)
                body_layout.addWidget(row)
                self.rows[row_model.entry_id] = row
            self._set_expanded(button, body, not group.collapsed)
            button.toggled.connect(lambda on, b=button, w=body: self._set_expanded(b, w, on))
            layout.addWidget(button)
            layout.addWidget(body)
            self.group_buttons[group.usage] = button
            self.group_bodies[group.usage] = body
        layout.addStretch(1)
        self.scroll_area.setWidget(content)

    @staticmethod
    def _set_expanded(button: QToolButton, body: QWidget, expanded: bool) -> None:
        button.setArrowType(
            button.arrowType().DownArrow if expanded else button.arrowType().RightArrow
        )
        body.setVisible(expanded)

    # -- selection -------------------------------------------------------------------------------

    def selected_entry(self) -> str | None:
        """The selected row's entry id."""
        return self._selected

    def select_entry(self, entry_id: str) -> bool:
        """Select and reveal a row (its group expands); ``False`` when it is not shown."""
        row = self.rows.get(entry_id)
        if row is None:
            return False
        usage = row.model.usage
        self.group_buttons[usage].setChecked(True)
        self._apply_selection(entry_id)
        self.scroll_area.ensureWidgetVisible(row)
        return True

    def _apply_selection(self, entry_id: str | None) -> None:
        self._selected = entry_id
        for key, row in self.rows.items():
            row.set_selected(key == entry_id)

    def _on_row_selected(self, entry_id: str) -> None:
        self._apply_selection(entry_id)
        self.row_selected.emit(self.message_id, entry_id)

    # -- actions ---------------------------------------------------------------------------------

    def _on_row_action(self, entry_id: str, action: str) -> None:
        entry = self._entries.get(entry_id)
        row = self.rows.get(entry_id)
        if entry is None or row is None or action not in row.model.actions:
            return
        if action == "open":
            self.open_entry(entry)
        elif action == "open-file":
            self.open_file(entry)
        elif action == "download":
            self.download_entry(entry)

    def open_entry(self, entry: SourceEntry) -> bool:
        """Open the entry's safe link in the system browser (``http`` confirmed once per host)."""
        link = open_link(entry)
        if link is None:
            return False
        host = link_host(link) or ""
        if needs_open_confirmation(link) and host not in self._confirmed_hosts:
            if not self.confirm_http(host):
                return False
            self._confirmed_hosts.add(host)
        self.open_requested.emit(link)
        self.opener(QUrl(link))
        return True

    def open_file(self, entry: SourceEntry) -> bool:
        """Show a knowledge-folder or workspace file in the app's viewer (through
        ``file_opener``); False when the row offers no such Open or nothing opens files."""
        row = self.rows.get(entry.id)
        if self.public or row is None or "open-file" not in row.model.actions:
            return False
        self.file_open_requested.emit(entry.id)
        if self.file_opener is None:
            return False
        self.file_opener(entry, self.thread_id, self.message_id)
        return True

    def download_entry(self, entry: SourceEntry) -> DownloadProgress | None:
        """Start a download through the authenticated route; the row shows its progress."""
        if self.public or entry.id not in self.rows:
            return None
        route = download_route(self.thread_id, self.message_id, entry.id)
        progress = DownloadProgress(self)
        row = self.rows[entry.id]
        progress.progressed.connect(row.show_progress)
        progress.finished.connect(row.finish_progress)
        self.downloads[entry.id] = progress
        row.show_progress(0, 0)
        self.download_requested.emit(entry.id, route)
        if self.downloader is not None:
            self.downloader(route, progress)
        return progress

    def _ask_http(self, host: str) -> bool:
        answer = QMessageBox.question(
            self,
            "Open an unencrypted link?",
            f"{host} is not using a secure connection. Open it in your browser anyway?",
        )
        return answer == QMessageBox.StandardButton.Yes
