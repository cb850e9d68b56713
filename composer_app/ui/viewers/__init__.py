"""Viewers a chip opens: images, text files, review-comment hunks."""
