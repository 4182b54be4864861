#!/usr/bin/env bash
# OpenBench reads `Bench: N` from the head commit's message and refuses a head without one. Checks that every
# commit after BASE (default: 171070b, the last commit before the rule) carries a `Bench: <digits>` line; in
# a clone without BASE (shallow), only HEAD is checked. Exit status 1 with the offending commits listed.
#
#   scripts/check_bench_lines.sh [BASE]
#   git config core.hooksPath scripts/hooks      # the same check on every new commit message (commit-msg)
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-171070b}"
if git cat-file -e "$base^{commit}" 2>/dev/null; then
    commits="$(git rev-list "$base..HEAD")"
else
    commits="$(git rev-parse HEAD)"
fi
bad=0
for c in $commits; do
    if ! git log -1 --format=%B "$c" | grep -qE '^Bench: [0-9]+$'; then
        echo "no 'Bench: N' line: $(git log -1 --format='%h %s' "$c")" >&2
        bad=1
    fi
done
[ $bad = 0 ] && echo "every commit after $base has a Bench line ($(echo "$commits" | grep -c .) checked)"
exit $bad
