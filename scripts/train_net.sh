#!/usr/bin/env bash
# The NNUE pipeline in one command: datagen -> train -> export -> install (nets/corvid.nnue + build) -> SPRT.
# Every step prints the command it runs, and each can be skipped, so a run can be resumed at any step:
#
#   scripts/train_net.sh --positions 5000000                      # everything, into nnue-runs/net-DATE/
#   scripts/train_net.sh --run nnue-runs/a --skip-datagen --data data/a.bin --epochs 30
#   scripts/train_net.sh --run nnue-runs/a --skip-datagen --skip-train --checkpoint nnue-runs/a/train/epoch12.ckpt
#   scripts/train_net.sh ... --skip-sprt        # stop after building the NNUE binary
#   scripts/train_net.sh ... --dry-run          # print the commands only
#
# Datagen appends to its file and is resumable, so rerunning the same command continues it. Training writes
# RUN/train/epochN.{ckpt,nnue} and RUN/train/final.nnue; `--train-args "--resume RUN/train/epochN.ckpt"`
# continues a stopped training. The install step keeps a copy of the tree's current binary as the SPRT
# baseline (RUN/corvid-old, unless --old is given) and any previous nets/corvid.nnue as RUN/previous.nnue.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

usage() {
    cat >&2 <<'EOF'
usage: scripts/train_net.sh [options]
  --run DIR            this run's directory (default nnue-runs/net-YYYYmmdd-HHMMSS)
  --dry-run            print the commands without running them
 datagen:
  --skip-datagen       use existing data (--data FILE)
  --data FILE          training data (default RUN/data.bin); datagen appends to it
  --positions N        positions to generate (default 5000000)
  --nodes N            nodes per move in datagen (default 5000)
  --datagen-threads T  (default: all cores)
  --seed S             datagen and training seed (default 1)
 train:
  --skip-train         use an existing net (--net FILE, --checkpoint C, or RUN/train/final.nnue)
  --hidden H           accumulator width (default 256)
  --epochs E           (default 20)
  --lambda L           result weight in the target (default 0.0)
  --lr LR              peak AdamW learning rate (default 0.001)
  --threads T          training threads (default: all cores)
  --train-args "..."   more options for `train_nnue train` (e.g. "--val v.bin --batch 32768")
 export / install:
  --checkpoint C       export this checkpoint (train_nnue export) instead of the final net
  --net FILE           install this net file
  --skip-install       do not copy the net to nets/corvid.nnue and rebuild
  --old BINARY         the SPRT baseline (default: RUN/corvid-old, the tree's build before the install)
 sprt:
  --skip-sprt          stop before the SPRT
  --sprt-args "..."    options for scripts/sprt.sh (default "--elo0 0 --elo1 5 --tc 10+0.1")
EOF
    exit 2
}

run_dir="nnue-runs/net-$(date -u +%Y%m%d-%H%M%S)"
dry=0 skip_datagen=0 skip_train=0 skip_install=0 skip_sprt=0
data="" positions=5000000 nodes=5000 seed=1
datagen_threads="$(nproc)" threads="$(nproc)"
hidden=256 epochs=20 lambda=0.0 lr=0.001 train_args=""
checkpoint="" net="" old="" sprt_args="--elo0 0 --elo1 5 --tc 10+0.1"
while [ $# -gt 0 ]; do
    case "$1" in
        --run) run_dir="${2:?}"; shift 2 ;;
        --dry-run) dry=1; shift ;;
        --skip-datagen) skip_datagen=1; shift ;;
        --data) data="${2:?}"; shift 2 ;;
        --positions) positions="${2:?}"; shift 2 ;;
        --nodes) nodes="${2:?}"; shift 2 ;;
        --datagen-threads) datagen_threads="${2:?}"; shift 2 ;;
        --seed) seed="${2:?}"; shift 2 ;;
        --skip-train) skip_train=1; shift ;;
        --hidden) hidden="${2:?}"; shift 2 ;;
        --epochs) epochs="${2:?}"; shift 2 ;;
        --lambda) lambda="${2:?}"; shift 2 ;;
        --lr) lr="${2:?}"; shift 2 ;;
        --threads) threads="${2:?}"; shift 2 ;;
        --train-args) train_args="${2?}"; shift 2 ;;
        --checkpoint) checkpoint="${2:?}"; shift 2 ;;
        --net) net="${2:?}"; shift 2 ;;
        --skip-install) skip_install=1; shift ;;
        --old) old="${2:?}"; shift 2 ;;
        --skip-sprt) skip_sprt=1; shift ;;
        --sprt-args) sprt_args="${2?}"; shift 2 ;;
        -h|--help) usage ;;
        *) echo "unknown option: $1" >&2; usage ;;
    esac
done
data="${data:-$run_dir/data.bin}"

# Prints a command, then runs it unless this is a dry run.
run() {
    echo "+ $(printf "%q " "$@")"
    [ "$dry" = 1 ] || "$@"
}
step() { echo; echo "=== $* ==="; }

run mkdir -p "$run_dir"
echo "run directory: $run_dir"

if [ "$skip_datagen" = 0 ] || [ "$skip_install" = 0 ]; then
    step "build the engine (datagen, and the SPRT baseline)"
    run cargo build --release --bin corvid
    if [ "$skip_install" = 0 ] && [ -z "$old" ]; then
        old="$run_dir/corvid-old"
        # A rerun keeps the first baseline: the tree may already hold this run's net by now.
        if [ -f "$old" ]; then
            echo "keeping the baseline $old from an earlier attempt of this run"
        else
            run cp target/release/corvid "$old"
        fi
    fi
fi
step "build the trainer"
run cargo build --release --bin train_nnue

if [ "$skip_datagen" = 0 ]; then
    step "datagen: $positions positions at $nodes nodes into $data"
    run target/release/corvid datagen --out "$data" --positions "$positions" --threads "$datagen_threads" \
        --nodes "$nodes" --seed "$seed"
else
    echo "skipping datagen (data: $data)"
fi

if [ "$skip_train" = 0 ]; then
    step "train: H = $hidden, $epochs epochs, lambda $lambda, lr $lr"
    # shellcheck disable=SC2086 # train_args is a list of options
    run target/release/train_nnue train "$data" --out-dir "$run_dir/train" --hidden "$hidden" \
        --epochs "$epochs" --lambda "$lambda" --lr "$lr" --threads "$threads" --seed "$seed" $train_args
else
    echo "skipping training"
fi

step "export"
if [ -n "$checkpoint" ]; then
    net="$run_dir/net.nnue"
    run target/release/train_nnue export --checkpoint "$checkpoint" --out "$net"
elif [ -z "$net" ]; then
    net="$run_dir/train/final.nnue"
    echo "net: $net (the trainer's final export)"
fi
if [ "$dry" = 0 ] && [ ! -f "$net" ]; then
    echo "error: no net file $net" >&2
    exit 1
fi
run target/release/train_nnue eval --net "$net" --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

new="$run_dir/corvid-new"
if [ "$skip_install" = 0 ]; then
    step "install: $net -> nets/corvid.nnue, build, binary -> $new"
    if [ -f nets/corvid.nnue ]; then
        run cp nets/corvid.nnue "$run_dir/previous.nnue"
    fi
    run mkdir -p nets
    run cp "$net" nets/corvid.nnue
    run cargo build --release --bin corvid
    run cp target/release/corvid "$new"
    if [ "$dry" = 0 ] && [ -n "$old" ] && cmp -s "$old" "$new"; then
        echo "error: $new is identical to $old: the build did not embed nets/corvid.nnue" >&2
        echo "  (the engine's build must watch that file, e.g. cargo:rerun-if-changed=nets/corvid.nnue)" >&2
        exit 1
    fi
else
    echo "skipping install (nets/corvid.nnue untouched)"
fi

if [ "$skip_sprt" = 0 ]; then
    if [ -z "$old" ] && [ -f "$run_dir/corvid-old" ]; then
        old="$run_dir/corvid-old"
    fi
    if [ -z "$old" ]; then
        echo "error: no SPRT baseline: pass --old BINARY (or let the install step keep one)" >&2
        exit 1
    fi
    step "SPRT: $new against $old"
    # shellcheck disable=SC2086 # sprt_args is a list of options
    run scripts/sprt.sh "$new" "$old" $sprt_args
else
    echo "skipping the SPRT; to run it: scripts/sprt.sh $new ${old:-OLD_BINARY} $sprt_args"
fi
