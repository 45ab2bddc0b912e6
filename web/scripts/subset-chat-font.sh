#!/usr/bin/env bash
# Regenerates web/public/fonts/NotoSans-Regular-Latin.ttf, the font the chat's PDF export embeds so that accented
# Spanish (á é í ó ú ñ ü ¿ ¡) is real, searchable text. Noto Sans Regular (SIL Open Font License 1.1, no Reserved
# Font Name, licence in web/public/fonts/OFL.txt) from the npm package @expo-google-fonts/noto-sans, cut down to
# Basic Latin, Latin-1, Latin Extended-A and common punctuation (26 KB instead of 630 KB).
# Needs pyftsubset:  apt-get install -y fonttools
# Usage: web/scripts/subset-chat-font.sh [output-file]
# The file is checked in; run this only to change the character set. Keep the code points in step with
# `drawable()` in web/src/features/chat/pdf/chat-pdf.ts.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out_file="${1:-"$script_dir/../public/fonts/NotoSans-Regular-Latin.ttf"}"
package="@expo-google-fonts/noto-sans@0.4.2"

if ! command -v pyftsubset >/dev/null 2>&1; then
  echo "error: pyftsubset is not installed (apt-get install -y fonttools)" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$package" >/dev/null && tar xzf ./*.tgz)

pyftsubset "$work/package/400Regular/NotoSans_400Regular.ttf" \
  --unicodes="U+0020-007E,U+00A0-00FF,U+0100-017F,U+2013-2014,U+2018-201A,U+201C-201E,U+2022,U+2026,U+2039-203A,U+20AC,U+2122,U+FFFD" \
  --layout-features='' --no-hinting --desubroutinize --name-IDs='*' --name-legacy --name-languages='*' \
  --glyph-names --notdef-outline --output-file="$out_file"
cp "$work/package/LICENSE_FONT" "$(dirname "$out_file")/OFL.txt"
echo "wrote $out_file ($(wc -c <"$out_file") bytes)"
