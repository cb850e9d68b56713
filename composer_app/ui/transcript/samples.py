"""Sample thread content for the screenshot script, the benchmark and tests.

Invariants: every message is a valid wire message (camelCase keys); the chip message references a
record of every known kind plus an unknown kind and a missing record (both render unresolved); the
sourced answer has the shape of docs/sources.md §2.
"""

from __future__ import annotations

import copy
from typing import Any

THREAD_ID = "thr_8a1b2c3d4e5f60718293a4b5c6d7e8f9"

_PR = {
    "number": 42,
    "title": "Trim travel budget rows",
    "url": "https://github.com/acme/budget/pull/42",
    "headBranch": "trim-travel",
    "baseBranch": "main",
    "state": "open",
    "isDraft": False,
}

RECORDS: list[dict[str, Any]] = [
    {
        "version": 1,
        "contextId": "ctx_term",
        "kind": "terminal",
        "label": "build L12-14",
        "terminalId": "term-1",
        "terminalLabel": "build",
        "lineStart": 12,
        "lineEnd": 14,
        "text": (
            "error[E0432]: unresolved import `budget::rows`\n  --> src/main.rs:3:5\nbuild failed"
        ),
    },
    {
        "version": 1,
        "contextId": "ctx_el",
        "kind": "element",
        "label": "<button> Save",
        "pageUrl": "http://localhost:3000/budget",
        "pageTitle": "Budget",
        "tagName": "button",
        "selector": "form > button.save",
        "htmlPreview": '<button class="save">Save</button>',
        "componentName": "SaveButton",
        "source": {
            "functionName": "SaveButton",
            "fileName": "src/SaveButton.tsx",
            "lineNumber": 14,
            "columnNumber": 3,
        },
        "styles": "color: white;",
    },
    {
        "version": 1,
        "contextId": "ctx_note",
        "kind": "preview-annotation",
        "label": "Make this wider",
        "annotationId": "ann-1",
        "pageUrl": "http://localhost:3000/budget",
        "pageTitle": "Budget",
        "comment": "Make this wider",
        "targetSummary": "1 selected element",
        "styleChanges": ["width: 120px → 200px"],
    },
    {
        "version": 1,
        "contextId": "ctx_pr",
        "kind": "review-comment",
        "label": "#42",
        "sectionId": "pull-request:42",
        "sectionTitle": "Pull request",
        "filePath": "PR #42",
        "startIndex": 0,
        "endIndex": 0,
        "rangeLabel": "line",
        "text": "Please double-check Q3.",
        "diff": "",
        "pullRequest": _PR,
    },
    {
        "version": 1,
        "contextId": "ctx_rev",
        "kind": "review-comment",
        "label": "plan.ts L4",
        "sectionId": "files",
        "sectionTitle": "Files",
        "filePath": "src/plan.ts",
        "startIndex": 3,
        "endIndex": 4,
        "rangeLabel": "+4",
        "text": "Use the Q3 figure here.",
        "diff": "@@ -4 +4 @@\n-const travel = 54500\n+const travel = 48000",
    },
    {
        "version": 1,
        "contextId": "ctx_img",
        "kind": "image",
        "label": "chart.png",
        "attachmentId": "att_img",
        "name": "chart.png",
        "mimeType": "image/png",
        "sizeBytes": 20480,
    },
    {
        "version": 1,
        "contextId": "ctx_file",
        "kind": "file",
        "label": "budget.csv",
        "attachmentId": "att_file",
        "name": "budget.csv",
        "mimeType": "text/csv",
        "sizeBytes": 4096,
    },
    {
        "version": 1,
        "contextId": "ctx_men",
        "kind": "mention",
        "label": "src/plan.ts",
        "path": "src/plan.ts",
    },
    {
        "version": 1,
        "contextId": "ctx_skill",
        "kind": "skill",
        "label": "summarize",
        "name": "summarize",
    },
    {
        "version": 1,
        "contextId": "ctx_thr",
        "kind": "thread",
        "label": "Q2 review",
        "environmentId": "env-1",
        "threadId": "thr_q2",
        "title": "Q2 review",
    },
]

CHIP_TEXT = (
    "Why does [build L12-14](t3-context://v1/terminal/ctx_term) fail? Compare "
    "[<button> Save](t3-context://v1/element/ctx_el) with "
    "[Make this wider](t3-context://v1/preview-annotation/ctx_note), and check "
    "[#42](t3-context://v1/review-comment/ctx_pr) and "
    "[plan.ts L4](t3-context://v1/review-comment/ctx_rev).\n"
    "Data: ![chart.png](t3-context://v1/image/ctx_img) "
    "[budget.csv](t3-context://v1/file/ctx_file) "
    "[src/plan.ts](t3-context://v1/mention/ctx_men) "
    "[summarize](t3-context://v1/skill/ctx_skill) "
    "[Q2 review](t3-context://v1/thread/ctx_thr) "
    "[whiteboard](t3-context://v1/sketch/ctx_sketch) "
    "[old.log](t3-context://v1/file/ctx_gone)"
)

SOURCED_TEXT = (
    "## Q3 travel budget\n\nThe Q3 travel budget is $48,000, down 12% from Q2.\n\n"
    "Finance asked every team to send revised plans by 14 October.\n\n"
    "In general, travel is one of the first lines trimmed when budgets tighten."
)

SOURCES: dict[str, Any] = {
    "version": 1,
    "entries": [
        {
            "id": "src_1",
            "type": "connector-file",
            "sourceLabel": "Google Drive",
            "sourceUsage": "used",
            "availableActions": ["open", "download"],
            "title": "Q3 budget plan.xlsx",
            "snippet": "Travel: 48,000 (Q2: 54,500)",
            "confidence": 0.82,
            "provider": "google",
            "createdAt": "2026-09-02T08:15:00Z",
            "sourceAccountLabel": "alice@example.com",
            "metadata": {"folderPath": "Finance / Planning", "sheet": "Summary"},
            "connectorId": "conn_7f3a9",
            "fileId": "1AbCdEfGhIjKlMnOpQrStUvWxYz0123",
            "webViewLink": "https://docs.example.com/spreadsheets/d/1AbCdEf/edit",
            "toolName": "drive.search",
            "citationTarget": {"blockIndex": 1, "blockType": "paragraph"},
        },
        {
            "id": "src_2",
            "type": "email",
            "sourceLabel": "Gmail",
            "sourceUsage": "used",
            "availableActions": ["open"],
            "title": "Revised plans due 14 October",
            "snippet": "Please send revised team plans by Friday 14 October.",
            "provider": "google",
            "createdAt": "2026-10-03T09:12:00Z",
            "sourceAccountLabel": "alice@example.com",
            "metadata": {
                "from": "Dana Reyes <dana@example.com>",
                "subject": "Revised plans due 14 October",
            },
            "connectorId": "conn_7f3a9",
            "itemLink": "https://mail.example.com/mail/u/0/message/18c2",
            "toolName": "mail.search",
            "readinessHint": "Searched mail from the last 90 days.",
            "citationTarget": {"blockIndex": 2, "blockType": "paragraph"},
        },
        {
            "id": "src_3",
            "type": "item",
            "sourceLabel": "Slack",
            "sourceUsage": "checked",
            "availableActions": ["open"],
            "title": "Budget discussion",
            "provider": "slack",
            "metadata": {"channelName": "#finance", "author": "Dana Reyes"},
            "itemLink": "https://example.slack.com/archives/finance/p1700000000",
            "readinessHint": "Checked the 50 most recent messages in #finance.",
            "recencyHint": "Chat messages change quickly; checked at 14:02.",
        },
        {
            "id": "src_4",
            "type": "external-link",
            "sourceLabel": "Web",
            "sourceUsage": "listed",
            "availableActions": ["open"],
            "title": "Corporate travel trends 2026",
            "webViewLink": "https://www.example.org/travel-trends-2026",
            "recencyHint": "Web pages can change; retrieved 30 Nov 2026.",
        },
    ],
}

METADATA: dict[str, Any] = {
    "groundingMode": "mixed",
    "groundingContributors": ["indexed-documents", "mail", "general-knowledge"],
    "groundingSegments": [
        {
            "blockStart": 0,
            "blockEnd": 2,
            "groundingMode": "source-backed",
            "contributors": ["indexed-documents", "mail"],
        },
        {
            "blockStart": 3,
            "blockEnd": 3,
            "groundingMode": "general-knowledge",
            "contributors": ["general-knowledge"],
        },
    ],
}


def chip_message(message_id: str = "msg_user_1") -> dict[str, Any]:
    """A user message with a chip of every kind (plus an unknown kind and a missing record)."""
    return {
        "messageId": message_id,
        "threadId": THREAD_ID,
        "role": "user",
        "text": CHIP_TEXT,
        "createdAt": "2026-11-30T14:02:05Z",
        "context": {"version": 1, "records": copy.deepcopy(RECORDS)},
    }


def sourced_message(message_id: str = "msg_5f0c2d7e9b1a4c3d8e6f7a9b0c1d2e3f") -> dict[str, Any]:
    """An example sourced assistant message (its shape: docs/sources.md §2)."""
    return {
        "messageId": message_id,
        "threadId": THREAD_ID,
        "role": "assistant",
        "text": SOURCED_TEXT,
        "isStreaming": False,
        "createdAt": "2026-11-30T14:02:11Z",
        "completedAt": "2026-11-30T14:02:19Z",
        "sources": copy.deepcopy(SOURCES),
        "metadata": copy.deepcopy(METADATA),
    }


def long_thread(count: int) -> list[dict[str, Any]]:
    """``count`` messages alternating chip prompts and sourced answers (with some plain ones)."""
    out: list[dict[str, Any]] = []
    for i in range(count):
        if i % 2 == 0:
            message = (
                chip_message(f"msg_u_{i}")
                if i % 4 == 0
                else {
                    "messageId": f"msg_u_{i}",
                    "threadId": THREAD_ID,
                    "role": "user",
                    "createdAt": "2026-11-30T14:02:05Z",
                    "text": f"Question {i}: how did the travel budget change between quarters?",
                }
            )
        else:
            message = (
                sourced_message(f"msg_a_{i}")
                if i % 3 != 2
                else {
                    "messageId": f"msg_a_{i}",
                    "threadId": THREAD_ID,
                    "role": "assistant",
                    "createdAt": "2026-11-30T14:02:11Z",
                    "text": f"Answer {i}.\n\n- one point\n- another point with `code`\n\nDone.",
                }
            )
        out.append(message)
    return out
