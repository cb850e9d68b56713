"""Screenshots of adding context through the real UI (offscreen, light theme).

It starts the embedded server, builds the real main window, gives the thread a workspace (a small
git project with an uncommitted change and a skill) and saves:

- ``docs/insert_menu.png``: the *Insert* menu opened from the composer's ``+`` button;
- ``docs/completion.png``: the ``@`` popup listing workspace files as they are typed;
- ``docs/changes.png``: the Changes pane with a comment on a changed line, its chip in the
  composer beside a command's output, a skill and a file mention made the same way.

Usage: ``.venv/bin/python scripts/screenshot_context.py [output-folder]``
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FILES = {
    "scripts/deploy.py": ("import sys\n\n\ndef deploy(target: str) -> int:\n"
                          "    if not healthy(target):\n        rollback(target)\n"
                          "        return 1\n    return 0\n"),
    "scripts/health.py": "def healthy(target: str) -> bool:\n    return ping(target) == 200\n",
    "infra/router.yaml": "colour: blue\nhealth: /ready\n",
    "docs/deploying.md": "# Deploying\n\nRun scripts/deploy.py staging.\n",
    ".composer/skills/rollback/SKILL.md": ("---\nname: rollback\ndescription: Roll the release "
                                           "back to the previous colour\n---\nSwitch back.\n"),
}
CHANGED = ("import sys\n\n\ndef deploy(target: str, retries: int = 2) -> int:\n"
           "    for _ in range(retries):\n        if healthy(target):\n            return 0\n"
           "    rollback(target)\n    return 1\n")


def _wait(condition: Any, what: str, timeout: float = 60.0) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        loop = QEventLoop()
        QTimer.singleShot(20, loop.quit)
        loop.exec()


def _settle(ms: int = 300) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def _project(work: Path) -> Path:
    root = work / "deploy-tools"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    git = ["git", "-C", str(root), "-c", "user.name=Docs", "-c", "user.email=docs@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "Deploy tools"], check=True)
    (root / "scripts" / "deploy.py").write_text(CHANGED, encoding="utf-8")
    return root


def build(work: Path) -> tuple[Any, Any, Path]:
    from composer_app.sync.secrets import TokenStore
    from composer_app.ui.application import create_application
    from composer_app.ui.backend import connect_backend, start_embedded_server
    from composer_app.ui.session import Session
    from composer_app.ui.settings.dialog import apply_theme
    from composer_app.ui.settings.settings_logic import AppSettings, Connection, app_paths
    from composer_app.ui.window.main_window import MainWindow

    app = create_application()
    settings = AppSettings(theme="light")
    apply_theme(app, settings.theme)
    paths = app_paths(work / "data")
    project = _project(work)
    server = start_embedded_server(paths, settings, workspace_roots=(work,))
    started = connect_backend(paths, Connection(True), server.token, server)
    window = MainWindow(Session(started.bridge, paths, settings, TokenStore(paths.config_dir),
                                True, started.url))
    window.resize(1440, 900)
    window.show()
    _wait(lambda: bool(window.current_thread), "the first thread")
    first = window.current_thread
    window.navigator.rename_thread(first, "Staging rollback")
    previous = first
    for title in ("Blue-green rollout plan", "Retry the health check"):
        window.new_thread(title)
        _wait(lambda previous=previous: window.current_thread != previous, title)
        previous = window.current_thread
    _wait(lambda: window.bridge.connection_state[0] == "connected", "the connection")
    window.context.choose_folder = lambda *_: str(project)
    window.context.workspace_action.trigger()
    _wait(lambda: window.context.workspace == str(project), "the workspace")
    return window, started, project


def _type(window: Any, text: str) -> None:
    from PySide6.QtTest import QTest

    QTest.keyClicks(window.editor, text)


def _choose(window: Any, entry: str, typed: str) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    completion = window.editor.context_input.completion
    window.context.insert_actions.action(entry).trigger()
    _type(window, typed)
    _wait(lambda: completion.is_open() and bool(completion.items()), f"the {entry} popup")
    QTest.keyClick(window.editor, Qt.Key.Key_Return)


def insert_menu_shot(window: Any, out: Path) -> None:
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QPainter

    button = window.context.add_button
    menu = button.menu()
    menu.adjustSize()
    below = button.mapToGlobal(QPoint(0, -menu.sizeHint().height() - 2))
    menu.popup(below)
    _settle()
    window.status.clearMessage()
    picture = window.grab()
    painter = QPainter(picture)
    painter.drawPixmap(menu.pos() - window.pos() - QPoint(0, 0) + _frame(window),
                       menu.grab())
    painter.end()
    picture.save(str(out))
    menu.hide()


def _frame(window: Any) -> Any:
    from PySide6.QtCore import QPoint

    return QPoint(window.pos().x() - window.geometry().x(),
                  window.pos().y() - window.geometry().y())


def completion_shot(window: Any, out: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    editor = window.editor
    window.activateWindow()
    editor.setFocus()
    window.context.insert_actions.action("runCommand").trigger()
    _type(window, "git status --short")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    _wait(lambda: any(r.kind == "terminal" for r in editor.records().values()), "the command")
    _type(window, "Why does the rollback skip the retry? See ")
    window.context.insert_actions.action("insertMention").trigger()
    _type(window, "dep")
    completion = editor.context_input.completion
    _wait(lambda: completion.is_open() and len(completion.items()) >= 2, "the @ popup")
    _settle()
    window.status.clearMessage()
    window.grab().save(str(out))


def changes_shot(window: Any, out: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    editor = window.editor
    QTest.keyClick(editor, Qt.Key.Key_Down)
    QTest.keyClick(editor, Qt.Key.Key_Return)  # the second row: scripts/deploy.py
    _type(window, "and ")
    _choose(window, "insertSkill", "roll")
    window.context.insert_actions.action("showChanges").trigger()
    dock = window.context.changes_dock
    window.resizeDocks([dock], [540], Qt.Orientation.Horizontal)
    _wait(lambda: dock.model.rowCount() > 0, "the changes")
    rows = dock.model.rows
    added = [i for i, row in enumerate(rows) if str(row.kind) == "line"
             and dock.model.changes.files[row.file].hunks[row.hunk].lines[row.line].kind == "+"]
    dock.select_rows(added[0], added[2])
    dock.open_comment()
    QTest.keyClicks(dock.editor.edit, "Should the retry wait between attempts?")
    QTest.keyClick(dock.editor.edit, Qt.Key.Key_Return)
    _wait(lambda: any(r.kind == "review-comment" for r in editor.records().values()),
          "the comment chip")
    dock.select_rows(added[0], added[2])
    _settle()
    window.status.clearMessage()
    window.grab().save(str(out))


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    folder = Path(args[0]) if args else ROOT / "docs"
    from composer_app.ui.application import shut_down

    with tempfile.TemporaryDirectory() as tmp:
        window, started, _project_root = build(Path(tmp))
        try:
            insert_menu_shot(window, folder / "insert_menu.png")
            completion_shot(window, folder / "completion.png")
            changes_shot(window, folder / "changes.png")
        finally:
            shut_down(window, started)
    print(f"saved {folder / 'insert_menu.png'}, {folder / 'completion.png'}, "
          f"{folder / 'changes.png'}")


if __name__ == "__main__":
    main()
