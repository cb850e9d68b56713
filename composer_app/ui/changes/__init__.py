"""The Changes pane: the workspace's changed files and hunks, with line comments."""
