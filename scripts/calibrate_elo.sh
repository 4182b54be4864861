#!/usr/bin/env bash
# Calibrates UCI_Elo against Stockfish 15.1's own UCI_Elo (which is calibrated against CCRL 40/4): at each level
# X, Corvid with UCI_LimitStrength and UCI_Elo X plays Stockfish with UCI_Elo X. A calibrated scale scores
# 40-60 % at every level. Run on an idle machine (no datagen, builds or fuzzing beside it).
#
#   scripts/calibrate_elo.sh [--levels "1500 2000 2500"] [--games 40] [--tc 5+0.05] [--engine PATH]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
levels="1500 2000 2500"
games=40
tc="5+0.05"
engine="$root/target/release/corvid"
stockfish="$(command -v stockfish || echo /usr/games/stockfish)"
while [ $# -gt 0 ]; do
    case "$1" in
        --levels) levels="$2"; shift 2 ;;
        --games) games="$2"; shift 2 ;;
        --tc) tc="$2"; shift 2 ;;
        --engine) engine="$2"; shift 2 ;;
        --stockfish) stockfish="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
[ -x "$engine" ] || (cd "$root" && cargo build --release)
[ -x "$stockfish" ] || { echo "stockfish not found: apt-get install stockfish" >&2; exit 2; }
python3 -c "import chess" 2>/dev/null || { echo "python-chess missing: pip install chess" >&2; exit 2; }
printf '%-6s %s\n' level result
for x in $levels; do
    out=$(python3 "$root/../shared/tools/match.py" -a "$engine" -b "$stockfish" \
        --opt-a UCI_LimitStrength=true --opt-a UCI_Elo="$x" \
        --opt-b UCI_LimitStrength=true --opt-b UCI_Elo="$x" --opt-b Threads=1 --opt-b Hash=16 \
        --tc "$tc" --games "$games" --openings "$root/../shared/tools/openings.epd" --concurrency 2 \
        --pgn "/tmp/corvid-elo-$x.pgn" 2>&1)
    # match.py's summary: the W/D/L and score lines.
    printf '%-6s %s\n' "$x" "$(echo "$out" | grep -E '^A: W|^Elo \(trinomial\)' | tr '\n' ' ')"
done
