#!/usr/bin/env bash
# The two Makromachy self-play runs of issue 5, through `corvid match` (python-chess, cutechess and fastchess
# cannot play Makromachy):
#   (a) Corvid vs Corvid at 10+0.1, 50 games, 2 at a time: every game must end by the rules — no illegal move,
#       crash, hang or time loss;
#   (b) a deeper-searching Corvid vs Corvid at depth 2, 20 games: the deeper one should win by a wide margin.
# Each opening is 8 random legal plies, played twice with the colours swapped. Each run prints its summary;
# the exit status is non-zero when a run had a forfeit (or could not start).
#
#   scripts/makro_selfplay.sh                 both runs with target/release/corvid (built if missing)
#   scripts/makro_selfplay.sh a --games-a 10  only run (a), 10 games
#   scripts/makro_selfplay.sh b --deep depth=6
set -u

root="$(cd "$(dirname "$0")/.." && pwd)"
usage() {
    cat <<'USAGE'
usage: scripts/makro_selfplay.sh [a|b|both] [options]
  --engine PATH       the Corvid binary (default target/release/corvid, built if missing)
  --tc BASE+INC       clock of run (a) (default 10+0.1)
  --games-a N         games of run (a) (default 50)
  --concurrency N     games in parallel in run (a) (default 2; run (b) uses the same)
  --deep LIMIT        the stronger side of run (b): tc=10+0.1, depth=N, nodes=N or movetime=MS (default depth=7)
  --shallow LIMIT     the weaker side of run (b) (default depth=2)
  --games-b N         games of run (b) (default 20)
  --plies N           random opening plies (default 8)
  --seed S            opening seed (default 1)
  --pgn-dir DIR       write makro_a.pgn / makro_b.pgn there (default /tmp)
  --option NAME=VAL   a UCI option for both engines, repeatable (e.g. "Move Overhead=50", Hash=16)
  --margin MS         how far past its clock an engine may go (corvid match's default: 50)
  --nice N            niceness of the runner and engines (default 19). A niced engine on a busy machine is
                      starved of CPU and can lose on time through no fault of its own: run the real 10+0.1
                      check on an otherwise idle machine with --nice 0.
  --dry-run           print the commands instead of running them
USAGE
}

which="both"
engine="$root/target/release/corvid"
tc="10+0.1"
games_a=50
games_b=20
concurrency=2
deep="depth=7"
shallow="depth=2"
plies=8
seed=1
pgn_dir=/tmp
dry=0
nice_level=19
options=()
while [ $# -gt 0 ]; do
    case "$1" in
        a|b|both) which="$1"; shift ;;
        --engine) engine="${2:?}"; shift 2 ;;
        --tc) tc="${2:?}"; shift 2 ;;
        --games-a) games_a="${2:?}"; shift 2 ;;
        --games-b) games_b="${2:?}"; shift 2 ;;
        --concurrency) concurrency="${2:?}"; shift 2 ;;
        --deep) deep="${2:?}"; shift 2 ;;
        --shallow) shallow="${2:?}"; shift 2 ;;
        --plies) plies="${2:?}"; shift 2 ;;
        --seed) seed="${2:?}"; shift 2 ;;
        --pgn-dir) pgn_dir="${2:?}"; shift 2 ;;
        --option) options+=(--opt-a "${2:?}" --opt-b "$2"); shift 2 ;;
        --margin) options+=(--margin "${2:?}"); shift 2 ;;
        --nice) nice_level="${2:?}"; shift 2 ;;
        --dry-run) dry=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown argument $1" >&2; usage >&2; exit 2 ;;
    esac
done

if [ "$engine" = "$root/target/release/corvid" ] && [ ! -x "$engine" ] && [ $dry -eq 0 ]; then
    (cd "$root" && nice -n 19 cargo build --release -j1 --quiet) || exit 2
fi

# The runner is a verb of the same binary; niced so that other work on the machine keeps its cores.
run() {
    echo "+ corvid match $*"
    [ $dry -eq 1 ] && return 0
    nice -n "$nice_level" "$engine" match "$@"
}

# `corvid match` splits an engine command like a shell: quote the path.
eng_q=$(printf %q "$engine")
status=0
if [ "$which" != "b" ]; then
    echo "=== (a) Corvid vs Corvid, $tc, $games_a games"
    run --engine-a "$eng_q" --engine-b "$eng_q" --name-a Corvid-1 --name-b Corvid-2 --variant makromachy \
        --tc "$tc" --games "$games_a" --concurrency "$concurrency" --openings-random "$plies" --seed "$seed" \
        --pgn "$pgn_dir/makro_a.pgn" ${options[@]+"${options[@]}"} || status=1
fi
if [ "$which" != "a" ]; then
    echo "=== (b) Corvid $deep vs Corvid $shallow, $games_b games"
    run --engine-a "$eng_q" --engine-b "$eng_q" --name-a "Corvid-$deep" --name-b "Corvid-$shallow" \
        --variant makromachy --limit-a "$deep" --limit-b "$shallow" --games "$games_b" \
        --concurrency "$concurrency" --openings-random "$plies" --seed "$seed" \
        --pgn "$pgn_dir/makro_b.pgn" ${options[@]+"${options[@]}"} || status=1
fi
exit $status
