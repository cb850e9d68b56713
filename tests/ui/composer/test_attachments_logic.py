"""Attachment decisions: vetting files, records, shelf rows, removal and send notices."""

from __future__ import annotations

from composer_app.core.document.edits import add_record
from composer_app.core.document.model import Draft, RecordState
from composer_app.core.limits import MAX_ATTACHMENTS
from composer_app.ui.composer.attachments_logic import (
    FileFacts,
    ShelfRow,
    UploadLimits,
    UploadStatus,
    attachment_ids_of,
    fetch_failure_notice,
    format_bytes,
    held_attachments,
    ids_removed_with,
    kind_for_mime,
    new_attachment_record,
    removal_confirmation,
    remove_records,
    send_notice,
    shelf_rows,
    upload_phrase,
    vet_files,
)
from tests.core.document import sample_records as rec


def test_images_become_image_records_and_everything_else_files():
    assert kind_for_mime("image/png") == "image" and kind_for_mime("IMAGE/JPEG") == "image"
    assert kind_for_mime("application/pdf") == "file" and kind_for_mime("text/plain") == "file"
    image = new_attachment_record("image", "local_1", " shot.png ", "image/png", 12)
    assert (image.kind, image.context_id, image.attachment_id) == ("image", "image_local_1",
                                                                    "local_1")
    assert image.name == "shot.png" and image.size_bytes == 12 and image.label == "shot.png"
    odd = new_attachment_record("file", "local_2", "a\nb", "", -1)
    assert odd.name == "a b" and odd.mime_type == "application/octet-stream"
    assert odd.size_bytes == 0


def test_vet_refuses_folders_unreadable_oversize_and_too_many():
    files = [
        FileFacts("/d", "d", is_dir=True),
        FileFacts("/gone", "gone", exists=False, readable=False),
        FileFacts("/big.png", "big.png", size=11, mime_type="image/png"),
        FileFacts("/big.bin", "big.bin", size=21),
        FileFacts("/ok.bin", "ok.bin", size=20),
        FileFacts("/ok.png", "ok.png", size=10, mime_type="image/png"),
    ]
    accepted, notices = vet_files(files, held=0,
                                  limits=UploadLimits(image_bytes=10, file_bytes=20))
    assert [f.name for f in accepted] == ["ok.bin", "ok.png"]
    titles = [n.title for n in notices]
    assert titles == ["Couldn't attach d", "Couldn't attach gone", "Couldn't attach big.png",
                      "Couldn't attach big.bin"]
    assert "Folders" in notices[0].detail and "could not be read" in notices[1].detail
    assert "10 bytes" in notices[2].detail and "20 bytes" in notices[3].detail


def test_vet_caps_the_attachment_count_with_one_notice():
    files = [FileFacts(f"/f{n}", f"f{n}") for n in range(4)]
    accepted, notices = vet_files(files, held=MAX_ATTACHMENTS - 2)
    assert [f.name for f in accepted] == ["f0", "f1"]
    assert len(notices) == 1 and notices[0].title == "A message holds at most 8 attachments"
    assert notices[0].detail == "2 files were not attached: f2, f3."


def test_format_bytes():
    assert format_bytes(512) == "512 bytes"
    assert format_bytes(1536) == "1.5 KB"
    assert format_bytes(50 * 1024 * 1024) == "50 MB"


def _draft():
    draft = Draft(keep_shelf_images=True)
    for record in (rec.image(), rec.file(), rec.terminal(), rec.image("image_a2", "b.png"),
                   rec.annotation(shot="image_a1")):
        add_record(draft, record)
    return draft


def test_shelf_lists_images_then_items_with_chips():
    draft = _draft()
    draft.states["image_a2"] = RecordState.PENDING
    uploads = {"image_a1": UploadStatus("uploading", 5, 10)}
    rows = shelf_rows(draft, {"image_a1": 2, "file_f1": 1, "preview-annotation_p1": 1},
                      {rec.image().attachment_id: uploads["image_a1"]})
    assert [r.context_id for r in rows] == ["image_a1", "image_a2", "file_f1",
                                            "preview-annotation_p1"]
    assert rows[0].accessible_name == "Image shot.png, 2 references, uploading 50%"
    assert rows[1].accessible_name == "Image b.png, no references, still arriving"
    assert rows[2].accessible_name == "File notes.txt, 1 reference"
    assert held_attachments(draft) == 3


def test_removal_asks_only_when_referenced_and_takes_the_annotation_along():
    row = ShelfRow("image_a1", "image", "shot.png", 2, True, None, "resolved")
    question = removal_confirmation(row)
    assert question is not None
    assert question.title == "Remove shot.png from the message?"
    assert question.detail == "Removing it also removes every reference."
    assert removal_confirmation(ShelfRow("x", "image", "x", 0, True, None, "resolved")) is None
    draft = _draft()
    ids = ids_removed_with(draft, "image_a1")
    assert ids == ["image_a1", "preview-annotation_p1"]
    moved = remove_records(draft, ids)
    assert [r.context_id for r in moved] == ids
    assert "image_a1" not in draft.records and "image_a1" not in draft.shelf
    assert set(draft.tombstones) == set(ids)
    assert attachment_ids_of(moved) == [rec.image().attachment_id]


def test_upload_phrases_and_send_notices():
    assert upload_phrase(None) == "" and upload_phrase(UploadStatus("local")) == ""
    assert upload_phrase(UploadStatus("queued", 0, 0)) == "waiting to upload"
    assert upload_phrase(UploadStatus("uploading", 0, 10)) == "uploading"
    assert upload_phrase(UploadStatus("uploading", 4, 10)) == "uploading 40%"
    assert upload_phrase(UploadStatus("uploading", 10, 10)) == "uploading"
    assert upload_phrase(UploadStatus("failed")) == "upload failed"
    assert upload_phrase(UploadStatus("uploaded", 0, 9)) == "uploaded"
    assert send_notice([], []) == (True, None)
    ok, notice = send_notice(["a.png"], [])
    assert ok and notice is not None and notice.title.startswith("Waiting for 1 attachment")
    ok, notice = send_notice(["a.png"], ["b.txt"])
    assert not ok and notice is not None and notice.title == "Couldn't upload b.txt"
    failure = fetch_failure_notice("a.png", "why")
    assert failure.title == "Couldn't bring a.png into this message" and failure.detail == "why"
