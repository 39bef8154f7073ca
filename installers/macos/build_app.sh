#!/usr/bin/env bash
# Builds Wartable.app and a DMG on macOS 12 or newer with Python 3.11+ (python.org or
# Homebrew). From anywhere:
#
#   installers/macos/build_app.sh
#
#   installers/dist/Wartable.app
#   installers/dist/wartable-<version>-macos-<arch>.dmg   (drag Wartable to Applications)
#
# The .app comes from the same spec as the Linux and Windows bundles
# (installers/pyinstaller/wartable.spec), which adds installers/macos/Info.plist: the
# bundle id, and the document types and UTIs for *.wartable.json and *.wartable.json.gz.
# The app is ad-hoc signed only: it is neither signed with a Developer ID nor notarized,
# so the first start needs right-click -> Open. Not tried: there is no Mac in this project's
# CI; see installers/README.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$ROOT/installers/build"
DIST="$ROOT/installers/dist"
PYTHON="${PYTHON:-python3}"
unset PYTHONPATH PYTHONHOME  # the build venv must see only what it installed
version="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$ROOT/desktop/wartable/__init__.py")"

# A clean copy of the sources, installed (not editable) with PyInstaller in a build venv.
src="$BUILD/src"
rm -rf "$src" && mkdir -p "$src" "$DIST"
(cd "$ROOT" && tar cf - --exclude=__pycache__ --exclude='*.pyc' --exclude='*.egg-info' \
    desktop assets maps setup.py pyproject.toml README.md) | tar xf - -C "$src"
venv="$BUILD/venv-macos"
[ -x "$venv/bin/python" ] || "$PYTHON" -m venv "$venv"
"$venv/bin/pip" install -q 'pyinstaller>=6,<7' "$src"
"$venv/bin/pip" install -q --no-deps --force-reinstall "$src"

(cd "$ROOT" && "$venv/bin/pyinstaller" --noconfirm --clean --distpath "$DIST" \
    --workpath "$BUILD/work-macos" installers/pyinstaller/wartable.spec)
app="$DIST/Wartable.app"
"$app/Contents/MacOS/wartable" --version

codesign --force --deep --sign - "$app"   # ad-hoc; needed on Apple silicon

dmg="$DIST/wartable-$version-macos-$(uname -m).dmg"
stage="$BUILD/dmg"
rm -rf "$stage" && mkdir -p "$stage"
cp -R "$app" "$stage/"
ln -s /Applications "$stage/Applications"
hdiutil create -volname "Wartable $version" -srcfolder "$stage" -ov -format UDZO "$dmg"
rm -rf "$stage"
echo "build_app: $app and $dmg"
