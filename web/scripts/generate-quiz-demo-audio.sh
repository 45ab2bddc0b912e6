#!/usr/bin/env bash
# Regenerates the recordings of the demo audio quiz, served at /sounds/quiz/{stem}.mp3.
# Needs espeak-ng (Spanish voice "es", Castilian) and lame:  apt-get install -y espeak-ng lame
# Usage: web/scripts/generate-quiz-demo-audio.sh [output-dir]
# The files are checked in; run this only to change the phrases (keep services/assessment/src/seed/demo-quizzes.ts
# in step). Output is deterministic for a given espeak-ng/lame version.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out_dir="${1:-"$script_dir/../public/sounds/quiz"}"
voice="${SPANISH_VOICE:-es}"
speed="${SPANISH_SPEED:-120}"

for tool in espeak-ng lame; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "error: $tool is not installed (apt-get install -y espeak-ng lame)" >&2
    exit 1
  fi
done

# file stem | the phrase spoken
phrases=("hola|Hola" "gracias|Gracias" "buenos-dias|Buenos días" "como-estas|¿Cómo estás?" "hasta-manana|Hasta mañana")

mkdir -p "$out_dir"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for entry in "${phrases[@]}"; do
  stem="${entry%%|*}"
  spoken="${entry#*|}"
  espeak-ng -v "$voice" -s "$speed" -w "$work/phrase.wav" -- "$spoken"
  lame --quiet --noreplaygain -m m -b 32 --resample 22.05 "$work/phrase.wav" "$out_dir/$stem.mp3"
  echo "wrote $out_dir/$stem.mp3 ($spoken)"
done
