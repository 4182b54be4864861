#!/usr/bin/env bash
# SPRT of a new Corvid build against an old one (default H0: 0 Elo, H1: +5 Elo, alpha = beta = 0.05, 8+0.08),
# through scripts/match.sh and whichever runner it finds (fastchess, cutechess-cli, ../shared/tools/match.py).
#
#   cp target/release/corvid /tmp/corvid-old   # before the change
#   cargo build --release && scripts/sprt.sh target/release/corvid /tmp/corvid-old
#   scripts/sprt.sh NEW OLD --elo0 -5 --elo1 0 --tc 4+0.04    # a non-regression test for a simplification
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -lt 2 ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
    echo "usage: scripts/sprt.sh NEW OLD [--elo0 E0] [--elo1 E1] [--tc 8+0.08] [--games MAX] [match.sh options...]" >&2
    exit 2
fi
new="$1" old="$2"; shift 2
elo0=0 elo1=5 tc="8+0.08" games=20000
rest=()
while [ $# -gt 0 ]; do
    case "$1" in
        --elo0) elo0="${2:?}"; shift 2 ;;
        --elo1) elo1="${2:?}"; shift 2 ;;
        --tc) tc="${2:?}"; shift 2 ;;
        --games) games="${2:?}"; shift 2 ;;
        *) rest+=("$1"); shift ;;
    esac
done
exec "$root/scripts/match.sh" -a "$new" -b "$old" --tc "$tc" --games "$games" --sprt "$elo0" "$elo1" "${rest[@]}"
