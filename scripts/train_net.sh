#!/usr/bin/env bash
# From the committed games to a net: remakes a net that nets/recipes.tsv records, or trains a new one and
# records it there. A recipe is one line: the net's name and SHA-256, its parent net (the weights training
# starts from) and that file's SHA-256, the training and validation chunks (files of nets/games/manifest.tsv,
# whose SHA-256 each chunk must still have), the trainer's flags and which of its files is the net.
#
#   scripts/train_net.sh NAME [--out DIR] [--dry-run]     remake NAME into nnue-runs/NAME/ and compare SHA-256s
#   scripts/train_net.sh --new NAME --parent NET --chunks 'GLOB ...' [--val FILE] [--take FILE]
#                        [--out DIR] [--dry-run] [-- TRAINER FLAGS...]
#                                                          train a new net and append its recipe
#   scripts/train_net.sh --list                            the recipes: chunks, games and positions of each
#
# NET is a file, a git object REV:PATH (e.g. 6366463:nets/corvid.nnue) or `-` (random weights). A parent
# that is a committed file as HEAD has it is recorded as REV:PATH with the commit that last changed it, so
# the recipe still finds it once the file changes. Chunks are listed in the recipe exactly, consecutive
# seeds as ranges (nets/games/gen5/s{5000..5019}.vf), in the order the trainer reads them; a chunk given as
# validation is left out of training. Trainer flags are words without spaces. The exit status is 1 when a
# remade net's SHA-256 differs from the recorded one.
set -euo pipefail
export LC_ALL=C # globs sort the same everywhere
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

recipes="nets/recipes.tsv"
manifest="nets/games/manifest.tsv"
header=$'name\tsha256\tparent\tparent_sha256\ttrain\tval\ttrainer_flags\tnet_file'
trainer="target/release/train_nnue"

usage() {
    sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
die() {
    echo "train_net: $*" >&2
    exit 1
}

dry=0 new="" name="" parent="" chunks="" val="" take="" out="" list=0
flags=()
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry=1; shift ;;
        --new) new="${2:?--new NAME}"; shift 2 ;;
        --parent) parent="${2:?--parent NET}"; shift 2 ;;
        --chunks) chunks="${2:?--chunks GLOBS}"; shift 2 ;;
        --val) val="${2:?--val FILE}"; shift 2 ;;
        --take) take="${2:?--take FILE}"; shift 2 ;;
        --out) out="${2:?--out DIR}"; shift 2 ;;
        --list) list=1; shift ;;
        --) shift; flags=("$@"); break ;;
        -h|--help) usage ;;
        -*) die "unknown option $1 (trainer flags go after --)" ;;
        *) [ -z "$name" ] || die "one net at a time ($name, $1)"; name="$1"; shift ;;
    esac
done

# Prints a command, then runs it unless this is a dry run.
run() {
    echo "+ $(printf '%q ' "$@")"
    [ "$dry" = 1 ] || "$@"
}

# The recipe line of a net, or nothing.
recipe_of() { if [ -f "$recipes" ]; then awk -F'\t' -v n="$1" 'NR > 1 && $1 == n' "$recipes"; fi; }

# A chunk's field from the manifest (2 seed, 5 games, 6 positions, 8 sha256), or nothing.
manifest_field() { awk -F'\t' -v f="$1" -v k="$2" 'NR > 1 && $1 == f { print $k }' "$manifest"; }

# The files of a chunk list, one a line: words separated by spaces, each a path or a path with one
# numeric range {A..B}.
expand() {
    local w i
    local -a words
    read -r -a words <<<"$1"
    for w in "${words[@]}"; do
        if [[ $w =~ ^(.*)\{([0-9]+)\.\.([0-9]+)\}(.*)$ ]]; then
            for ((i = 10#${BASH_REMATCH[2]}; i <= 10#${BASH_REMATCH[3]}; i++)); do
                echo "${BASH_REMATCH[1]}$i${BASH_REMATCH[4]}"
            done
        else
            echo "$w"
        fi
    done
}

# The chunk list of files, in their order: runs of consecutive seeds (no leading zeros) become ranges.
compact() {
    local -a words=()
    local pre="" suf="" first="" last="" f
    flush() {
        [ -n "$first" ] || return 0
        if [ "$first" = "$last" ]; then words+=("$pre$first$suf"); else words+=("$pre{$first..$last}$suf"); fi
        first=""
    }
    for f in "$@"; do
        if [[ $f =~ ^(.*[^0-9])(0|[1-9][0-9]*)([^0-9]*)$ ]]; then
            local p="${BASH_REMATCH[1]}" n="${BASH_REMATCH[2]}" s="${BASH_REMATCH[3]}"
            if [ -n "$first" ] && [ "$p" = "$pre" ] && [ "$s" = "$suf" ] && [ "$n" = $((last + 1)) ]; then
                last="$n"
                continue
            fi
            flush
            pre="$p" suf="$s" first="$n" last="$n"
        else
            flush
            words+=("$f")
        fi
    done
    flush
    echo "${words[*]}"
}

# Checks that every chunk is in the manifest with the SHA-256 it records; prints the games and positions.
check_chunks() {
    local what="$1" f sha games=0 positions=0
    shift
    [ $# -gt 0 ] || die "no $what chunks"
    for f in "$@"; do
        sha="$(manifest_field "$f" 8)"
        [ -n "$sha" ] || die "$f is not in $manifest (only committed, complete chunks are trained on)"
        [ -f "$f" ] || die "$f is missing"
        [ "$(sha256sum "$f" | cut -d' ' -f1)" = "$sha" ] || die "$f is not the chunk $manifest records (SHA-256)"
        games=$((games + $(manifest_field "$f" 5)))
        positions=$((positions + $(manifest_field "$f" 6)))
    done
    echo "$what: $# chunk(s), $games games, $positions positions (SHA-256 as $manifest records)"
}

# The parent net's bytes on stdout: a file, or a git object REV:PATH.
parent_bytes() {
    if [ -f "$parent" ]; then
        cat "$parent"
    else
        git show "$parent"
    fi
}

if [ "$list" = 1 ]; then
    [ -f "$recipes" ] || die "no $recipes"
    tail -n +2 "$recipes" | while IFS=$'\t' read -r n sha p _ train v fl nf; do
        mapfile -t files < <(expand "$train")
        games=0 positions=0
        for f in "${files[@]}"; do
            g="$(manifest_field "$f" 5)" pos="$(manifest_field "$f" 6)"
            [ -n "$g" ] || echo "warning: $n: $f is not in $manifest" >&2
            games=$((games + ${g:-0})) positions=$((positions + ${pos:-0}))
        done
        echo "$n ${sha:0:16}: from $p on ${#files[@]} chunks ($train; $games games, $positions positions), validation $v, flags: $fl, net $nf"
    done
    exit 0
fi

[ -n "$new" ] || [ -n "$name" ] || usage
if [ -n "$new" ]; then
    [ -z "$name" ] || die "--new $new and $name: one net at a time"
    name="$new"
fi
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || die "a net's name is letters, digits, '.', '_' and '-': $name"
out="${out:-nnue-runs/$name}"

if [ -z "$new" ]; then
    # Remake a recorded net: everything but the directory comes from its recipe.
    if [ -n "$parent$chunks$val$take" ] || [ "${#flags[@]}" -gt 0 ]; then
        die "--parent, --chunks, --val, --take and trainer flags are for --new; $name's are in $recipes"
    fi
    line="$(recipe_of "$name")"
    [ -n "$line" ] || die "no net $name in $recipes (--list shows them)"
    IFS=$'\t' read -r _ want parent parent_sha train val flag_text take <<<"$line"
    [ "$flag_text" = "-" ] || read -r -a flags <<<"$flag_text"
    echo "remaking $name (SHA-256 $want) into $out/"
else
    [ -z "$(recipe_of "$name")" ] || die "$recipes already has a net $name"
    [ -n "$parent" ] && [ -n "$chunks" ] || die "--new needs --parent NET (or -) and --chunks 'GLOB ...'"
    for f in "${flags[@]}"; do
        case "$f" in
            --init|--resume|--out-dir|--val) die "$f is the script's to set" ;;
        esac
    done
    take="${take:-final.nnue}"
    # Globs, expanded here in the order the shell sorts them; each must name a file.
    shopt -s nullglob
    read -r -a patterns <<<"$chunks"
    train_files=()
    for p in "${patterns[@]}"; do
        # shellcheck disable=SC2206 # the pattern is a glob
        matched=($p)
        [ "${#matched[@]}" -gt 0 ] || die "--chunks: $p names no file"
        train_files+=("${matched[@]}")
    done
    val_files=()
    if [ -n "$val" ]; then
        # shellcheck disable=SC2206
        val_files=($val)
    fi
    shopt -u nullglob
    [ "${#val_files[@]}" -le 1 ] || die "--val names ${#val_files[@]} files; the trainer takes one"
    if [ -n "$val" ]; then
        [ "${#val_files[@]}" = 1 ] || die "--val $val names no file"
        kept=()
        for f in "${train_files[@]}"; do [ "$f" = "${val_files[0]}" ] || kept+=("$f"); done
        train_files=("${kept[@]}")
    fi
    [ "${#train_files[@]}" -gt 0 ] || die "--chunks $chunks names no file"
    train="$(compact "${train_files[@]}")"
    val="${val_files[0]:--}"
    parent_sha=""
    if [ "$parent" != "-" ] && [ -f "$parent" ] && git ls-files --error-unmatch "$parent" >/dev/null 2>&1 &&
        git diff --quiet HEAD -- "$parent"; then
        # The commit that last changed it: the file as HEAD has it.
        parent="$(git log -1 --format=%h -- "$parent"):$parent"
    elif [ "$parent" != "-" ] && [ -f "$parent" ]; then
        echo "note: the parent $parent is not a committed file: the recipe needs that file to remake the net" >&2
    fi
    want=""
fi

if [ "$parent" != "-" ] && [ ! -f "$parent" ] && ! { [[ $parent == *:* ]] && git cat-file -e "$parent" 2>/dev/null; }; then
    die "the parent $parent is neither a file nor a git object REV:PATH"
fi
mapfile -t train_files < <(expand "$train")
check_chunks training "${train_files[@]}"
val_args=()
if [ "$val" != "-" ]; then
    mapfile -t val_files < <(expand "$val")
    [ "${#val_files[@]}" = 1 ] || die "validation: ${#val_files[@]} files; the trainer takes one"
    check_chunks validation "${val_files[@]}"
    val_args=(--val "${val_files[0]}")
fi

if [ "$dry" = 0 ] && [ -e "$out/$take" ]; then
    die "$out/$take exists (an earlier run): remove $out or choose another --out"
fi
run mkdir -p "$out"
init_args=()
if [ "$parent" != "-" ]; then
    echo "+ parent $parent -> $out/parent.nnue"
    if [ "$dry" = 1 ]; then
        got="$(parent_bytes | sha256sum | cut -d' ' -f1)"
    else
        parent_bytes >"$out/parent.nnue"
        got="$(sha256sum "$out/parent.nnue" | cut -d' ' -f1)"
    fi
    if [ -n "$parent_sha" ] && [ "$got" != "$parent_sha" ]; then
        die "the parent $parent has SHA-256 $got, the recipe records $parent_sha"
    fi
    parent_sha="$got"
    echo "parent: $parent, SHA-256 $parent_sha"
    init_args=(--init "$out/parent.nnue")
else
    parent_sha="-"
fi
run cargo build --release --bin train_nnue
run "$trainer" train "${train_files[@]}" "${val_args[@]}" "${init_args[@]}" "${flags[@]}" --out-dir "$out"
if [ "$dry" = 1 ]; then
    if [ -n "$new" ]; then
        echo "the recipe line it would append to $recipes:"
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "<SHA-256 of $out/$take>" "$parent" \
            "$parent_sha" "$train" "$val" "${flags[*]:--}" "$take"
    fi
    exit 0
fi

[ -f "$out/$take" ] || die "the trainer wrote no $out/$take"
got="$(sha256sum "$out/$take" | cut -d' ' -f1)"
if [ -z "$new" ]; then
    if [ "$got" = "$want" ]; then
        echo "$name: $out/$take has SHA-256 $got, the recorded one: remade exactly"
    else
        echo "$name: $out/$take has SHA-256 $got, NOT the recorded $want" >&2
        exit 1
    fi
else
    [ -f "$recipes" ] || echo "$header" >"$recipes"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$got" "$parent" "$parent_sha" "$train" "$val" \
        "${flags[*]:--}" "$take" >>"$recipes"
    echo "$name: $out/$take, SHA-256 $got; its recipe is now in $recipes:"
    tail -n 1 "$recipes"
fi
