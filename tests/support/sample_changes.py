"""A changes answer in the shape the workspace changes route returns."""

from __future__ import annotations

from typing import Any


def line(kind: str, text: str, old: int | None, new: int | None) -> dict[str, Any]:
    return {"kind": kind, "text": text, "oldLine": old, "newLine": new}


def sample() -> dict[str, Any]:
    return {
        "revision": "0123456789abcdef0123456789abcdef01234567",
        "files": [
            {
                "path": "src/app.py",
                "status": "modified",
                "hunks": [
                    {
                        "header": "@@ -10,4 +10,5 @@ def main():",
                        "oldStart": 10, "oldLines": 4, "newStart": 10, "newLines": 5,
                        "lines": [
                            line(" ", "    start()", 10, 10),
                            line("-", "    run(1)", 11, None),
                            line("+", "    run(2)", None, 11),
                            line("+", '    log("ok")', None, 12),
                            line(" ", "    stop()", 12, 13),
                        ],
                    },
                    {
                        "header": "@@ -40,2 +41,2 @@",
                        "oldStart": 40, "oldLines": 2, "newStart": 41, "newLines": 2,
                        "lines": [
                            line("-", "x = 1", 40, None),
                            line("+", "x = 2", None, 41),
                            line(" ", "y = 3", 41, 42),
                        ],
                    },
                ],
            },
            {
                "path": "docs/new.md",
                "oldPath": "docs/old.md",
                "status": "renamed",
                "hunks": [
                    {
                        "header": "@@ -1 +1 @@",
                        "oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1,
                        "lines": [line("-", "# Old", 1, None), line("+", "# New", None, 1)],
                    }
                ],
            },
            {
                "path": "gone.txt",
                "status": "deleted",
                "hunks": [
                    {
                        "header": "@@ -1,2 +0,0 @@",
                        "oldStart": 1, "oldLines": 2, "newStart": 0, "newLines": 0,
                        "lines": [line("-", "a", 1, None), line("-", "b", 2, None)],
                    }
                ],
            },
        ],
    }
