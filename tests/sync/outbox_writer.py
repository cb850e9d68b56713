"""A client process that keeps queueing messages (killed with SIGKILL by the durability test).

Usage: python outbox_writer.py DATA_DIR BASE_URL TOKEN THREAD_ID
Prints each message id once ``send_message`` has committed it to the outbox.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from composer_app.sync.engine import SyncEngine


def main() -> None:
    data_dir, base_url, token, thread_id = sys.argv[1:5]
    engine = SyncEngine(base_url, token, Path(data_dir))
    engine.start()
    for i in range(100_000):
        message_id = engine.send_message(thread_id, f"m{i}").result(30)
        print(message_id, flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
