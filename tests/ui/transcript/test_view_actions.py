"""Hover cards of inline citation tokens."""

from __future__ import annotations

from composer_app.ui.transcript.samples import sourced_message
from composer_app.ui.transcript.transcript_logic import message_from_wire
from composer_app.ui.transcript.view_actions import token_card


def test_token_card_shows_the_snippet_as_clean_text_under_its_heading_path() -> None:
    wire = sourced_message()
    wire["sources"]["entries"][0]["snippet"] = "# Budget\n## Travel\nTravel is **48,000**\nin Q3."
    message = message_from_wire(wire)
    card = token_card(message, "src_1", public=False).split("\n")
    assert card[-2:] == ["Budget › Travel", "Travel is 48,000 in Q3."]
    assert "#" not in "".join(card) and "**" not in "".join(card)
    public = token_card(message, "src_1", public=True)
    assert "Travel is" not in public and "Budget › Travel" not in public
