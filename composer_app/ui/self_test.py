"""``composer-app --self-test``: the whole product, end to end, headless (docs/architecture.md §6).

Steps: (1) the ``QApplication`` (offscreen unless ``QT_QPA_PLATFORM`` says otherwise) and the real
main window, no dialogs; (2) every lazily loaded module (keyring backends, ``websockets``,
``httpx``, ``sqlite3``, ``ssl``, ``platformdirs``, the SQL migrations); (2b) the offline
assistant's sentence model loads from the build and finds a paraphrase closer than an unrelated
sentence; (3) the embedded server on
``127.0.0.1`` port 0 in a throwaway data directory, the sync engine connected, two threads; (4) in
thread one a message with an image chip (a generated PNG), a file, a terminal excerpt and a skill,
sent, and the ``local`` provider's answer awaited with its sources; (4b) thread one gets a
workspace folder and, through the real UI paths (Insert entries, typed triggers, the completion
popup, command mode), a command's output, a file mention, a skill and a reference to thread two,
sent and answered; (5) the chips copied from
thread one's composer and pasted into thread two's through the real clipboard, records and labels
checked; (6) no ``keyrings.alt`` and no plaintext keyring backend; (7) ``composer-app self-test ok``
and exit 0. Invariant: any failure prints exactly one line (the reason) on stderr and exits 1;
nothing is left behind (the data directory is removed, the server and engine are stopped).
"""

from __future__ import annotations

import importlib
import importlib.resources
import importlib.util
import io
import logging
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

OK_LINE = "composer-app self-test ok"
TIMEOUT_SECONDS = 90.0
LAZY_MODULES = (
    "keyring.backends.SecretService",
    "keyring.backends.chainer",
    "keyring.backends.fail",
    "keyring.backends.null",
    "secretstorage",
    "jeepney",
    "websockets",
    "websockets.asyncio.client",
    "websockets.sync.client",
    "httpx",
    "sqlite3",
    "ssl",
    "platformdirs",
    "uvicorn",
    "fastapi",
)
KNOWLEDGE_TEXT = (
    "# Release checklist\n\n"
    "The staging deploy runs every night at 02:00 and uses the blue-green strategy.\n"
    "Rollbacks switch the router back to the previous colour within one minute.\n"
)
QUESTION = "When does the staging deploy run, and what strategy does it use?"
MODEL_PARAPHRASE = "Every night at two, staging is deployed blue-green."
MODEL_UNRELATED = "Lunch is served in the canteen from noon."
TERMINAL_TEXT = "$ ./deploy staging\nstaging deploy scheduled for 02:00 (blue-green)"


class SelfTestFailure(Exception):
    """A failed step; its message is the one-line reason."""


def _check(condition: bool, reason: str) -> None:
    if not condition:
        raise SelfTestFailure(reason)


def import_lazy_modules() -> None:
    """Step 2: everything the app imports late must be importable from this build."""
    for name in LAZY_MODULES:
        try:
            importlib.import_module(name)
        except Exception as exc:
            raise SelfTestFailure(f"cannot import {name}: {exc}") from exc
    migrations = importlib.resources.files("composer_app.server.store") / "migrations" / "sqlite"
    found = [p.name for p in migrations.iterdir() if p.name.endswith(".sql")]
    _check(bool(found), "the SQL migration files are missing")


def check_sentence_model() -> None:
    """Step 2b: NumPy and the sentence model's files are in this build and the model works."""
    from composer_app.server.providers.sentence_embeddings import SentenceEmbeddings

    model = SentenceEmbeddings()
    rows = model.similarities([QUESTION], [MODEL_PARAPHRASE, MODEL_UNRELATED])
    _check(rows is not None, f"the assistant's sentence model is unavailable: {model.problem}")
    assert rows is not None
    near, far = rows[0]
    _check(near > far + 0.2, f"the sentence model ranks badly ({near:.2f} vs {far:.2f})")


def check_keyring() -> None:
    """Step 6: no ``keyrings.alt`` and no plaintext backend selected."""
    _check(importlib.util.find_spec("keyrings") is None
           or importlib.util.find_spec("keyrings.alt") is None,
           "keyrings.alt is importable (it would store tokens in plaintext)")
    import keyring
    from keyring.backends import chainer

    backend = keyring.get_keyring()
    backends = backend.backends if isinstance(backend, chainer.ChainerBackend) else [backend]
    for item in backends:
        module, name = type(item).__module__, type(item).__name__.lower()
        _check(not (module.startswith("keyrings.alt") or "plaintext" in name
                    or "unencrypted" in name),
               f"a plaintext keyring backend is selected: {module}.{type(item).__name__}")


class _Waiter:
    """Runs the Qt event loop until a condition holds (or the self-test's deadline passes)."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline

    def until(self, condition: Callable[[], bool], what: str) -> None:
        from PySide6.QtCore import QEventLoop, QTimer

        while not condition():
            if time.monotonic() > self.deadline:
                raise SelfTestFailure(f"timed out waiting for {what}")
            loop = QEventLoop()
            QTimer.singleShot(20, loop.quit)
            loop.exec()


def _generated_png(path: Path) -> Path:
    from PySide6.QtGui import QColor, QImage, QPainter

    image = QImage(64, 48, QImage.Format.Format_RGB32)
    image.fill(QColor("#2563eb"))
    painter = QPainter(image)
    painter.fillRect(8, 8, 30, 20, QColor("#f59e0b"))
    painter.end()
    _check(image.save(str(path)), "could not write the generated PNG")
    return path


def _chips(editor: Any) -> list[tuple[str, str]]:
    """``(kind, label)`` of every chip in the editor, in order."""
    from composer_app.ui.composer.document_bridge import chip_occurrences

    held = editor.records()
    out = []
    for chip in chip_occurrences(editor.document()):
        record = held.get(chip.context_id)
        _check(record is not None, f"a {chip.kind} chip has no record")
        out.append((record.kind, record.label))
    return out


def _compose_thread_one(window: Any, work: Path, wait: _Waiter) -> list[tuple[str, str]]:
    """Step 4 (first half): chips of several kinds in thread one's composer."""
    from composer_app.core.contracts.records import decode_record

    editor = window.editor
    editor.setFocus()
    editor.insertPlainText(QUESTION + " ")
    image = _generated_png(work / "diagram.png")
    notes = work / "release-notes.txt"
    notes.write_text("Staging deploys at 02:00 with blue-green switching.\n", encoding="utf-8")
    attached = editor.attach_paths([str(image), str(notes)])
    _check([r.kind for r in attached] == ["image", "file"],
           f"attaching gave {[r.kind for r in attached]}, not an image and a file")
    editor.insert_context(decode_record({
        "version": 1, "contextId": "terminal_selftest", "kind": "terminal",
        "label": "Terminal 1 lines 1-2", "terminalId": "t1", "terminalLabel": "Terminal 1",
        "lineStart": 1, "lineEnd": 2, "text": TERMINAL_TEXT}))
    editor.insert_context(decode_record({
        "version": 1, "contextId": "skill_selftest", "kind": "skill", "label": "deploy",
        "name": "deploy"}))
    uploads = window.uploads
    ids = [r.attachment_id for r in attached]

    def uploaded() -> bool:
        statuses = [uploads.status(i) for i in ids]
        for status in statuses:
            if status is not None and status.failed:
                raise SelfTestFailure("an attachment upload failed")
        return all(s is not None and s.state == "uploaded" for s in statuses)

    wait.until(uploaded, "the attachments to upload")
    chips = _chips(editor)
    _check(Counter(k for k, _ in chips) == Counter(["image", "file", "terminal", "skill"]),
           f"thread one's composer holds {chips} (open: {window.current_thread}, composer: "
           f"{editor.thread_id}, records: {sorted(r.kind for r in editor.records().values())})")
    return chips


def _workspace(work: Path) -> Path:
    """A small project folder with a file and a skill of its own."""
    project = work / "project"
    (project / "scripts").mkdir(parents=True)
    (project / "scripts" / "deploy.sh").write_text("#!/bin/sh\necho deploying\n",
                                                   encoding="utf-8")
    skill = project / ".composer" / "skills" / "rollback"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: rollback\ndescription: Roll the release back\n"
                                    "---\nSwitch the router back.\n", encoding="utf-8")
    return project


def _complete(window: Any, entry: str, typed: str, kind: str, wait: _Waiter) -> None:
    """Choose an Insert entry, type, wait for the popup and press Enter: one ``kind`` chip."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    editor = window.editor
    before = Counter(r.kind for r in editor.records().values())
    window.activateWindow()  # the popup opens only in a focused editor
    editor.setFocus(Qt.FocusReason.OtherFocusReason)
    wait.until(editor.hasFocus, "the composer to take the keyboard focus")
    window.context.insert_actions.action(entry).trigger()
    QTest.keyClicks(editor, typed)
    completion = editor.context_input.completion
    wait.until(lambda: completion.is_open() and bool(completion.items()),
               f"the {kind} completion popup")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    after = Counter(r.kind for r in editor.records().values())
    _check(after - before == Counter([kind]), f"completing {typed!r} did not insert a {kind}")


def _insert_through_the_ui(window: Any, work: Path, wait: _Waiter) -> None:
    """Step 4b: a workspace, then a command's output, a mention, a skill and a thread."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    project = _workspace(work)
    context = window.context
    context.choose_folder = lambda *_: str(project)
    context.workspace_action.trigger()
    wait.until(lambda: context.workspace == str(project), "the thread's workspace folder")
    editor = window.editor
    window.activateWindow()
    editor.setFocus()
    _check(editor.document().isEmpty(), "the composer is not empty after sending")
    context.insert_actions.action("runCommand").trigger()
    QTest.keyClicks(editor, "echo rollback-ready")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    wait.until(lambda: any(r.kind == "terminal" for r in editor.records().values()),
               "the command's output")
    terminal = next(r for r in editor.records().values() if r.kind == "terminal")
    _check("rollback-ready" in terminal.text, "the command's output is not in its chip")
    QTest.keyClicks(editor, "Check ")
    _complete(window, "insertMention", "deploy", "mention", wait)
    _complete(window, "insertSkill", "roll", "skill", wait)
    _complete(window, "insertThread", "Second", "thread", wait)
    kinds = Counter(r.kind for r in editor.records().values())
    _check(kinds == Counter(["terminal", "mention", "skill", "thread"]),
           f"the composer holds {dict(kinds)}")
    answers = sum(1 for m in window.transcript.messages if m.role == "assistant")
    _check(editor.request_send(), "the composer refused to send the inserted context")

    def answered() -> bool:
        replies = [m for m in window.transcript.messages if m.role == "assistant"]
        return len(replies) > answers and not replies[-1].streaming

    wait.until(answered, "the answer to the inserted context")
    sent = [m for m in window.transcript.messages if m.role == "user"][-1]
    records = sent.context.get("records", []) if isinstance(sent.context, dict) else []
    _check(Counter(r.get("kind") for r in records) == kinds,
           "the sent message lost some of the inserted context")


def _copy_all(editor: Any) -> None:
    from PySide6.QtGui import QGuiApplication

    QGuiApplication.clipboard().clear()
    editor.selectAll()
    editor.copy()
    data = QGuiApplication.clipboard().mimeData()
    _check(data is not None and data.hasText() and bool(data.text().strip()),
           "copying the chips put nothing on the clipboard")


def _sourced_answer(window: Any) -> Any:
    for message in window.transcript.messages:
        if message.role == "assistant" and not message.streaming:
            return message
    return None


def _send_and_wait(window: Any, wait: _Waiter) -> None:
    """Step 4 (second half): send and await the local provider's answer with sources."""
    _check(window.editor.request_send(), "the composer refused to send the message")
    wait.until(lambda: _sourced_answer(window) is not None, "the assistant's answer")
    answer = _sourced_answer(window)
    metadata = answer.metadata if isinstance(answer.metadata, dict) else {}
    _check(not metadata.get("error"), f"the assistant failed: {answer.text[:120]}")
    _check(bool(answer.text.strip()), "the assistant's answer is empty")
    _check(answer.sources is not None and bool(answer.answer().entries),
           "the assistant's answer has no sources")
    users = [m for m in window.transcript.messages if m.role == "user"]
    _check(bool(users) and users[-1].context is not None,
           "the sent message lost its context records")


def _paste_into_thread_two(window: Any, thread_two: str, expected: list[tuple[str, str]],
                           wait: _Waiter) -> None:
    """Step 5: paste the copied chips into thread two's composer and compare."""
    from composer_app.core.document.model import RecordState

    window.open_thread(thread_two)
    _check(window.current_thread == thread_two, "could not switch to thread two")
    editor = window.editor
    editor.setFocus()
    editor.paste()

    def settled() -> bool:
        states = editor.draft.states
        return all(states.get(cid) is not RecordState.PENDING for cid in editor.records())

    wait.until(settled, "the pasted chips to resolve")
    pasted = _chips(editor)
    _check(Counter(pasted) == Counter(expected),
           f"pasted chips {sorted(pasted)} differ from the copied {sorted(expected)}")
    unresolved = [cid for cid, state in editor.draft.states.items()
                  if state is RecordState.UNRESOLVED and cid in editor.records()]
    _check(not unresolved, f"{len(unresolved)} pasted chip(s) did not resolve")
    binaries = [r.attachment_id for r in editor.records().values() if r.kind in ("image", "file")]

    def uploaded() -> bool:
        statuses = [window.uploads.status(a) for a in binaries]
        return all(s is None or s.state in ("uploaded", "local") for s in statuses)

    wait.until(uploaded, "the pasted attachments to upload")


def _run(work: Path, deadline: float) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from composer_app.ui.application import create_application, shut_down
    from composer_app.ui.backend import (
        connect_backend,
        start_embedded_server,
        stop_embedded_server,
    )
    from composer_app.ui.settings.settings_logic import AppSettings, Connection, app_paths

    _app = create_application()  # held for the whole run
    import_lazy_modules()
    check_sentence_model()
    check_keyring()
    from composer_app.sync.secrets import TokenStore
    from composer_app.ui.session import Session
    from composer_app.ui.window.main_window import MainWindow

    paths = app_paths(work / "data")
    knowledge = work / "knowledge"
    knowledge.mkdir()
    (knowledge / "release-checklist.md").write_text(KNOWLEDGE_TEXT, encoding="utf-8")
    settings = AppSettings(knowledge_dir=str(knowledge))
    server = start_embedded_server(paths, settings, workspace_roots=(Path.home(), work))
    _check(server.url.startswith("http://127.0.0.1:"), f"the server listens on {server.url}")
    try:
        started = connect_backend(paths, Connection(True), server.token, server)
    except BaseException:
        stop_embedded_server(server)
        raise
    window: Any = None
    try:
        wait = _Waiter(deadline)
        session = Session(started.bridge, paths, settings, TokenStore(paths.config_dir),
                          True, started.url)
        window = MainWindow(session)
        window.resize(1100, 720)
        window.show()
        wait.until(lambda: bool(window.current_thread), "the first thread")
        thread_one = window.current_thread
        window.new_thread("Second thread")
        wait.until(lambda: window.current_thread not in ("", thread_one), "a second thread")
        thread_two = window.current_thread
        window.open_thread(thread_one)
        wait.until(lambda: window.bridge.connection_state[0] == "connected",
                   "the sync engine to connect")
        expected = _compose_thread_one(window, work, wait)
        _copy_all(window.editor)
        _send_and_wait(window, wait)
        _insert_through_the_ui(window, work, wait)
        created = {r.thread_id for r in window.bridge.engine.threads().result(10)}
        _check({thread_one, thread_two} <= created, "the two threads are not in the cache")
        _paste_into_thread_two(window, thread_two, expected, wait)
    finally:
        # window, engine, server, clipboard — also when a step failed
        shut_down(window, started)
        if window is not None:
            from PySide6.QtCore import QCoreApplication, QEvent

            window.deleteLater()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _quiet_qt(captured: io.StringIO) -> None:
    """Qt's own messages (e.g. offscreen warnings) go to the capture, not to stderr."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode: Any, _context: Any, message: str) -> None:
        captured.write(message + "\n")

    qInstallMessageHandler(handler)


def run_self_test() -> int:
    """The ``--self-test`` entry: 0 and the OK line, or 1 and one line on stderr.

    Everything else the run would print (Qt warnings, log records, server tracebacks) is captured,
    so stderr carries the reason line alone.
    """
    deadline = time.monotonic() + TIMEOUT_SECONDS
    captured = io.StringIO()
    real_stderr = sys.stderr
    sys.stderr = captured
    logging.basicConfig(stream=captured, level=logging.WARNING, force=True)
    reason = ""
    try:
        _quiet_qt(captured)
        with tempfile.TemporaryDirectory(prefix="composer-self-test-") as tmp:
            work = Path(tmp)
            for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
                os.environ[name] = str(work / name.lower())  # nothing lands in the user's dirs
            _run(work, deadline)
    except SelfTestFailure as exc:
        reason = str(exc)
    except Exception as exc:
        reason = f"{type(exc).__name__}: {exc}"
    finally:
        sys.stderr = real_stderr
    if reason:
        print("composer-app self-test failed: " + " ".join(reason.split()), file=sys.stderr)
        return 1
    print(OK_LINE)
    return 0
