"""Screenshots: grab the screen and pick a region."""
