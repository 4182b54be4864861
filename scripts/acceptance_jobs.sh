#!/usr/bin/env bash
# Queues issue 38's timed acceptance measurements of one build as match jobs (scripts/jobs.py add-match), so
# they survive a stop and go on on any machine: each runs alone on the two cores, one after another.
#
#   scripts/acceptance_jobs.sh [REF] [--dry-run] [--levels "2400 2500 ..."]
#                                     REF: the build to measure (default HEAD), pinned as a commit
#
# The jobs, all at Threads 1 and Hash 16 for both engines, each opening played with both colours:
#   accept-REF-1-eth-openings, -2-eth-8moves    Ethereal 12, 50 games on each of openings.epd and 8moves_v3.epd
#   accept-REF-3-fsf-openings, -4-fsf-8moves    Fairy-Stockfish 11.1, 50 games on each set
#   accept-REF-5-sf-openings,  -6-sf-8moves     Stockfish 15.1, 20 games on each set
#   (all at 10 s + 0.1 s), and
#   accept-REF-7-vs-56fc30f                     400 games against 56fc30f at 8 s + 0.08 s on 8moves_v3.epd
#   accept-REF-8-elo-X                          the UCI_Elo calibration of docs/usage.md, for each X of --levels
#                                               (default "2400 2500 2600 2700 2800 2850"): Corvid at UCI_Elo X against
#                                               Stockfish at UCI_Elo X, 40 games at 5 s + 0.05 s on openings.epd
#                                               (a level is calibrated when it scores 40-60 %). Stockfish 15.1
#                                               offers UCI_Elo up to 2850 and silently keeps its default (1350)
#                                               for a higher one, so higher levels are refused. From Corvid's
#                                               FULL_STRENGTH up it plays unlimited: those scores place the full
#                                               engine, also above 2850.
# The opponents come from Debian: apt-get install ethereal-chess fairy-stockfish stockfish. The results go to
# `scripts/jobs.py status` and each job's result.json; the nodes/second figure is measured by hand with the
# jobs paused.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

ref="" dry=0 levels="2400 2500 2600 2700 2800 2850"
while [ $# -gt 0 ]; do
    a="$1"; shift
    case "$a" in
        --dry-run) dry=1 ;;
        --levels) [ $# -gt 0 ] || { echo "acceptance_jobs: --levels needs a list" >&2; exit 2; }
                  levels="$1"; shift ;;
        -h|--help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        -*) echo "acceptance_jobs: unknown option $a" >&2; exit 2 ;;
        *) [ -z "$ref" ] || { echo "acceptance_jobs: one build at a time" >&2; exit 2; }; ref="$a" ;;
    esac
done
sha="$(git rev-parse --short=7 "${ref:-HEAD}^{commit}")" || { echo "acceptance_jobs: unknown commit ${ref:-HEAD}" >&2; exit 2; }

# Stockfish ignores an out-of-range UCI_Elo (it keeps 1350), which would turn a level into a rout: ask its range.
sf_max=2850
if [ -x /usr/games/stockfish ]; then
    m="$(printf 'uci\nquit\n' | /usr/games/stockfish | sed -n 's/^option name UCI_Elo .* max \([0-9]*\).*/\1/p')"
    [ -z "$m" ] || sf_max="$m"
fi
for x in $levels; do
    case "$x" in *[!0-9]*|'') echo "acceptance_jobs: UCI_Elo level $x is not a number" >&2; exit 2 ;; esac
    if [ "$x" -gt "$sf_max" ]; then
        echo "acceptance_jobs: UCI_Elo level $x is above Stockfish's highest ($sf_max), which it would ignore" >&2
        exit 2
    fi
done

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
for x in $levels; do
    add "8-elo-$x" --new "$sha" --old /usr/games/stockfish --games 40 --tc 5+0.05 --book openings.epd \
        --new-option UCI_LimitStrength=true --new-option "UCI_Elo=$x" \
        --old-option UCI_LimitStrength=true --old-option "UCI_Elo=$x"
done
