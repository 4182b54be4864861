#!/usr/bin/env bash
# The games of an OpenBench DATAGEN workload as a training chunk: `corvid datagen import` converts the
# workload's PGNs (the server's <N>.pgn.tar download, .pgn.bz2 uploads, .pgn files, or directories of them)
# into nets/games/<gen>/ob<N>.vf and this appends its line to nets/games/manifest.tsv: seed, nodes and net
# as given (else `-`), games, trainable positions, bytes, SHA-256, and the source `OpenBench workload N` in
# a ninth column (the readers take columns 1-8 by number; the header gains `source` on first use).
# Nothing is committed: look at the skipped games on stderr, then commit the file with the manifest.
#
#   scripts/import_openbench.sh --workload N [--gen openbench] [--nodes N] [--net SHA16] INPUT...
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
die() { echo "import_openbench: $*" >&2; exit 1; }
workload="" gen="openbench" nodes="-" net="-"
while [ $# -gt 0 ]; do
    case "$1" in
        --workload) workload="${2:?}"; shift 2 ;;
        --gen) gen="${2:?}"; shift 2 ;;
        --nodes) nodes="${2:?}"; shift 2 ;;
        --net) net="${2:?}"; shift 2 ;;
        -h|--help) sed -n 2,9p "$0"; exit 0 ;;
        --) shift; break ;;
        -*) die "unknown argument $1" ;;
        *) break ;;
    esac
done
[ -n "$workload" ] && [ $# -gt 0 ] || die "usage: scripts/import_openbench.sh --workload N [...] INPUT..."
engine="${CORVID:-target/release/corvid}"
[ -x "$engine" ] || die "no $engine (cargo build --release)"
manifest="nets/games/manifest.tsv"
file="nets/games/$gen/ob$workload.vf"
! grep -q "^$file	" "$manifest" || die "$file is in $manifest already"
mkdir -p "nets/games/$gen"
# The importer refuses an existing file and writes nothing when it refuses.
summary="$("$engine" datagen import "$@" --out "$file")"
games="$(sed -n 's/^games //p' <<<"$summary")"
positions="$(sed -n 's/^positions //p' <<<"$summary")"
bytes="$(stat -c %s "$file")"
sha="$(sha256sum "$file" | cut -d' ' -f1)"
head -1 "$manifest" | grep -q $'\tsource$' || sed -i '1s/$/\tsource/' "$manifest"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "-" "$nodes" "$net" "$games" "$positions" "$bytes" \
    "$sha" "OpenBench workload $workload" >> "$manifest"
echo "import_openbench: $file, $games games, $positions positions; commit it with $manifest"
