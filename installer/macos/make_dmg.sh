#!/usr/bin/env bash
# Wrap "Tandem Director.app" in a disk image a director opens and drags to Applications.
#
#   bash installer/macos/make_dmg.sh "dist/Tandem Director.app" dist/Tandem-Director-0.1.0.dmg
#
# (`python installer/build.py --dmg` builds the .app and then runs this.) macOS only: hdiutil
# makes the image. The app is not signed or notarised here: see installer/README.md for the
# first start ("Open" from the right-click menu) and for signing with a Developer ID.
set -euo pipefail
app=${1:?usage: make_dmg.sh APP.app OUT.dmg}
out=${2:?usage: make_dmg.sh APP.app OUT.dmg}
[ -d "$app/Contents/MacOS" ] || { echo "make_dmg.sh: $app is not an app bundle" >&2; exit 2; }
command -v hdiutil >/dev/null || { echo "make_dmg.sh: hdiutil is macOS only" >&2; exit 2; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# ditto keeps the bundle's symlinks, permissions and extended attributes
ditto "$app" "$stage/$(basename "$app")"
ln -s /Applications "$stage/Applications"
rm -f "$out"
hdiutil create -volname "Tandem Director" -srcfolder "$stage" -fs HFS+ -format UDZO \
  -imagekey zlib-level=9 -ov "$out" >/dev/null
hdiutil verify "$out" >/dev/null
echo "$out"
