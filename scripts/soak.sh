#!/usr/bin/env bash
# Soak test: a long self-play match of Corvid (by default 1000 games at 1 s + 0.01 s, Threads 2, Hash 64) that
# fails on any time loss, crash, hang, illegal move, a `go` without exactly one `bestmove`, or a bestmove/ponder
# that is not the start of the last PV reported (what fastchess warns about as "Bestmove does not match
# beginning of last PV"). Every engine process runs behind a wrapper that logs its UCI input and output;
# scripts/uci_log_check.py checks the logs afterwards.
#
#   scripts/soak.sh                          # the full soak: about an hour of both cores; run it on an idle machine
#   scripts/soak.sh --games 2 --keep         # a quick check of the script itself
#
# The match runner is ../shared/tools/match.py (python-chess), or fastchess with --tool fastchess (its own
# warnings are then failures too).
set -u

root="$(cd "$(dirname "$0")/.." && pwd)"
usage() {
    cat <<'USAGE'
usage: scripts/soak.sh [options]
  --engine PATH       the engine (default: target/release/corvid, built if missing)
  --games N           games, even (default 1000)
  --tc BASE+INC       seconds (default 1+0.01)
  --threads N         Threads for both engines (default 2)
  --hash MB           Hash for both engines (default 64)
  --concurrency N     games in parallel (default 1: two threads per search on a two-core machine)
  --openings FILE     EPD openings (default ../shared/tools/openings.epd)
  --tool NAME         matchpy (default) | fastchess
  --logdir DIR        where the logs go (default: a new directory under /tmp)
  --keep              keep the logs even when everything passed
  --dry-run           print the match command instead of running it
USAGE
}

engine="$root/target/release/corvid"
games=1000
tc="1+0.01"
threads=2
hash=64
concurrency=1
openings="$root/../shared/tools/openings.epd"
tool=matchpy
logdir=""
keep=0
dry=0
while [ $# -gt 0 ]; do
    case "$1" in
        --engine) engine="$2"; shift 2 ;;
        --games) games="$2"; shift 2 ;;
        --tc) tc="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        --hash) hash="$2"; shift 2 ;;
        --concurrency) concurrency="$2"; shift 2 ;;
        --openings) openings="$2"; shift 2 ;;
        --tool) tool="$2"; shift 2 ;;
        --logdir) logdir="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        --dry-run) dry=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done
if [ $((games % 2)) -ne 0 ] || [ "$games" -lt 2 ]; then
    echo "--games must be even and at least 2" >&2
    exit 2
fi
if [ ! -x "$engine" ]; then
    (cd "$root" && cargo build --release) || exit 2
fi
engine="$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")"
[ -n "$logdir" ] || logdir="$(mktemp -d /tmp/corvid-soak-XXXXXX)"
mkdir -p "$logdir/uci"
logdir="$(cd "$logdir" && pwd)"

# One wrapper per side, so that the logs say which process was which. The engine reads the GUI's lines through
# tee and writes through tee: both copy line by line as they come, so timing is not changed noticeably. The
# input tee would wait for the runner's next line (or its end) after the engine quits, and the runners wait
# for the process to end (fastchess) or for every pipe to close (python-chess): so the wrapper ends it.
for side in a b; do
    cat > "$logdir/corvid-$side" <<WRAP
#!/usr/bin/env bash
log="$logdir/uci/$side-\$(date +%s%N)-\$\$"
exec 3< <(exec tee "\$log.in")
input=\$!
"$engine" <&3 3<&- | tee "\$log.out"
kill "\$input" 2>/dev/null
WRAP
    chmod +x "$logdir/corvid-$side"
done

base="${tc%+*}"
inc="${tc#*+}"
[ "$inc" = "$tc" ] && inc=0
report="$logdir/match.txt"
case "$tool" in
    matchpy)
        cmd=(python3 "$root/../shared/tools/match.py" -a "$logdir/corvid-a" -b "$logdir/corvid-b"
            --name-a corvid-a --name-b corvid-b
            --opt-a "Threads=$threads" --opt-a "Hash=$hash" --opt-b "Threads=$threads" --opt-b "Hash=$hash"
            --tc "$base+$inc" --games "$games" --openings "$openings" --concurrency "$concurrency"
            --pgn "$logdir/soak.pgn")
        ;;
    fastchess)
        cmd=(fastchess -engine "cmd=$logdir/corvid-a" name=corvid-a -engine "cmd=$logdir/corvid-b" name=corvid-b
            -each "tc=$base+$inc" "option.Threads=$threads" "option.Hash=$hash"
            -rounds $((games / 2)) -games 2 -repeat -concurrency "$concurrency"
            -openings "file=$openings" format=epd order=random -pgnout "file=$logdir/soak.pgn")
        ;;
    *) echo "unknown tool $tool" >&2; exit 2 ;;
esac
if [ "$dry" -eq 1 ]; then
    printf '%q ' "${cmd[@]}"
    echo
    exit 0
fi

echo "soak: $games games at $tc, Threads $threads, Hash $hash, with $tool; logs in $logdir"
"${cmd[@]}" 2>&1 | tee "$report"
status=${PIPESTATUS[0]}
fail=0
if [ "$status" -ne 0 ]; then
    echo "FAIL: the match runner exited with $status"
    fail=1
fi
case "$tool" in
    matchpy)
        # match.py prints every forfeit (time, crash, hang, illegal move) as FORFEIT/ABNORMAL.
        if grep -q "FORFEIT/ABNORMAL" "$report"; then
            echo "FAIL: forfeits:"
            grep "FORFEIT/ABNORMAL" "$report"
            fail=1
        fi
        played=$(sed -n 's/^=== .*: \([0-9]*\) games,.*/\1/p' "$report" | tail -1)
        ;;
    fastchess)
        if grep -Eqi "warning|loses on time|disconnect|illegal|crash|stall|timeout" "$report"; then
            echo "FAIL: fastchess reported:"
            grep -Ei "warning|loses on time|disconnect|illegal|crash|stall|timeout" "$report" | sort | uniq -c
            fail=1
        fi
        played=$(grep -c '^\[Result ' "$logdir/soak.pgn" 2>/dev/null || echo 0)
        ;;
esac
if [ "${played:-0}" != "$games" ]; then
    echo "FAIL: ${played:-0} of $games games finished"
    fail=1
fi
if ! python3 "$root/scripts/uci_log_check.py" "$logdir/uci"; then
    echo "FAIL: the UCI logs show protocol problems (above)"
    fail=1
fi
if [ "$fail" -eq 0 ]; then
    echo "PASS: $games games, no forfeit, every go answered once, every bestmove the start of its last PV"
    [ "$keep" -eq 1 ] || rm -rf "$logdir"
else
    echo "logs kept in $logdir"
fi
exit "$fail"
