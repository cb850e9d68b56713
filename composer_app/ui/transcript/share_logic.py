"""What the *Share thread* dialog shows, without Qt: the active links, the link just created and
the last error.

Invariants: a created link's URL is shown only until the dialog closes (the server keeps no
token, so it cannot be shown again); revoking removes the link from the list at once and clears
the shown URL when it was that link; texts are plain sentences, never raw ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from composer_app.sync.shares import ShareLink
from composer_app.ui.transcript.sources_logic import format_date

EXPLANATION = ("Anyone with the link can read this thread, without signing in. Its sources show "
               "titles only: no passages, links, accounts or downloads.")
NO_LINKS = "This thread has no share links."
COPY_ONCE = "Copy the link now: for your security it is not shown again."


@dataclass
class ShareState:
    """The dialog's state for one thread."""

    links: list[ShareLink] = field(default_factory=list)
    created_url: str | None = None
    created_id: str | None = None
    error: str = ""
    busy: bool = False

    def loaded(self, links: list[ShareLink]) -> None:
        self.links, self.error, self.busy = list(links), "", False

    def created(self, link: ShareLink) -> None:
        self.links = [*self.links, ShareLink(link.share_id, link.created_at)]
        self.created_url, self.created_id = link.url, link.share_id
        self.error, self.busy = "", False

    def revoked(self, share_id: str) -> None:
        self.links = [link for link in self.links if link.share_id != share_id]
        if self.created_id == share_id:
            self.created_url = self.created_id = None
        self.error, self.busy = "", False

    def failed(self, reason: str) -> None:
        self.error, self.busy = reason, False

    def hint(self) -> str:
        """The line under the link field."""
        if self.error:
            return self.error
        if self.created_url:
            return COPY_ONCE
        return "" if self.links else NO_LINKS


def link_label(link: ShareLink) -> str:
    """A list row: ``Link created 1 Dec 2026``."""
    return f"Link created {format_date(link.created_at)}" if link.created_at else "Link"
