#!/usr/bin/env bash
# A match or gauntlet (one head-to-head match per opponent, in turn) for Corvid, optionally an SPRT.
#
# Runs with the first runner found: fastchess, then cutechess-cli, then ../shared/tools/match.py (python-chess;
# same clock rules, colour-swapped opening pairs, Elo +-95 %, SPRT). Every engine gets Hash and Threads (16 MB,
# 1 thread by default); each opening is played twice with colours swapped.
#
#   scripts/match.sh -b /usr/games/glaurung -b /usr/games/toga2 --tc 10+0.1 --games 200
#   scripts/match.sh -a ./corvid-new -b ./corvid-old --tc 8+0.08 --games 20000 --sprt 0 5     (or scripts/sprt.sh)
set -u

root="$(cd "$(dirname "$0")/.." && pwd)"
usage() {
    cat <<'USAGE'
usage: scripts/match.sh [options] -b OPPONENT [-b OPPONENT...]
  -a ENGINE           engine under test (default: target/release/corvid, built if missing)
  -b ENGINE           an opponent; repeat for a gauntlet. A command with arguments goes in one quoted word.
  --tc BASE+INC       time control in seconds (default 10+0.1)
  --games N           games per opponent, even (default 200)
  --concurrency N     games in parallel (default 2: the machine has 2 cores, 1 thread per engine)
  --openings FILE     EPD/FEN openings (default ../shared/tools/openings.epd)
  --hash MB           Hash for every engine (default 16)
  --threads N         Threads for every engine (default 1)
  --option NAME=VAL   another option for every engine (repeatable)
  --sprt ELO0 ELO1    stop at an SPRT verdict (alpha = beta = 0.05)
  --pgn FILE          PGN output (default /tmp/corvid-match-<opponent>-<time>.pgn)
  --tool NAME         fastchess | cutechess | matchpy (default: the first one installed)
  --dry-run           print the commands instead of running them
USAGE
}
how_to_get_runner() {
    cat >&2 <<'HOW'
No match runner found. Any one of these will do:
  - python-chess for ../shared/tools/match.py:  pip install chess
  - fastchess: build from its source release (C++17): make -j && cp fastchess /usr/local/bin/
  - cutechess-cli: apt-get install cutechess  (Debian/Ubuntu), or build it from source with Qt/CMake
HOW
}

engine_a="$root/target/release/corvid"
opponents=()
tc="10+0.1"
games=200
concurrency=2
openings="$root/../shared/tools/openings.epd"
hash=16
threads=1
options=()
sprt=()
pgn=""
tool=""
dry=0
while [ $# -gt 0 ]; do
    case "$1" in
        -a) engine_a="${2:?-a needs an engine}"; shift 2 ;;
        -b) opponents+=("${2:?-b needs an engine}"); shift 2 ;;
        --tc) tc="${2:?}"; shift 2 ;;
        --games) games="${2:?}"; shift 2 ;;
        --concurrency) concurrency="${2:?}"; shift 2 ;;
        --openings) openings="${2:?}"; shift 2 ;;
        --hash) hash="${2:?}"; shift 2 ;;
        --threads) threads="${2:?}"; shift 2 ;;
        --option) options+=("${2:?}"); shift 2 ;;
        --sprt) sprt=("${2:?}" "${3:?--sprt needs ELO0 ELO1}"); shift 3 ;;
        --pgn) pgn="${2:?}"; shift 2 ;;
        --tool) tool="${2:?}"; shift 2 ;;
        --dry-run) dry=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown argument $1" >&2; usage >&2; exit 2 ;;
    esac
done
[ ${#opponents[@]} -gt 0 ] || { usage >&2; exit 2; }
[[ "$games" =~ ^[0-9]+$ ]] && [ "$games" -ge 2 ] || { echo "--games needs an even number >= 2" >&2; exit 2; }
[[ "$tc" =~ ^[0-9.]+(\+[0-9.]+)?$ ]] || { echo "--tc must look like 10+0.1" >&2; exit 2; }
[ -r "$openings" ] || { echo "cannot read openings $openings" >&2; exit 2; }
rounds=$(( (games + 1) / 2 ))

if [ "$engine_a" = "$root/target/release/corvid" ] && [ ! -x "$engine_a" ] && [ $dry -eq 0 ]; then
    (cd "$root" && cargo build --release --quiet) || exit 2
fi

if [ -z "$tool" ]; then
    if command -v fastchess >/dev/null; then tool=fastchess
    elif command -v cutechess-cli >/dev/null; then tool=cutechess
    elif python3 -c 'import chess' 2>/dev/null; then tool=matchpy
    else how_to_get_runner; exit 2
    fi
fi

# Options as NAME=VALUE, the way each runner wants them.
all_options=("Hash=$hash" "Threads=$threads" "${options[@]}")

run() {
    if [ $dry -eq 1 ]; then printf '%q ' "$@"; echo; else "$@"; fi
}

status=0
for opp in "${opponents[@]}"; do
    name_a="$(basename "$engine_a")"
    name_b="$(basename "${opp%% *}")"
    [ "$name_a" = "$name_b" ] && name_b="$name_b-b"   # self-play: the runners need distinct names
    out="${pgn:-/tmp/corvid-match-$name_b-$(date +%Y%m%d-%H%M%S).pgn}"
    # A gauntlet with one --pgn gets one file per opponent.
    [ -n "$pgn" ] && [ ${#opponents[@]} -gt 1 ] && out="${pgn%.pgn}-$name_b.pgn"
    echo "== $name_a vs $opp: $games games at $tc, $tool, PGN $out"
    case "$tool" in
        fastchess|cutechess)
            bin=fastchess; [ "$tool" = cutechess ] && bin=cutechess-cli
            # Engine commands with arguments: the first word is the program, the rest its arguments.
            read -ra words_b <<< "$opp"
            eng_b=(-engine "cmd=${words_b[0]}" "name=$name_b")
            [ ${#words_b[@]} -gt 1 ] && eng_b+=("args=${words_b[*]:1}")
            each=(-each proto=uci "tc=$tc")
            for o in "${all_options[@]}"; do each+=("option.$o"); done
            cmd=("$bin" -engine "cmd=$engine_a" "name=$name_a" "${eng_b[@]}" "${each[@]}"
                 -rounds "$rounds" -games 2 -repeat -concurrency "$concurrency" -recover)
            if [ "$tool" = fastchess ]; then
                cmd+=(-openings "file=$openings" format=epd order=random -pgnout "file=$out")
            else
                cmd+=(-openings "file=$openings" format=epd order=random -pgnout "$out")
            fi
            [ ${#sprt[@]} -eq 2 ] && cmd+=(-sprt "elo0=${sprt[0]}" "elo1=${sprt[1]}" alpha=0.05 beta=0.05)
            run "${cmd[@]}" || status=1
            ;;
        matchpy)
            script="$root/../shared/tools/match.py"
            [ -r "$script" ] || { echo "no $script" >&2; exit 2; }
            cmd=(python3 "$script" -a "$engine_a" -b "$opp" --tc "$tc" --games "$games"
                 --openings "$openings" --concurrency "$concurrency" --pgn "$out")
            for o in "${all_options[@]}"; do cmd+=(--opt-a "$o" --opt-b "$o"); done
            [ ${#sprt[@]} -eq 2 ] && cmd+=(--sprt "${sprt[0]}" "${sprt[1]}")
            run "${cmd[@]}" || status=1
            ;;
        *) echo "unknown --tool $tool (fastchess, cutechess, matchpy)" >&2; exit 2 ;;
    esac
done
exit $status
