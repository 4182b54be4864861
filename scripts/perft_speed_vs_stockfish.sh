#!/usr/bin/env bash
# Single-thread perft speed of Corvid against Stockfish's `go perft` on the same machine, in one run.
# The two alternate, and each side's best run counts (the fastest run is the one least disturbed by whatever
# else the machine is doing). Stockfish prints no timing for `go perft`, so its process is timed and its
# start-up time (measured the same way) subtracted.
# usage: scripts/perft_speed_vs_stockfish.sh [depth=6] [runs=7] [stockfish=/usr/games/stockfish]
set -euo pipefail
depth=${1:-6}
runs=${2:-7}
sf=${3:-/usr/games/stockfish}
here=$(cd "$(dirname "$0")/.." && pwd)
corvid="$here/target/release/corvid"
[ -x "$sf" ] || { echo "Stockfish not found at $sf (apt-get install stockfish)"; exit 1; }
(cd "$here" && cargo build --release -q)

now() { date +%s.%N; }
best_c=999; best_sf=999; best_start=999
for i in $(seq "$runs"); do
  t0=$(now); printf 'quit\n' | "$sf" >/dev/null; t1=$(now)
  nodes=$(printf 'position startpos\ngo perft %s\nquit\n' "$depth" | "$sf" | awk '/Nodes searched/ {print $3}')
  t2=$(now)
  c_ms=$("$corvid" perft "$depth" | awk '/^Time:/ {print $2}')
  sf_s=$(echo "$t2 - $t1" | bc -l); st_s=$(echo "$t1 - $t0" | bc -l); c_s=$(echo "$c_ms / 1000" | bc -l)
  best_c=$(echo "if ($c_s < $best_c) $c_s else $best_c" | bc -l)
  best_sf=$(echo "if ($sf_s < $best_sf) $sf_s else $best_sf" | bc -l)
  best_start=$(echo "if ($st_s < $best_start) $st_s else $best_start" | bc -l)
  printf 'run %d: corvid %.3f s, stockfish %.3f s (start-up %.3f s)\n' "$i" "$c_s" "$sf_s" "$st_s"
done
sf_net=$(echo "$best_sf - $best_start" | bc -l)
printf 'perft %s, %s nodes; best runs: corvid %.3f s = %.0f Mnps, stockfish %.3f s = %.0f Mnps\n' \
  "$depth" "$nodes" "$best_c" "$(echo "$nodes / $best_c / 1000000" | bc -l)" \
  "$sf_net" "$(echo "$nodes / $sf_net / 1000000" | bc -l)"
printf 'ratio corvid/stockfish (nodes per second): %.2f\n' "$(echo "$sf_net / $best_c" | bc -l)"
