#!/usr/bin/env bash
# Queues issue 38's timed acceptance measurements of one build as match jobs (scripts/jobs.py add-match), so
# they survive a stop and go on on any machine: each runs alone on the two cores, one after another.
#
#   scripts/acceptance_jobs.sh [REF] [--dry-run]      REF: the build to measure (default HEAD), pinned as a commit
#
# The jobs, all at Threads 1 and Hash 16 for both engines, each opening played with both colours:
#   accept-REF-1-eth-openings, -2-eth-8moves    Ethereal 12, 50 games on each of openings.epd and 8moves_v3.epd
#   accept-REF-3-fsf-openings, -4-fsf-8moves    Fairy-Stockfish 11.1, 50 games on each set
#   accept-REF-5-sf-openings,  -6-sf-8moves     Stockfish 15.1, 20 games on each set
#   (all at 10 s + 0.1 s), and
#   accept-REF-7-vs-56fc30f                     400 games against 56fc30f at 8 s + 0.08 s on 8moves_v3.epd
# The opponents come from Debian: apt-get install ethereal-chess fairy-stockfish stockfish. The results go to
# `scripts/jobs.py status` and each job's result.json; the UCI_Elo calibration (`scripts/match.sh calibrate`)
# and the nodes/second figure are measured by hand with the jobs paused.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

ref="" dry=0
for a in "$@"; do
    case "$a" in
        --dry-run) dry=1 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "acceptance_jobs: unknown option $a" >&2; exit 2 ;;
        *) [ -z "$ref" ] || { echo "acceptance_jobs: one build at a time" >&2; exit 2; }; ref="$a" ;;
    esac
done
sha="$(git rev-parse --short=7 "${ref:-HEAD}^{commit}")" || { echo "acceptance_jobs: unknown commit ${ref:-HEAD}" >&2; exit 2; }

add() {
    local name="accept-$sha-$1"; shift
    if [ "$dry" = 1 ]; then
        echo "scripts/jobs.py add-match $name $*"
    else
        scripts/jobs.py add-match "$name" "$@"
    fi
}

for opp in "1 eth /usr/games/ethereal-chess 50" "3 fsf /usr/games/fairy-stockfish 50" "5 sf /usr/games/stockfish 20"; do
    read -r n who path games <<< "$opp"
    if [ "$dry" = 0 ] && [ ! -x "$path" ]; then
        echo "acceptance_jobs: $path missing: apt-get install ethereal-chess fairy-stockfish stockfish" >&2
        exit 1
    fi
    add "$n-$who-openings" --new "$sha" --old "$path" --games "$games" --tc 10+0.1 --book openings.epd
    add "$((n + 1))-$who-8moves" --new "$sha" --old "$path" --games "$games" --tc 10+0.1 --book 8moves_v3.epd
done
add 7-vs-56fc30f --new "$sha" --old 56fc30f --games 400 --tc 8+0.08 --book 8moves_v3.epd
