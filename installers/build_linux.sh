#!/usr/bin/env bash
# Builds Wartable for Linux on a fresh Debian/Ubuntu machine, from the repository root or
# anywhere else:
#
#   installers/build_linux.sh [--force] [--no-deps]
#
#   installers/dist/wartable/                              the one-folder bundle (run ./wartable)
#   installers/dist/wartable-<version>-linux-<arch>.tar.gz the same plus desktop integration
#                                                          and install.sh, for releases
#
# Steps: the Debian packages Qt needs (installers/linux/install-deps.sh; --no-deps skips
# it), a build venv in installers/build/venv with a regular install of a clean copy of the
# sources plus PyInstaller, the PyInstaller build (installers/pyinstaller/wartable.spec),
# a smoke run of `wartable --version`, then the tarball. A build whose sources did not
# change since the last one is reused (installers/build/bundle.hash); --force rebuilds.
#
# No AppImage: the AppImage runtime and appimagetool are neither in Debian nor on PyPI
# (the PyPI AppImage helpers download them from GitHub), so releases ship the tarball.
#
# Environment: PYTHON (default python3, 3.11 or newer) makes the build venv.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
INST="$ROOT/installers"
BUILD="$INST/build"
DIST="$INST/dist"
PYTHON="${PYTHON:-python3}"
unset PYTHONPATH PYTHONHOME  # the build venv must see only what it installed
force=0
deps=1
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    --no-deps) deps=0 ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "build_linux: unknown option $arg (try --help)" >&2; exit 2 ;;
  esac
done

version="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' "$ROOT/desktop/wartable/__init__.py")"
[ -n "$version" ] || { echo "build_linux: no __version__ in desktop/wartable/__init__.py" >&2; exit 1; }
arch="$(uname -m)"
tarball="$DIST/wartable-$version-linux-$arch.tar.gz"
bundle="$DIST/wartable"

# Everything that goes into the bundle, hashed: same hash, same bundle.
sources_hash() {
  (cd "$ROOT" && find desktop assets maps installers/pyinstaller installers/linux \
      installers/build_linux.sh setup.py pyproject.toml README.md -type f \
      -not -path '*/__pycache__/*' -not -name '*.pyc' -not -name '*.egg-info' -print0 \
    | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}
hash="$(sources_hash)"
if [ "$force" = 0 ] && [ -x "$bundle/wartable" ] && [ -f "$tarball" ] \
    && [ "$(cat "$BUILD/bundle.hash" 2>/dev/null)" = "$hash" ]; then
  echo "build_linux: $bundle is up to date (sources hash ${hash:0:12}); --force rebuilds"
  exit 0
fi

start=$(date +%s)
if [ "$deps" = 1 ]; then
  "$INST/linux/install-deps.sh"
fi
mkdir -p "$BUILD" "$DIST"
rm -f "$BUILD/bundle.hash"

# A clean copy of the sources, so that pip builds from exactly the checkout's files (an
# in-tree build could pick up stale files from an old build/ folder).
src="$BUILD/src"
rm -rf "$src"
mkdir -p "$src"
(cd "$ROOT" && tar cf - --exclude=__pycache__ --exclude='*.pyc' --exclude='*.egg-info' \
    desktop assets maps setup.py pyproject.toml README.md) | tar xf - -C "$src"

venv="$BUILD/venv"
if [ ! -x "$venv/bin/python" ]; then
  "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || { echo "build_linux: $PYTHON is older than 3.11" >&2; exit 1; }
  "$PYTHON" -m venv "$venv"
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
"$venv/bin/pip" install -q 'pyinstaller>=6,<7' "$src"
"$venv/bin/pip" install -q --no-deps --force-reinstall "$src"   # this checkout's code, always

echo "build_linux: PyInstaller (log in installers/build/pyinstaller.log)"
t0=$(date +%s)
(cd "$ROOT" && "$venv/bin/pyinstaller" --noconfirm --clean --log-level WARN \
    --distpath "$DIST" --workpath "$BUILD/work" "$INST/pyinstaller/wartable.spec") \
    >"$BUILD/pyinstaller.log" 2>&1 || { tail -40 "$BUILD/pyinstaller.log" >&2; exit 1; }
t1=$(date +%s)

got="$(QT_QPA_PLATFORM=offscreen "$bundle/wartable" --version)"
[ "$got" = "wartable $version" ] || { echo "build_linux: bundle says '$got'" >&2; exit 1; }

# The release tarball: the bundle, the desktop integration files, install.sh.
stage="$BUILD/tar/wartable-$version"
rm -rf "$BUILD/tar"
mkdir -p "$stage/share/applications" "$stage/share/metainfo" "$stage/share/mime/packages"
cp -a "$bundle/." "$stage/"
cp "$ROOT/assets/wartable.desktop" "$stage/share/applications/"
cp "$ROOT/assets/io.github.wartable.Wartable.metainfo.xml" "$stage/share/metainfo/"
cp "$ROOT/assets/wartable-mime.xml" "$stage/share/mime/packages/wartable.xml"
for png in "$ROOT"/assets/icons/wartable-*.png; do
  n="$(basename "$png" .png)"; n="${n#wartable-}"
  for kind in apps/wartable mimetypes/application-x-wartable-save; do
    mkdir -p "$stage/share/icons/hicolor/${n}x${n}/$(dirname "$kind")"
    cp "$png" "$stage/share/icons/hicolor/${n}x${n}/$kind.png"
  done
done
cp "$INST/linux/install.sh" "$stage/install.sh"
cp "$INST/CHANGELOG.md" "$stage/CHANGELOG.md"
tar -C "$BUILD/tar" --sort=name --owner=0 --group=0 --numeric-owner \
    -czf "$tarball" "wartable-$version"
rm -rf "$BUILD/tar"

echo "$hash" > "$BUILD/bundle.hash"
end=$(date +%s)
echo "build_linux: built $bundle ($(du -sh "$bundle" | cut -f1)) and" \
     "$tarball ($(du -h "$tarball" | cut -f1)); PyInstaller $((t1 - t0)) s, total $((end - start)) s"
