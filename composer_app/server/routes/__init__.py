"""HTTP routes of the thread server (one router per resource)."""
