#!/usr/bin/env bash
# Background self-play data that survives a new machine: games are played in chunks (one `corvid datagen`
# file of --games games each, its own seed), and each finished chunk is committed at once under
# nets/games/<gen>/ with a line in nets/games/manifest.tsv (file, seed, nodes, the net that played, games,
# positions, bytes, SHA-256). A chunk cut by a stop resumes from its progress file on the same machine.
#
#   scripts/datagen_chunks.sh --gen gen4 --first-seed 4000 [--chunks 1000] [--games 1000] [--nodes 2500]
#                             [--threads 2] [--net nets/corvid.nnue] [--no-commit]
#
# The engine and the net are copied to data/ first, so rebuilding or replacing nets/corvid.nnue while it
# runs changes nothing. Put it behind foreground work: echo 19 > /proc/<pid>/autogroup.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
gen="" first="" chunks=1000 games=1000 nodes=2500 threads=2 net="nets/corvid.nnue" commit=1
while [ $# -gt 0 ]; do
    case "$1" in
        --gen) gen="${2:?}"; shift 2 ;;
        --first-seed) first="${2:?}"; shift 2 ;;
        --chunks) chunks="${2:?}"; shift 2 ;;
        --games) games="${2:?}"; shift 2 ;;
        --nodes) nodes="${2:?}"; shift 2 ;;
        --threads) threads="${2:?}"; shift 2 ;;
        --net) net="${2:?}"; shift 2 ;;
        --no-commit) commit=0; shift ;;
        -h|--help) sed -n 2,11p "$0"; exit 0 ;;
        *) echo "datagen_chunks: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -n "$gen" ] && [ -n "$first" ] || { echo "usage: scripts/datagen_chunks.sh --gen NAME --first-seed N [...]" >&2; exit 2; }

mkdir -p data "nets/games/$gen"
engine="data/corvid-datagen"
[ -x "$engine" ] || cp target/release/corvid "$engine"
netcopy="data/datagen-$(sha256sum "$net" | cut -c1-16).nnue"
[ -f "$netcopy" ] || cp "$net" "$netcopy"
net_sha="$(sha256sum "$netcopy" | cut -c1-16)"
manifest="nets/games/manifest.tsv"
[ -f "$manifest" ] || printf 'file\tseed\tnodes\tnet_sha256\tgames\tpositions\tbytes\tsha256\n' > "$manifest"

# The Bench line of the newest commit that has one (data commits change no code). sed reads to the end, so
# git never dies of SIGPIPE under pipefail.
bench_line() { git log -50 --format=%B | grep -o '^Bench: [0-9]*' | sed -n 1p; }

for ((seed = first; seed < first + chunks; seed++)); do
    file="nets/games/$gen/s$seed.vf"
    if grep -q "^$file	" "$manifest"; then continue; fi
    "$engine" datagen --out "$file" --seed "$seed" --nodes "$nodes" --games "$games" \
        --threads "$threads" --eval "$netcopy"
    prog="$file.progress"
    positions="$(sed -n 's/^positions //p' "$prog")"
    done_games="$(sed -n 's/^games //p' "$prog")"
    [ "$done_games" = "$games" ] || { echo "datagen_chunks: $file stopped at $done_games games" >&2; exit 1; }
    bytes="$(stat -c %s "$file")"
    sha="$(sha256sum "$file" | cut -d' ' -f1)"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "$seed" "$nodes" "$net_sha" "$games" "$positions" \
        "$bytes" "$sha" >> "$manifest"
    if [ "$commit" = 1 ]; then
        msg="nets/games/$gen: s$seed.vf, $games games, $positions positions (net $net_sha, $nodes nodes)

$(bench_line)"
        # Every chunk in the manifest that is not committed yet goes in (one left behind by a failed
        # commit too). Another git command (a merge, a commit) may hold the index for a while: retry for up
        # to ten minutes; a chunk that still fails goes in with the next one.
        for _ in $(seq 60); do
            # A chunk counts when git lacks it or holds an unfinished copy (kept by `scripts/jobs.py` when
            # the cores were taken); such a copy's progress file is tracked, and its final state goes too.
            pending="$(cut -f1 "$manifest" | tail -n +2 | while read -r f; do
                if ! git ls-files --error-unmatch "$f" >/dev/null 2>&1 || ! git diff --quiet -- "$f"; then
                    echo "$f"
                fi
                if git ls-files --error-unmatch "$f.progress" >/dev/null 2>&1 &&
                    ! git diff --quiet -- "$f.progress"; then
                    echo "$f.progress"
                fi; done)"
            # shellcheck disable=SC2086
            if [ ! -f .git/MERGE_HEAD ] && git add $pending "$manifest" &&
                git commit -q -m "$msg" -- $pending "$manifest"; then
                break
            fi
            sleep 10
        done
    fi
done
