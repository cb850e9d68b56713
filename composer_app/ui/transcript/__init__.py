"""The transcript: messages with chips, sourced answers, and the Sources panel."""
