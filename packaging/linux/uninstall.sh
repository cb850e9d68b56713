#!/usr/bin/env bash
# Remove what packaging/linux/install.sh installed for the current user.
# Threads, settings and stored tokens stay where the app keeps them (its data and config
# directories and the system keyring).
set -euo pipefail
APP_ID="io.github.composerapp.Composer"
LIB="$HOME/.local/lib/composer-app"
BIN="$HOME/.local/bin"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"

if [ -L "$BIN/composer-app" ]; then
    rm -f "$BIN/composer-app"
fi
rm -rf "$LIB" "$LIB.new"
rm -f "$DATA/applications/$APP_ID.desktop" "$DATA/metainfo/$APP_ID.metainfo.xml"
rm -f "$DATA"/icons/hicolor/*/apps/"$APP_ID".png "$DATA"/icons/hicolor/*/apps/"$APP_ID".svg

if command -v update-desktop-database >/dev/null 2>&1 && [ -d "$DATA/applications" ]; then
    update-desktop-database -q "$DATA/applications" || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$DATA/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t -f "$DATA/icons/hicolor" || true
fi
echo "Composer removed."
