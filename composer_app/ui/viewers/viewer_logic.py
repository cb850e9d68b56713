"""Rules of the viewers (Qt-free): zoom steps, the external editor command, review diffs.

Invariants:
* Zoom stays within ``ZOOM_STEPS[0]..ZOOM_STEPS[-1]``; stepping from any factor lands on the next
  step in that direction.
* ``editor_argv`` never goes through a shell: the template is split like a shell would
  (``shlex``), then ``{path}`` and ``{line}`` are replaced inside each argument, so a path with
  spaces or quotes stays one argument and cannot inject commands. A template without ``{path}``
  gets the path appended.
* ``parse_review_diff`` numbers the lines of unified-diff hunks from their headers; text that is
  not a hunk is shown unnumbered (never an error).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

ZOOM_STEPS = (0.1, 0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 3.0, 4.0,
              6.0, 8.0)
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@.*")


def zoom_step(current: float, direction: int) -> float:
    """The next zoom factor from ``current`` (``direction`` > 0 in, < 0 out)."""
    if direction > 0:
        return next((s for s in ZOOM_STEPS if s > current + 1e-9), ZOOM_STEPS[-1])
    return next((s for s in reversed(ZOOM_STEPS) if s < current - 1e-9), ZOOM_STEPS[0])


def fit_factor(image_w: int, image_h: int, view_w: int, view_h: int) -> float:
    """The factor that fits the image in the view without enlarging it past 100 %."""
    if image_w <= 0 or image_h <= 0 or view_w <= 0 or view_h <= 0:
        return 1.0
    return max(min(view_w / image_w, view_h / image_h, 1.0), ZOOM_STEPS[0])


def editor_argv(template: str, path: str, line: int | None) -> list[str] | None:
    """The command line that opens ``path`` at ``line`` with the user's editor template
    (``code -g {path}:{line}``), or None when the template is empty or unparsable."""
    try:
        parts = shlex.split(template)
    except ValueError:
        return None
    if not parts:
        return None
    number = str(line if line is not None and line > 0 else 1)
    argv = [part.replace("{path}", path).replace("{line}", number) for part in parts]
    if not any("{path}" in part for part in parts):
        argv.append(path)
    return argv


@dataclass(frozen=True)
class ReviewDiffLine:
    """One line of a review comment's diff: ``kind`` is ``@`` for a hunk header, ``+``, ``-``,
    `` `` (context) or ``?`` (not part of a hunk)."""

    kind: str
    text: str
    old_line: int | None = None
    new_line: int | None = None


def parse_review_diff(diff: str) -> list[ReviewDiffLine]:
    """The lines of ``diff`` with their old/new numbers."""
    lines: list[ReviewDiffLine] = []
    old: int | None = None
    new: int | None = None
    for raw in diff.split("\n"):
        header = _HUNK.fullmatch(raw)
        if header is not None:
            old, new = int(header.group(1)), int(header.group(3))
            lines.append(ReviewDiffLine("@", raw))
        elif old is not None and new is not None and raw[:1] in ("+", "-", " "):
            kind, text = raw[0], raw[1:]
            if kind == "+":
                lines.append(ReviewDiffLine(kind, text, None, new))
                new += 1
            elif kind == "-":
                lines.append(ReviewDiffLine(kind, text, old, None))
                old += 1
            else:
                lines.append(ReviewDiffLine(kind, text, old, new))
                old += 1
                new += 1
        else:
            lines.append(ReviewDiffLine("?", raw))
    return lines


def is_commented(line: ReviewDiffLine, start: int, end: int, *, before: bool = False) -> bool:
    """True when ``line`` lies in the commented range (new-file lines; old lines when the range
    is "before", i.e. a deleted file)."""
    number = line.old_line if before else line.new_line
    return number is not None and start <= number <= end
