"""Screenshot of the real app window to ``docs/screenshot.png`` (offscreen, light theme).

It starts the embedded server with the local assistant and a small knowledge folder, builds the
real main window, sends a message with chips of every kind through the real composer, waits for
the sourced answer, opens the Sources panel on it and saves the window.

Usage: ``.venv/bin/python scripts/screenshot_app.py [output.png] [--dark]``
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from composer_app.core.contracts.records import decode_record  # noqa: E402

KNOWLEDGE = {
    "release-checklist.md": (
        "# Release checklist\n\n"
        "## Staging\n\n"
        "For the staging deploy we use the blue-green strategy: the new build starts beside the "
        "old one and the router switches over once its health checks pass. The staging deploy "
        "runs every night at 02:00 UTC.\n\n"
        "## Rollback\n\n"
        "A rollback switches the router back to the previous colour within one minute; the old "
        "build is kept for 24 hours.\n"
    ),
    "on-call.md": (
        "# On-call\n\nThe release captain watches the first deploy after a merge and pages the "
        "on-call engineer when a health check fails twice.\n"
    ),
}
QUESTION = ("Why did the staging deploy roll back after the health check on /ready failed with "
            "503? Screenshot:")
FOLLOW_UP = "Which strategy does the staging deploy use?"
ANNOTATION_TEXT = "The Deploy button overlaps the status badge"


def _record(kind: str, cid: str, label: str, **extra: Any) -> Any:
    return decode_record({"version": 1, "contextId": cid, "kind": kind, "label": label, **extra})


def context_records() -> list[Any]:
    """One record of every kind that is not an upload."""
    return [
        _record("terminal", "terminal_deploy", "Terminal 1 lines 12-14", terminalId="t1",
                terminalLabel="Terminal 1", lineStart=12, lineEnd=14,
                text="$ ./deploy staging\nhealth check /ready failed (503)\nrolling back to blue"),
        _record("element", "element_deploy_button", "button.deploy",
                pageUrl="http://localhost:5173/settings", pageTitle="Settings", tagName="button",
                selector="button.deploy", htmlPreview="<button class=\"deploy\">Deploy</button>",
                componentName="DeployButton", source=None, styles=""),
        _record("preview-annotation", "preview-annotation_badge", ANNOTATION_TEXT,
                annotationId="a1", pageUrl="http://localhost:5173/settings",
                pageTitle="Settings", comment=ANNOTATION_TEXT,
                targetSummary="1 selected element", styleChanges=[]),
        _record("review-comment", "review-comment_health", "deploy.py L42", sectionId="s1",
                sectionTitle="deploy.py", filePath="scripts/deploy.py", startIndex=0,
                endIndex=1, rangeLabel="+42", text="Should this retry before rolling back?",
                diff="+    if not healthy(): rollback()"),
        _record("mention", "mention_router", "infra/router.yaml", path="infra/router.yaml"),
        _record("skill", "skill_deploy", "deploy", name="deploy"),
        _record("thread", "thread_earlier", "Blue-green rollout plan", environmentId="env_prev",
                threadId="thr_prev", title="Blue-green rollout plan"),
    ]


def _png(path: Path) -> Path:
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    image = QImage(480, 300, QImage.Format.Format_RGB32)
    image.fill(QColor("#f8fafc"))
    painter = QPainter(image)
    painter.fillRect(0, 0, 480, 44, QColor("#1e293b"))
    painter.setPen(QColor("#ffffff"))
    painter.setFont(QFont("Sans", 14))
    painter.drawText(QRect(16, 0, 300, 44), Qt.AlignmentFlag.AlignVCenter, "Settings")
    painter.fillRect(300, 120, 120, 40, QColor("#2563eb"))
    painter.fillRect(390, 110, 70, 26, QColor("#f59e0b"))
    painter.end()
    image.save(str(path), "PNG")
    return path


def _wait(condition: Any, what: str, timeout: float = 60.0) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        loop = QEventLoop()
        QTimer.singleShot(20, loop.quit)
        loop.exec()


def build(work: Path, dark: bool) -> tuple[Any, Any]:
    """The real window with one answered thread; returns the window."""
    from composer_app.sync.secrets import TokenStore
    from composer_app.ui.application import create_application
    from composer_app.ui.backend import connect_backend, start_embedded_server
    from composer_app.ui.session import Session
    from composer_app.ui.settings.dialog import apply_theme
    from composer_app.ui.settings.settings_logic import AppSettings, Connection, app_paths
    from composer_app.ui.window.main_window import MainWindow

    app = create_application()
    knowledge = work / "knowledge"
    knowledge.mkdir()
    for name, text in KNOWLEDGE.items():
        (knowledge / name).write_text(text, encoding="utf-8")
    settings = AppSettings(knowledge_dir=str(knowledge), theme="dark" if dark else "light")
    apply_theme(app, settings.theme)
    paths = app_paths(work / "data")
    server = start_embedded_server(paths, settings)
    started = connect_backend(paths, Connection(True), server.token, server)
    window = MainWindow(Session(started.bridge, paths, settings, TokenStore(paths.config_dir),
                                True, started.url))
    window.show()
    window.resize(1440, 900)  # after the first show, which fits the window on the screen
    _wait(lambda: bool(window.current_thread), "the first thread")
    first = window.current_thread
    window.navigator.rename_thread(first, "Release notes for 0.1")
    for title in ("Q3 travel budget", "Onboarding docs review", "Staging rollback"):
        previous = window.current_thread
        window.new_thread(title)
        _wait(lambda previous=previous: window.current_thread != previous, title)
    _wait(lambda: window.bridge.connection_state[0] == "connected", "the connection")
    editor = window.editor
    editor.setFocus()
    editor.insertPlainText(QUESTION + " ")
    attached = editor.attach_paths([str(_png(work / "settings-page.png"))])
    records = context_records()
    terminal, element, annotation, review, mention, skill, thread = records
    editor.insertPlainText("the run: ")
    editor.insert_context(terminal)
    editor.insertPlainText("the review: ")
    editor.insert_context(review)
    editor.insertPlainText("the router: ")
    editor.insert_context(mention)
    editor.insertPlainText("and the layout bug: ")
    editor.insert_context(element)
    editor.insert_context(annotation)
    notes = work / "deploy-log.txt"
    notes.write_text("02:00 deploy started\n02:03 /ready returned 503 twice\n02:04 rollback\n",
                     encoding="utf-8")
    editor.insertPlainText("The log is ")
    attached += editor.attach_paths([str(notes)])
    editor.insertPlainText("— use ")
    editor.insert_context(skill)
    editor.insertPlainText("and see ")
    editor.insert_context(thread)
    ids = [r.attachment_id for r in attached]
    _wait(lambda: all((s := window.uploads.status(i)) is not None and s.state == "uploaded"
                      for i in ids), "the uploads")
    editor.request_send()

    def answered(count: int) -> bool:
        done = [m for m in window.transcript.messages if m.role == "assistant" and not m.streaming]
        return len(done) >= count

    _wait(lambda: answered(1), "the first answer")
    editor.insertPlainText(FOLLOW_UP)
    editor.request_send()
    _wait(lambda: answered(2), "the sourced answer")
    editor.insertPlainText("Can we retry the health check before rolling back? Dashboard: ")
    pending = editor.attach_paths([str(_png(work / "health-dashboard.png"))])
    _wait(lambda: all((s := window.uploads.status(r.attachment_id)) is not None
                      and s.state == "uploaded" for r in pending), "the draft's upload")
    answers = [m for m in window.transcript.messages if m.role == "assistant"]
    answer = max(answers, key=lambda m: len(m.answer().entries))
    window.window_actions.sources_action.setChecked(True)
    window.sources_dock.show_sources(answer.message_id)
    entries = answer.answer().entries
    if entries:
        window.sources_dock.panel.select_entry(entries[0].id)
    window.composer_area.shelf.clearSelection()
    checked = window.sources_dock.panel.group_buttons.get("checked")
    if checked is not None:
        checked.setChecked(True)
    from PySide6.QtCore import Qt

    window.resizeDocks([window.sources_dock], [400], Qt.Orientation.Horizontal)
    return window, started


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    dark = "--dark" in sys.argv
    out = Path(args[0]) if args else ROOT / "docs" / "screenshot.png"
    from PySide6.QtCore import QEventLoop, QTimer

    from composer_app.ui.application import shut_down

    with tempfile.TemporaryDirectory(prefix="composer-shot-") as tmp:
        for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
            os.environ[name] = str(Path(tmp) / name.lower())
        window, started = build(Path(tmp), dark)
        for _ in range(10):  # let deferred layouts settle
            loop = QEventLoop()
            QTimer.singleShot(30, loop.quit)
            loop.exec()
        out.parent.mkdir(parents=True, exist_ok=True)
        window.grab().save(str(out))
        shut_down(window, started)
    print(out)


if __name__ == "__main__":
    main()
