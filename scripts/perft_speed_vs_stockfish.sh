#!/usr/bin/env bash
# Compares single-thread perft speed of Corvid and Stockfish (`go perft`) on the same machine, alternating the
# two so that machine noise hits both alike. Prints each run and the median ratio.
# usage: scripts/perft_speed_vs_stockfish.sh [depth=6] [runs=5] [stockfish=/usr/games/stockfish]
set -euo pipefail
depth=${1:-6}
runs=${2:-5}
sf=${3:-/usr/games/stockfish}
here=$(cd "$(dirname "$0")/.." && pwd)
corvid="$here/target/release/corvid"
[ -x "$sf" ] || { echo "Stockfish not found at $sf (apt-get install stockfish)"; exit 1; }
[ -x "$corvid" ] || (cd "$here" && cargo build --release -q)

ratios=()
for i in $(seq "$runs"); do
  # Stockfish prints no timing for go perft: time the whole process and subtract its start-up time.
  t0=$(date +%s.%N)
  printf 'quit\n' | "$sf" >/dev/null
  t1=$(date +%s.%N)
  sf_nodes=$(printf 'position startpos\ngo perft %s\nquit\n' "$depth" | "$sf" | awk '/Nodes searched/ {print $3}')
  t2=$(date +%s.%N)
  sf_secs=$(echo "($t2 - $t1) - ($t1 - $t0)" | bc -l)
  sf_nps=$(echo "$sf_nodes / $sf_secs" | bc)
  c_nps=$("$corvid" perft "$depth" | awk '/Nodes\/second/ {print $2}')
  ratio=$(echo "scale=3; $c_nps / $sf_nps" | bc)
  echo "run $i: corvid $c_nps nps, stockfish $sf_nps nps, ratio $ratio"
  ratios+=("$ratio")
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print "median ratio corvid/stockfish:", a[int((NR+1)/2)]}'
