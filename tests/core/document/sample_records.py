"""One valid record of every kind (and an unknown kind), for document and editor tests."""

from __future__ import annotations

from typing import Any

from composer_app.core.contracts.records import decode_record


def wire(kind: str, cid: str, label: str = "", **extra: Any) -> dict[str, Any]:
    base = {"version": 1, "contextId": cid, "kind": kind, "label": label or kind}
    return {**base, **extra}


def image(cid: str = "image_a1", name: str = "shot.png") -> Any:
    return decode_record(wire("image", cid, name, attachmentId=cid.split("_", 1)[-1],
                              name=name, mimeType="image/png", sizeBytes=120))


def file(cid: str = "file_f1", name: str = "notes.txt") -> Any:
    return decode_record(wire("file", cid, name, attachmentId=cid.split("_", 1)[-1],
                              name=name, mimeType="text/plain", sizeBytes=12))


def terminal(cid: str = "terminal_t1", text: str = "$ ls\nsrc", label: str = "") -> Any:
    return decode_record(wire("terminal", cid, label or "Terminal 1 lines 3-4", terminalId="t1",
                              terminalLabel="Terminal 1", lineStart=3, lineEnd=4, text=text))


def element(cid: str = "element_e1") -> Any:
    return decode_record(wire("element", cid, "button.primary", pageUrl="http://localhost/",
                              pageTitle="Home", tagName="button", selector="button.primary",
                              htmlPreview="<button>", componentName=None, source=None,
                              styles=""))


def annotation(cid: str = "preview-annotation_p1", shot: str | None = None) -> Any:
    extra = {"screenshotContextId": shot} if shot else {}
    return decode_record(wire("preview-annotation", cid, "Make it bigger", annotationId="p1",
                              pageUrl="http://localhost/", pageTitle="Home",
                              comment="Make it bigger", targetSummary="1 selected element",
                              styleChanges=[], **extra))


def review(cid: str = "review-comment_r1", pr: dict[str, Any] | None = None) -> Any:
    extra = {"pullRequest": pr} if pr else {}
    return decode_record(wire("review-comment", cid, "a.ts L4", sectionId="s1",
                              sectionTitle="a.ts", filePath="src/a.ts", startIndex=0,
                              endIndex=1, rangeLabel="+4", text="Why?", diff="+x", **extra))


def pull_request(cid: str = "review-comment_pr42", state: str = "open") -> Any:
    pr = {"number": 42, "title": "Add chips", "url": "https://example.com/pr/42",
          "headBranch": "chips", "baseBranch": "main", "state": state, "isDraft": False}
    record = review(cid, pr)
    return record.model_copy(update={"label": "#42"})


def mention(cid: str = "mention_m1", path: str = "src/app.py") -> Any:
    return decode_record(wire("mention", cid, path, path=path))


def skill(cid: str = "skill_s1", name: str = "deploy") -> Any:
    return decode_record(wire("skill", cid, name, name=name))


def thread(cid: str = "thread_th1") -> Any:
    return decode_record(wire("thread", cid, "Earlier chat", environmentId="env",
                              threadId="th1", title="Earlier chat"))


def unknown(cid: str = "ctx_u1") -> Any:
    return decode_record(wire("sticker", cid, "party", payload={"emoji": "tada"}))


def every_kind() -> list[Any]:
    """A record of each known kind plus one unknown kind."""
    return [image(), file(), terminal(), element(), annotation(), review(), mention(), skill(),
            thread(), unknown()]
