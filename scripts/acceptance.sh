#!/usr/bin/env bash
# The strength gauntlet of issue 21: a build against each named opponent at 10 s + 0.1 s, Threads 1, Hash 16,
# on two opening sets, each opening with both colours, through scripts/match.sh. Run it on an idle machine
# (pause datagen: pkill -STOP -f corvid-datagen). Logs and PGNs go to --out.
#
#   scripts/acceptance.sh --engine target/release/corvid --book /tmp/books/8moves_v3.epd fsf eth
#   scripts/acceptance.sh --engine ./corvid-new --old ./corvid-171070b old      # 100 games a set
#
# Opponents: fsf (fairy-stockfish, 50 games a set), eth (ethereal-chess, 50), sf (stockfish, 20),
# old (--old, 100). The figure per opponent is the sum of its two sets; fastchess prints each set's
# W/D/L and pentanomial counts.
set -u
root="$(cd "$(dirname "$0")/.." && pwd)"
engine="$root/target/release/corvid" old="" out="/tmp/corvid-acceptance" tc="10+0.1"
book="/tmp/books/8moves_v3.epd" ours="$root/../shared/tools/openings.epd"
who=()
while [ $# -gt 0 ]; do
    case "$1" in
        --engine) engine="${2:?}"; shift 2 ;;
        --old) old="${2:?}"; shift 2 ;;
        --book) book="${2:?}"; shift 2 ;;
        --openings) ours="${2:?}"; shift 2 ;;
        --out) out="${2:?}"; shift 2 ;;
        --tc) tc="${2:?}"; shift 2 ;;
        -h|--help) sed -n 2,11p "$0"; exit 0 ;;
        fsf|eth|sf|old) who+=("$1"); shift ;;
        *) echo "acceptance: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ ${#who[@]} -gt 0 ] || { echo "usage: scripts/acceptance.sh [--engine E] [--old E] fsf|eth|sf|old..." >&2; exit 2; }
for f in "$ours" "$book"; do [ -r "$f" ] || { echo "acceptance: cannot read openings $f" >&2; exit 2; }; done
mkdir -p "$out"
status=0
for w in "${who[@]}"; do
    case "$w" in
        fsf) opp=/usr/games/fairy-stockfish games=50 ;;
        eth) opp=/usr/games/ethereal-chess games=50 ;;
        sf) opp=/usr/games/stockfish games=20 ;;
        old) [ -n "$old" ] || { echo "acceptance: old needs --old ENGINE" >&2; exit 2; }; opp="$old" games=100 ;;
    esac
    [ -x "${opp%% *}" ] || { echo "acceptance: no $opp (apt-get install it)" >&2; status=1; continue; }
    for set in "$ours" "$book"; do
        tag="$w-$(basename "$set" .epd)"
        "$root/scripts/match.sh" -a "$engine" -b "$opp" --tc "$tc" --games "$games" --openings "$set" \
            --pgn "$out/$tag.pgn" > "$out/$tag.log" 2>&1 || status=1
        echo "== $tag"; grep -E "^Results of|^Elo:|^Games:|^Ptnml" "$out/$tag.log" | tail -4
    done
done
exit $status
