#!/bin/sh
# Makes docs/desktop-client.png: runs the desktop client (samples/target/svc-chat-desktop.jar) with
# --screenshot, headless: it plays its scripted conversation with a store in a temporary directory, stops the
# embedded server, starts again from the store alone (the offline start) and paints its window offscreen into
# the PNG. No display is needed. Installs the fonts it needs from Debian packages when they are missing (as root,
# or with sudo). Builds the jar first when it is not there. Run from anywhere: docs/screenshot.sh [output.png]
set -eu
cd "$(dirname "$0")/.."
out="${1:-docs/desktop-client.png}"

missing=""
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

java -Djava.awt.headless=true -Dawt.useSystemAAFontSettings=lcd -jar samples/target/svc-chat-desktop.jar \
  --screenshot "$out"
ls -l "$out"
