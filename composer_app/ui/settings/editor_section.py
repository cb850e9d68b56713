"""*Settings ▸ Editor*: the command that opens a file in the user's editor.

The command is a template with ``{path}`` and ``{line}`` (``code -g {path}:{line}``,
``gvim +{line} {path}``); empty means the desktop's default application. It is split like a shell
would but never run through one (``viewer_logic.editor_argv``); ``settings_logic.validate`` refuses
one that cannot be split. Invariant: ``command()`` is the trimmed text.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QLineEdit, QVBoxLayout, QWidget

COMMAND_OBJECT_NAME = "editorCommand"


class EditorSection(QGroupBox):
    """The *Editor* group of the settings dialog."""

    def __init__(self, command: str, parent: QWidget | None = None) -> None:
        super().__init__("Editor", parent)
        self.setObjectName("editorSection")
        self.editor_command = QLineEdit(command, self)
        self.editor_command.setObjectName(COMMAND_OBJECT_NAME)
        self.editor_command.setAccessibleName("Editor command")
        self.editor_command.setPlaceholderText("e.g. code -g {path}:{line}")
        form = QFormLayout()
        form.addRow("Open files with", self.editor_command)
        hint = QLabel("{path} and {line} are filled in; empty opens files with the desktop's "
                      "default application.", self)
        hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(hint)

    def command(self) -> str:
        return self.editor_command.text().strip()
