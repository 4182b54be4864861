#!/usr/bin/env bash
# Runs every position of a perft EPD file through `corvid perft` and compares the node counts.
#
# EPD lines look like `<fen> ;D1 20 ;D2 400 ...`. Each (position, depth) with a depth at most --max-depth and
# an expected count at most --max-nodes is checked; a summary line ends the run and the exit status is 1 when
# any count differs (or the engine fails), so the script can gate CI.
#
#   scripts/perft_epd.sh tests/data/standard.epd
#   scripts/perft_epd.sh --max-depth 4 --max-nodes 2000000 --threads 2 ../shared/data/perft/chess960.epd
set -u

usage() {
    cat <<'USAGE'
usage: scripts/perft_epd.sh [options] FILE.epd [FILE.epd...]
  --engine PATH      corvid binary (default: target/release/corvid, built if missing)
  --max-depth N      skip depths above N (default 5)
  --max-nodes N      skip expected counts above N (default 10000000)
  --threads N        perft worker threads (default 1)
  --chess960         treat every FEN as Chess960 (Shredder/X-FEN castling fields switch it on anyway)
  --quiet            print only failures and the summary
USAGE
}

root="$(cd "$(dirname "$0")/.." && pwd)"
engine="$root/target/release/corvid"
max_depth=5
max_nodes=10000000
threads=1
c960=()
quiet=0
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --engine) engine="${2:?--engine needs a path}"; shift 2 ;;
        --max-depth) max_depth="${2:?--max-depth needs a number}"; shift 2 ;;
        --max-nodes) max_nodes="${2:?--max-nodes needs a number}"; shift 2 ;;
        --threads) threads="${2:?--threads needs a number}"; shift 2 ;;
        --chess960) c960=(--chess960); shift ;;
        --quiet) quiet=1; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
[ ${#files[@]} -gt 0 ] || { usage >&2; exit 2; }
for n in "$max_depth" "$max_nodes" "$threads"; do
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "not a number: $n" >&2; exit 2; }
done
if [ ! -x "$engine" ]; then
    if [ "$engine" = "$root/target/release/corvid" ]; then
        (cd "$root" && cargo build --release --quiet) || exit 2
    else
        echo "no engine at $engine" >&2; exit 2
    fi
fi

pass=0 fail=0 skipped=0
start=$(date +%s)
for file in "${files[@]}"; do
    [ -r "$file" ] || { echo "cannot read $file" >&2; fail=$((fail + 1)); continue; }
    lineno=0
    while IFS= read -r line || [ -n "$line" ]; do
        lineno=$((lineno + 1))
        line="${line%$'\r'}"
        case "$line" in ''|'#'*) continue ;; esac
        fen="${line%%;*}"
        fen="$(echo "$fen" | xargs)"
        rest="${line#*;}"
        [ "$rest" = "$line" ] && continue   # no ;Dn fields
        IFS=';' read -ra fields <<< "$rest"
        for f in "${fields[@]}"; do
            read -r tag expected _ <<< "$f"
            [[ "$tag" =~ ^D([0-9]+)$ ]] || continue
            depth="${BASH_REMATCH[1]}"
            [[ "$expected" =~ ^[0-9]+$ ]] || continue
            if [ "$depth" -gt "$max_depth" ] || [ "$expected" -gt "$max_nodes" ]; then
                skipped=$((skipped + 1)); continue
            fi
            out="$("$engine" perft "$depth" --threads "$threads" "${c960[@]}" "$fen" 2>&1)"
            got="$(printf '%s\n' "$out" | sed -n 's/^Nodes searched: \([0-9]*\)$/\1/p' | tail -n 1)"
            if [ "$got" = "$expected" ]; then
                pass=$((pass + 1))
                [ $quiet -eq 1 ] || echo "ok    $file:$lineno D$depth $expected"
            else
                fail=$((fail + 1))
                echo "FAIL  $file:$lineno D$depth expected $expected got ${got:-error: $(printf '%s' "$out" | tail -n 1)}  [$fen]"
            fi
        done
    done < "$file"
done
echo "perft_epd: $pass passed, $fail failed, $skipped skipped (over the limits) in $(( $(date +%s) - start )) s"
[ $fail -eq 0 ]
