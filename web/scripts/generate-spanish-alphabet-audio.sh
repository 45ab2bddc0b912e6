#!/usr/bin/env bash
# Regenerates the Spanish alphabet recordings served at /sounds/spanish/{letter in lowercase}.mp3.
# Needs espeak-ng (Spanish voice "es", Castilian) and lame:  apt-get install -y espeak-ng lame
# Usage: web/scripts/generate-spanish-alphabet-audio.sh [output-dir]
# The files are checked in; run this only to change the voice or the spoken names. Output is deterministic
# for a given espeak-ng/lame version, so re-running without changes leaves git clean.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out_dir="${1:-"$script_dir/../public/sounds/spanish"}"
voice="${SPANISH_VOICE:-es}"
# Slower than espeak's default 175 wpm so learners hear each sound clearly.
speed="${SPANISH_SPEED:-125}"

for tool in espeak-ng lame; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: $tool is not installed (apt-get install -y espeak-ng lame)" >&2
    exit 1
  fi
done

# file stem (the letter lowercased, NFC) | text spoken: the letter's Spanish name.
# Keep in step with web/src/features/tools/spanish-alphabet/spanish-letters.ts (a test checks every file exists).
letters=(
  "a|a" "b|be" "c|ce" "ch|che" "d|de" "e|e" "f|efe" "g|ge" "h|hache" "i|i"
  "j|jota" "k|ka" "l|ele" "ll|elle" "m|eme" "n|ene" "ñ|eñe" "o|o" "p|pe" "q|cu"
  "r|ere" "rr|erre" "s|ese" "t|te" "u|u" "v|uve" "w|uve doble" "x|equis" "y|ye" "z|zeta"
)

mkdir -p "$out_dir"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

for entry in "${letters[@]}"; do
  stem="${entry%%|*}"
  spoken="${entry#*|}"
  wav="$work/letter.wav"
  espeak-ng -v "$voice" -s "$speed" -w "$wav" -- "$spoken"
  # Mono, 22.05 kHz, 32 kbit/s CBR: speech stays clear and each file stays a few KB.
  lame --quiet --noreplaygain -m m -b 32 --resample 22.05 "$wav" "$out_dir/$stem.mp3"
  echo "wrote $out_dir/$stem.mp3 ($spoken)"
done
