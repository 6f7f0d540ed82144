#!/bin/sh
# Makes docs/desktop-client.png: runs the desktop client (samples/target/svc-chat-desktop.jar) under a virtual
# X server (Xvfb) with its scripted conversation, and has it write its window as a PNG once the conversation is
# on screen. Installs Xvfb and the fonts it needs from Debian packages when they are missing (as root, or with
# sudo). Builds the jar first when it is not there. Run from anywhere: docs/screenshot.sh [output.png]
set -eu
cd "$(dirname "$0")/.."
out="${1:-docs/desktop-client.png}"

missing=""
command -v xvfb-run >/dev/null 2>&1 || missing="$missing xvfb xauth"
# DejaVu for the text, Symbola for the emoji (Java cannot draw colour emoji fonts)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing="$missing fonts-dejavu-core"
fc-list 2>/dev/null | grep -qi symbola || missing="$missing fonts-symbola"
if [ -n "$missing" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing:$missing"
  $sudo apt-get install -y --no-install-recommends $missing >/dev/null
fi

[ -f samples/target/svc-chat-desktop.jar ] || mvn -q -DskipTests package

# -a: the first free display number; 24-bit colour, larger than the window
xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" \
  java -Dawt.useSystemAAFontSettings=lcd -jar samples/target/svc-chat-desktop.jar --screenshot "$out"
ls -l "$out"
