#!/usr/bin/env bash
# Makromachy's speed target (issue 5): `corvid bench --variant makromachy` nodes/second against orthodox
# `corvid bench` on the same machine. The two benches alternate, so both see the same machine state; one line
# per pair, then the median ratio. Run it on an otherwise idle machine.
#
#   scripts/bench_ratio.sh [PAIRS] [ENGINE]     (default 10 pairs, target/release/corvid)
set -eu
pairs="${1:-10}"
engine="${2:-$(cd "$(dirname "$0")/.." && pwd)/target/release/corvid}"
[ -x "$engine" ] || { echo "no engine at $engine (cargo build --release)" >&2; exit 1; }

nps() { "$engine" bench "$@" 2>/dev/null | tail -n 1 | awk '{print $3}'; }

ratios=()
for _ in $(seq "$pairs"); do
    o=$(nps)
    m=$(nps --variant makromachy)
    r=$(awk -v o="$o" -v m="$m" 'BEGIN { printf "%.2f", 100 * m / o }')
    ratios+=("$r")
    printf 'orthodox %9d nps   makromachy %8d nps   ratio %6s %%\n' "$o" "$m" "$r"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '
    { r[NR] = $1 }
    END {
        median = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
        printf "median ratio over %d pairs: %.1f %% (min %.1f %%, max %.1f %%)\n", NR, median, r[1], r[NR]
    }'
