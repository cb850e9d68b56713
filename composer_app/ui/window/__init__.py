"""The main window and the parts it owns: ``main_window`` (the composition root), ``actions``
(actions and menus), ``composer_area`` (the composer and its sends), ``transcript_feed`` (the
transcript and Sources of the open thread), ``connection_status`` and ``status_bar`` (the status
bar and the *Unsent messages* dialog), ``pane_focus`` (F6), ``layout`` (the centre page) and
``state`` (``window.ini``); ``main_window_logic`` holds their Qt-free decisions."""
