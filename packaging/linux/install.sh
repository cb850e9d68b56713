#!/usr/bin/env bash
# Install Composer for the current user, without root.
#   packaging/linux/install.sh [BUNDLE]
# BUNDLE is the PyInstaller one-folder output (default: dist/composer-app, made by packaging/build).
# Copies it to ~/.local/lib/composer-app, links ~/.local/bin/composer-app, and installs the desktop
# entry, icons and metainfo under $XDG_DATA_HOME (default ~/.local/share). Running it again upgrades.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
APP_ID="io.github.composerapp.Composer"
BUNDLE="${1:-$ROOT/dist/composer-app}"
LIB="$HOME/.local/lib/composer-app"
BIN="$HOME/.local/bin"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"

if [ ! -x "$BUNDLE/composer-app" ]; then
    echo "No bundle at $BUNDLE: run packaging/build first, or pass the bundle folder." >&2
    exit 1
fi
BUNDLE="$(cd "$BUNDLE" && pwd)"

# The program: replace the previous copy only once the new one is complete.
mkdir -p "$(dirname "$LIB")" "$BIN"
rm -rf "$LIB.new"
cp -a "$BUNDLE" "$LIB.new"
rm -rf "$LIB"
mv "$LIB.new" "$LIB"
ln -sfn "$LIB/composer-app" "$BIN/composer-app"

# The desktop entry starts the linked program by its full path: ~/.local/bin is not always on the
# PATH of a graphical session.
mkdir -p "$DATA/applications"
exec_path="$BIN/composer-app"
case "$exec_path" in
    *[\"\`\$\\]*) exec_line="Exec=composer-app %U" ;;
    *) exec_line="Exec=\"$exec_path\" %U" ;;
esac
sed "s|^Exec=.*|$exec_line|" "$HERE/$APP_ID.desktop" > "$DATA/applications/$APP_ID.desktop"
chmod 0644 "$DATA/applications/$APP_ID.desktop"

# Icons: the bundle carries them; a checkout has them under resources/.
ICONS="$LIB/_internal/resources/icons/hicolor"
[ -d "$ICONS" ] || ICONS="$ROOT/resources/icons/hicolor"
for icon in "$ICONS"/*/apps/"$APP_ID".*; do
    size="$(basename "$(dirname "$(dirname "$icon")")")"
    install -D -m 0644 "$icon" "$DATA/icons/hicolor/$size/apps/$(basename "$icon")"
done
install -D -m 0644 "$HERE/$APP_ID.metainfo.xml" "$DATA/metainfo/$APP_ID.metainfo.xml"

if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$DATA/applications" || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$DATA/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t -f "$DATA/icons/hicolor" || true
fi

echo "Composer installed: $LIB"
case ":$PATH:" in
    *":$BIN:"*) ;;
    *) echo "Add $BIN to your PATH to start it as 'composer-app' from a terminal." ;;
esac
