"""One app per data folder: a second start brings the first forward and exits; a crash's lock
and socket do not block the next start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from pytestqt.qtbot import QtBot

from composer_app.ui.single_instance import LOCK_FILE, SingleInstance, server_name

ROOT = Path(__file__).resolve().parents[2]


def child_env() -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}


def test_a_second_start_on_the_same_folder_asks_the_first_to_come_forward(
        qtbot: QtBot, tmp_path: Path) -> None:
    first = SingleInstance(tmp_path / "data")
    assert first.claim() and first.primary
    first.listen()
    try:
        second = SingleInstance(tmp_path / "data")
        with qtbot.waitSignal(first.activation_requested, timeout=5000):
            assert not second.claim()
        assert not second.primary
    finally:
        first.release()
    third = SingleInstance(tmp_path / "data")  # released: the next start runs
    assert third.claim()
    third.release()
    third.release()  # idempotent


def test_two_data_folders_run_side_by_side(tmp_path: Path) -> None:
    one, two = SingleInstance(tmp_path / "one"), SingleInstance(tmp_path / "two")
    assert one.name != two.name
    assert server_name(tmp_path / "one") == server_name(tmp_path / "x" / ".." / "one")
    try:
        assert one.claim() and two.claim()
    finally:
        one.release()
        two.release()


def test_a_stale_lock_and_socket_after_a_crash_do_not_block_the_start(
        qtbot: QtBot, tmp_path: Path) -> None:
    data = tmp_path / "data"
    crash = textwrap.dedent(f"""
        import os, signal, sys
        from pathlib import Path
        from PySide6.QtCore import QCoreApplication
        from composer_app.ui.single_instance import SingleInstance
        app = QCoreApplication([])
        instance = SingleInstance(Path({str(data)!r}))
        assert instance.claim()
        instance.listen()
        print("claimed", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    done = subprocess.run([sys.executable, "-c", crash], env=child_env(), capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.stdout.strip() == "claimed" and done.returncode == -signal.SIGKILL
    assert (data / LOCK_FILE).exists()  # what the crashed process left behind
    after = SingleInstance(data)
    assert after.claim()
    after.listen()
    try:
        with qtbot.waitSignal(after.activation_requested, timeout=5000):
            assert not SingleInstance(data).claim()  # its own socket answers, not the stale one
    finally:
        after.release()


def test_the_app_started_again_on_a_held_folder_exits_at_once(qtbot: QtBot,
                                                               tmp_path: Path) -> None:
    data = tmp_path / "data"
    running = SingleInstance(data)
    assert running.claim()
    running.listen()
    try:
        with qtbot.waitSignal(running.activation_requested, timeout=30000):
            second = subprocess.Popen(
                [sys.executable, "-m", "composer_app", "--data-dir", str(data)],
                env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _out, err = second.communicate(timeout=60)
    finally:
        running.release()
    assert second.returncode == 0
    assert "already running with this data folder" in err
    assert not (data / "server").exists()  # it opened nothing in the folder
