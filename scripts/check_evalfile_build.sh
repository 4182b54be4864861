#!/usr/bin/env bash
# OpenBench's network tests: `make EXE=… EVALFILE=<net>` must embed that net. Trains a small net that differs
# from the committed one (one epoch on tests/data/training/sample.vf), builds with it through the Makefile,
# and checks that the binary's bench is the committed build's bench with `setoption name EvalFile` set to
# the same file, and differs from the committed build's own bench. Exit status 1 on any difference.
#
#   scripts/check_evalfile_build.sh [DEPTH]     (CI runs it after the tests; DEPTH 6 by default)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
depth="${1:-6}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet --bin corvid --bin train_nnue
cp target/release/corvid "$work/corvid-default"
target/release/train_nnue train tests/data/training/sample.vf --epochs 1 --val-fraction 0 --threads 2 \
    --progress-secs 0 --out-dir "$work/run" >/dev/null
net="$work/run/final.nnue"
[ -f "$net" ] || { echo "check_evalfile_build: the trainer wrote no net" >&2; exit 1; }

make --no-print-directory EXE="$work/corvid-evalfile" EVALFILE="$net" >/dev/null 2>&1

nodes() { tail -1 | cut -d' ' -f1; }
embedded="$("$work/corvid-evalfile" bench "$depth" | nodes)"
by_option="$(printf 'setoption name EvalFile value %s\nbench %s\nquit\n' "$net" "$depth" |
    "$work/corvid-default" | grep ' nps$' | nodes)"
committed="$("$work/corvid-default" bench "$depth" | nodes)"
name="$(printf 'uci\nquit\n' | "$work/corvid-evalfile" | sed -n 's/^option name EvalFile type string default //p')"
echo "bench $depth: EVALFILE build $embedded, committed build + EvalFile $by_option, committed build $committed; EvalFile default '$name'"
status=0
[ "$embedded" = "$by_option" ] || { echo "FAIL: the EVALFILE build does not play the EVALFILE net" >&2; status=1; }
[ "$embedded" != "$committed" ] || { echo "FAIL: the EVALFILE build plays the committed net" >&2; status=1; }
[ "$name" = "final.nnue" ] || { echo "FAIL: EvalFile's default is '$name', not the net's file name" >&2; status=1; }
# Leave target/ as the tests built it (the EVALFILE build changed the embedded net there).
cargo build --release --quiet --bin corvid
[ $status = 0 ] && echo "PASS"
exit $status
