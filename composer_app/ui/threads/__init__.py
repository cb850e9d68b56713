"""Threads in the window: ``thread_list`` (the pane and its search), ``thread_list_model``,
``navigation`` (the open thread and the thread commands), ``quick_switcher`` (Ctrl+K);
``navigation_logic`` and ``quick_switcher_logic`` hold their Qt-free decisions."""
