#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Qt needs to run Wartable (and its tests) on a
# bare machine: EGL/GL, xkbcommon, fontconfig and fonts, D-Bus, the xcb plugins for a
# real X display, Xvfb for headless runs, poppler-utils to look at printed PDFs.
# Uses sudo only when not already root. Safe to run again.
set -euo pipefail

packages=(
  libegl1 libgl1 libopengl0 libglib2.0-0 libdbus-1-3 libfontconfig1 libfreetype6
  libxkbcommon0 libxkbcommon-x11-0 libx11-xcb1 libxcb-cursor0 libxcb-icccm4
  libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0
  libxcb-xinerama0 libxcb-xkb1 libxrender1 libxi6
  fonts-dejavu-core xvfb xauth poppler-utils desktop-file-utils binutils
)
# python3 -m venv needs Debian's python3-venv when python3 is the system one.
if ! python3 -c "import ensurepip" >/dev/null 2>&1; then
  packages+=(python3-venv)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages are present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
