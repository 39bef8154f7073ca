#!/bin/sh
# Installs this unpacked Wartable release for you (no root needed), or for everyone with
# `sudo ./install.sh --system`:
#
#   ./install.sh [--system] [--uninstall]
#
# Copies the program to ~/.local/opt/wartable (/opt/wartable with --system), links
# ~/.local/bin/wartable (/usr/local/bin), and installs the menu entry, the icons, the
# AppStream data and the file type for Wartable saves (*.wartable.json, *.wartable.json.gz)
# under ~/.local/share (/usr/local/share). Running it again updates the installation.
set -eu

here="$(cd "$(dirname "$0")" && pwd)"
prefix="${XDG_DATA_HOME:-$HOME/.local/share}"
opt="$HOME/.local/opt/wartable"
bin="$HOME/.local/bin"
uninstall=0
for arg in "$@"; do
  case "$arg" in
    --system) prefix=/usr/local/share; opt=/opt/wartable; bin=/usr/local/bin ;;
    --uninstall) uninstall=1 ;;
    *) echo "usage: $0 [--system] [--uninstall]" >&2; exit 2 ;;
  esac
done

refresh() {  # the desktop's caches; a missing tool or a failed refresh is not fatal
  if command -v update-mime-database >/dev/null 2>&1; then
    update-mime-database "$prefix/mime" || true
  fi
  if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$prefix/applications" || true
  fi
  if command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache -q -t "$prefix/icons/hicolor" 2>/dev/null || true
  fi
}

if [ "$uninstall" = 1 ]; then
  rm -rf "$opt"
  rm -f "$bin/wartable" "$prefix/applications/wartable.desktop" \
        "$prefix/metainfo/io.github.wartable.Wartable.metainfo.xml" \
        "$prefix/mime/packages/wartable.xml"
  find "$prefix/icons/hicolor" \( -name wartable.png -o -name application-x-wartable-save.png \) \
    -delete 2>/dev/null || true
  refresh
  echo "Wartable removed."
  exit 0
fi

mkdir -p "$opt" "$bin"
rm -rf "$opt/_internal"
cp -a "$here/wartable" "$here/_internal" "$opt/"
ln -sf "$opt/wartable" "$bin/wartable"
(cd "$here/share" && find . -type f) | while read -r f; do
  mkdir -p "$prefix/$(dirname "$f")"
  cp "$here/share/$f" "$prefix/$f"
done
# The menu entry runs the installed program by its full path (~/.local/bin may not be
# on a desktop session's PATH).
sed -i "s|^Exec=wartable|Exec=$opt/wartable|; s|^TryExec=wartable|TryExec=$opt/wartable|" \
  "$prefix/applications/wartable.desktop"
refresh
echo "Wartable installed: $bin/wartable, and in your applications menu."
