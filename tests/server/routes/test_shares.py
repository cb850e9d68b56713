"""Read-only share links: the owner creates and revokes them; the page shows no private source
field, snippet, link or action."""

from __future__ import annotations

from pathlib import Path

from composer_app.server.providers.base import Done, ScriptedProvider, Sources
from tests.server.harness import harness, tid, turn_start

PRIVATE_ENTRY = {
    "id": "src_1", "type": "connector-file", "sourceLabel": "Google Drive", "sourceUsage": "used",
    "availableActions": ["open", "download"], "title": "Q3 budget plan.xlsx",
    "snippet": "SNIPPET-Travel: 48,000", "confidence": 0.82, "provider": "google",
    "createdAt": "2026-09-02T08:15:00Z", "sourceAccountLabel": "alice@example.com",
    "metadata": {"folderPath": "FOLDER-Finance / Planning"}, "connectorId": "conn_7f3a9",
    "fileId": "1AbCdEfGhIjKlMnOpQrStUvWxYz0123",
    "webViewLink": "https://docs.example.com/spreadsheets/d/1AbCdEf/edit",
    "toolName": "drive.search", "readinessHint": "Checked the budget folder only.",
    "citationTarget": {"blockIndex": 0, "blockType": "paragraph"},
}
ANSWER = "The Q3 travel budget is $48,000.\n\n<script>alert('x')</script>"


def test_share_page_has_no_private_source_field_snippet_link_or_action(tmp_path: Path):
    provider = ScriptedProvider([Sources(sources={"version": 1, "entries": [PRIVATE_ENTRY]}),
                                 Done(ANSWER)])
    with harness(tmp_path, provider=provider) as h:
        thread = tid()
        h.ok(h.alice, turn_start(thread, "What is the travel budget?", bootstrap=True))
        h.wait_turns()
        created = h.client.post(f"/api/threads/{thread}/shares", headers=h.alice)
        assert created.status_code == 201, created.text
        url = created.json()["url"]
        assert url.startswith("/s/") and len(url) > 40
        page = h.client.get(url)  # no token needed
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "script-src" not in page.headers["content-security-policy"]
        body = page.text
        assert "The Q3 travel budget is $48,000." in body
        assert "Q3 budget plan.xlsx" in body and "Checked the budget folder only." in body
        for private in ("SNIPPET-", "FOLDER-", "alice@example.com", "conn_7f3a9",
                        "1AbCdEfGhIjKlMnOpQrStUvWxYz0123", "docs.example.com", "drive.search",
                        "0.82", "2026-09-02", "/download", "<script>", "<a "):
            assert private not in body, private
        share_id = created.json()["shareId"]
        listed = h.client.get(f"/api/threads/{thread}/shares", headers=h.alice).json()
        assert listed == {"shares": [{"shareId": share_id,
                                      "createdAt": created.json()["createdAt"]}]}
        # nobody else can list, create or revoke; the share token opens no API route
        assert h.client.get(f"/api/threads/{thread}/shares", headers=h.bob).status_code == 404
        assert h.client.post(f"/api/threads/{thread}/shares", headers=h.bob).status_code == 404
        assert h.client.delete(f"/api/threads/{thread}/shares/{share_id}",
                               headers=h.bob).status_code == 404
        token = url.removeprefix("/s/")
        assert h.client.get(f"/api/threads/{thread}",
                            headers={"Authorization": f"Bearer {token}"}).status_code == 401
        revoked = h.client.delete(f"/api/threads/{thread}/shares/{share_id}", headers=h.alice)
        assert revoked.status_code == 204
        assert h.client.get(url).status_code == 404
        assert h.client.get(f"/api/threads/{thread}/shares", headers=h.alice).json() == {
            "shares": []}
        assert h.client.delete(f"/api/threads/{thread}/shares/{share_id}",
                               headers=h.alice).status_code == 404


def test_unknown_share_tokens_are_404(tmp_path: Path):
    with harness(tmp_path) as h:
        assert h.client.get("/s/nope").status_code == 404
        assert h.client.get("/s/" + "x" * 500).status_code == 404
        assert h.client.post(f"/api/threads/{tid()}/shares", headers=h.alice).status_code == 404
