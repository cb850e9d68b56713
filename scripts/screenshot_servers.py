"""Screenshot of the thread list grouped by server to ``docs/servers.png``.

It starts three servers on loopback — the app's embedded one and two remote ones (*Team* and
*Open source*) — builds the real window on all three the way the app does, makes threads on
each, has a message arrive in a thread that is not open (an unread count) and stops the third
server (its header's dot turns to reconnecting). Run it under an X server (``Xvfb :77 &`` and
``DISPLAY=:77``): the screen is taken with ImageMagick's ``import -window root``; without a
display it falls back to grabbing the window offscreen.

Usage: ``.venv/bin/python scripts/screenshot_servers.py [output.png]``
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshot_app import _wait  # noqa: E402

THREADS = {
    "embedded": ["Release notes for 0.1", "Staging rollback"],
    "Team": ["Q3 travel budget", "Onboarding docs review", "Incident 2026-11-30"],
    "Open source": ["Plugin API proposal", "Issue triage"],
}


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "servers.png"
    from keyring.backends import fail

    from composer_app.server.embedded import start_embedded
    from composer_app.sync.accounts import EMBEDDED_ID, AccountBook
    from composer_app.sync.secrets import TokenStore
    from composer_app.ui.account_engines import AccountEngines
    from composer_app.ui.application import create_application, shut_down
    from composer_app.ui.backend import connect_backend, start_embedded_server
    from composer_app.ui.session import Session
    from composer_app.ui.settings.dialog import apply_theme
    from composer_app.ui.settings.settings_logic import AppSettings, Connection, app_paths
    from composer_app.ui.window.main_window import MainWindow

    with tempfile.TemporaryDirectory(prefix="composer-shot-") as tmp:
        work = Path(tmp)
        app = create_application()
        settings = AppSettings(theme="light")
        apply_theme(app, settings.theme)
        paths = app_paths(work / "data")
        home = start_embedded_server(paths, settings)
        remotes = {name: start_embedded(work / name.replace(" ", "-"))
                   for name in ("Team", "Open source")}
        tokens = TokenStore(paths.config_dir, backend=fail.Keyring())
        book = AccountBook.load(paths.config_dir)
        accounts = {}
        for name, server in remotes.items():
            accounts[name] = book.add(server.url, name)
            tokens.set(server.url, server.token)
        tokens.remember_on_device()  # no keyring here: the opted-in file, so no banner
        book.select(EMBEDDED_ID)
        started = connect_backend(paths, Connection(True), home.token, home)
        engines = AccountEngines(paths)
        started.engines = engines
        window = MainWindow(Session(started.bridge, paths, settings, tokens, True, started.url,
                                    token=home.token, book=book, engines=engines))
        window.show()
        window.resize(1180, 720)
        for name, server in remotes.items():
            window.servers.start_saved(accounts[name], server.url, server.token)
        _wait(lambda: bool(window.current_thread), "the first thread")
        _wait(lambda: all(window.accounts_bridge.state_of(a)[0] == "connected"
                          for a in window.accounts_bridge.account_ids()), "the connections")
        window.navigator.rename_thread(window.current_thread, THREADS["embedded"][0])
        made: dict[str, str] = {}
        for position, (server_name, titles) in enumerate(THREADS.items(), 1):
            window.servers.jump(position)
            for title in titles[1 if server_name == "embedded" else 0:]:
                previous = window.current_thread
                window.new_thread(title)
                _wait(lambda previous=previous: window.current_thread != previous, title)
                made[title] = window.current_thread
        window.open_thread(made["Q3 travel budget"])
        window.editor.insertPlainText("Can we cap the offsite flights at 400 EUR per person?")
        window.editor.request_send()
        _wait(lambda: any(m.role == "assistant" and not m.streaming
                          for m in window.transcript.messages), "the answer")
        # a message arrives in a thread that is not open: its server shows an unread count
        team_bridge = window.accounts_bridge.bridge_of(accounts["Team"].account_id)
        assert team_bridge is not None
        team_bridge.engine.send_message(made["Incident 2026-11-30"],
                                        "Postmortem draft is up for review", [], []).result(10)
        window.navigator.unread.message_arrived(made["Incident 2026-11-30"],
                                                window.current_thread)
        window.navigator.refresh_groups()
        remotes["Open source"].stop()
        _wait(lambda: window.accounts_bridge.state_of(
            accounts["Open source"].account_id)[0] != "connected", "the stopped server")
        window.editor.setFocus()
        window.status.clearMessage()
        for _ in range(20):
            app.processEvents()
        out.parent.mkdir(parents=True, exist_ok=True)
        if os.environ.get("DISPLAY") and shutil.which("import"):
            window.move(0, 0)
            for _ in range(20):
                app.processEvents()
            subprocess.run(["import", "-window", "root", "-crop",
                            f"{window.frameGeometry().width()}x"
                            f"{window.frameGeometry().height()}+0+0", str(out)], check=True)
        else:
            window.grab().save(str(out))
        print(f"saved {out}")
        shut_down(window, started)
        remotes["Team"].stop()




if __name__ == "__main__":
    main()
