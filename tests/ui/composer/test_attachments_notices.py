"""The composer's notice bar shows attachment and paste notices."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QUrl

from composer_app.ui.composer.notices import MAX_NOTICES, NoticeBar
from tests.ui.composer.attachment_support import make_composer, make_uploads


def test_notices_show_the_newest_and_hide_after_the_timeout(qtbot):
    bar = NoticeBar(timeout_ms=50)
    qtbot.addWidget(bar)
    assert bar.isHidden()
    bar.post("Couldn't attach <folder>", "Folders can't be attached.")
    assert bar.isVisible() and "&lt;folder&gt;" in bar.text()
    assert bar.accessibleDescription() == "Couldn't attach <folder> Folders can't be attached."
    qtbot.waitUntil(bar.isHidden, timeout=2000)
    for n in range(MAX_NOTICES + 5):
        bar.post(f"n{n}")
    assert len(bar.history) == MAX_NOTICES and bar.history[-1] == (f"n{MAX_NOTICES + 4}", "")


def test_a_refused_drop_reaches_the_notice_bar(qtbot, tmp_path):
    w = make_composer(qtbot, make_uploads(tmp_path))
    bar = NoticeBar()
    qtbot.addWidget(bar)
    w.notice_posted.connect(bar.post)
    md = QMimeData()
    md.setUrls([QUrl.fromLocalFile(str(tmp_path))])
    w.insertFromMimeData(md)
    assert bar.history == [(f"Couldn't attach {tmp_path.name}",
                            "Folders can't be attached. Attach the files inside it instead.")]
    assert "file://" not in w.markdown()
