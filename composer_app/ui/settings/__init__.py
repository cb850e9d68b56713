"""Settings: ``settings_logic`` (what they are, where they live, how the command line overrides
them; Qt-free) and ``dialog`` (the Settings dialog, the theme, applying what the user saved)."""
