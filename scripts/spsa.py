#!/usr/bin/env python3
"""SPSA tuning of Corvid's tunables through fastchess, resumable from a state file.

Each iteration perturbs every tuned value by +-c_k (a random sign per value), plays `--pairs` game pairs
(each opening with both colours) between the engine at theta+ and at theta-, and moves theta by
r_k * c_k * (wins - losses of theta+) * sign. The schedule is OpenBench's: alpha 0.602, gamma 0.101,
A = a tenth of the iterations, and each value's c_end / r_end from the engine's `tunables` lines.

The engine must be a `tune` build (`cargo build --release --features tune`), which offers every tunable as
a UCI option and prints them with the `tunables` command. The state file (JSON: the iteration reached, theta,
the games played) is rewritten after every iteration, so a run stopped at any point (or on another machine,
with the file committed) goes on where it was with the same command.

  cargo build --release --features tune --target-dir target-tune
  scripts/spsa.py --engine target-tune/release/corvid --state jobs/NAME/spsa.json --iterations 2000 \\
      --tc 3+0.03 --openings ../shared/tools/openings.epd [--params lmr_base,rfp_margin]

`--print` shows theta, rounded, as `name = value` lines (and the change from each default). `--write`
puts theta, rounded as the engine rounds an option, into each value's declaration in `src/` (the
`tunables!` lists), so that an ordinary build plays the tuned values: the change an SPRT then measures.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ALPHA = 0.602
GAMMA = 0.101


def engine_tunables(engine):
    """The engine's tunables: name -> (default, min, max, c_end, r_end), from its `tunables` command."""
    out = subprocess.run([engine], input="tunables\nquit\n", capture_output=True, text=True,
                         timeout=60).stdout
    params = {}
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 7 or parts[1] != "int":
            continue
        name = parts[0]
        default, lo, hi, c_end, r_end = (float(x) for x in parts[2:])
        params[name] = {"default": default, "min": lo, "max": hi, "c_end": c_end, "r_end": r_end}
    if not params:
        sys.exit(f"{engine} printed no tunables: is it a `tune` build (--features tune)?")
    return params


def fresh_state(params, chosen, iterations):
    names = chosen or sorted(params)
    unknown = [n for n in names if n not in params]
    if unknown:
        sys.exit(f"not tunables of this engine: {', '.join(unknown)}")
    return {
        "iterations": iterations,
        "done": 0,
        "games": 0,
        "wins": 0,
        "losses": 0,
        "draws": 0,
        "params": {n: dict(params[n], value=params[n]["default"]) for n in names},
    }


def schedule(p, k, iterations):
    """(c_k, r_k) for one value at iteration k (0-based)."""
    big_a = iterations / 10.0
    c = p["c_end"] * iterations ** GAMMA
    a_end = p["r_end"] * p["c_end"] ** 2
    a = a_end * (big_a + iterations) ** ALPHA
    c_k = c / (k + 1) ** GAMMA
    a_k = a / (big_a + k + 1) ** ALPHA
    return c_k, a_k / c_k ** 2


def play(args, plus, minus, seed):
    """Plays args.pairs pairs between theta+ and theta-; returns (wins, losses, draws) of theta+."""
    def engine(name, values):
        opts = [f"option.{n}={round(v)}" for n, v in values.items()]
        return ["-engine", f"cmd={args.engine}", f"name={name}"] + opts

    # Fixed nodes make the games indifferent to what else the machine runs (datagen beside the tune).
    limit = f"nodes={args.nodes}" if args.nodes else f"tc={args.tc}"
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [args.fastchess] + engine("plus", plus) + engine("minus", minus) + [
            "-each", "proto=uci", limit, f"option.Hash={args.hash}", "option.Threads=1",
            "-rounds", str(args.pairs), "-games", "2", "-repeat",
            "-concurrency", str(args.concurrency), "-recover", "-srand", str(seed),
            "-openings", f"file={args.openings}", "format=epd", "order=random",
            "-pgnout", f"file={os.path.join(tmp, 'games.pgn')}",
        ]
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
    found = re.findall(r"Wins: (\d+), Losses: (\d+), Draws: (\d+)", out)
    if not found:
        sys.exit("fastchess printed no result:\n" + out[-2000:])
    w, l, d = (int(x) for x in found[-1])
    if w + l + d != 2 * args.pairs:
        sys.exit(f"fastchess finished {w + l + d} of {2 * args.pairs} games:\n" + out[-2000:])
    return w, l, d


def write_defaults(state, src):
    """Writes each tuned value of STATE, rounded to its option unit, as the default of its one declaration
    under SRC (`name: type = default, min, max;`). Returns the changes as (file, name, old, new) and leaves
    every file untouched when a name is declared other than once."""
    files = {}
    for folder, _, names in os.walk(src):
        for n in names:
            if n.endswith(".rs"):
                with open(os.path.join(folder, n)) as f:
                    files[os.path.join(folder, n)] = f.read()
    edits, changes = {}, []
    for name, p in sorted(state["params"].items()):
        pattern = re.compile(rf"^(\s*{re.escape(name)}:\s*(i32|u32|u64|f64)\s*=\s*)(-?[0-9.]+)(\s*,)", re.M)
        hits = [(path, m) for path, text in files.items() for m in pattern.finditer(text)]
        if len(hits) != 1:
            sys.exit(f"{name} is declared {len(hits)} times under {src}, not once: nothing written")
        path, m = hits[0]
        option = round(p["value"])
        if m.group(2) == "f64":  # a float's option is in hundredths
            new = f"{option / 100:.2f}".rstrip("0")
            new += "0" if new.endswith(".") else ""
        else:
            new = str(option)
        if new != m.group(3):
            edits.setdefault(path, []).append((m.start(3), m.end(3), new))
            changes.append((path, name, m.group(3), new))
    for path, spans in edits.items():
        text = files[path]
        for start, end, new in sorted(spans, reverse=True):
            text = text[:start] + new + text[end:]
        with open(path, "w") as f:
            f.write(text)
    return changes


def save(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", help="a `tune` build of corvid (not needed for --print and --write)")
    ap.add_argument("--state", required=True, help="JSON state file (created, then resumed)")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--pairs", type=int, default=2, help="game pairs per iteration")
    ap.add_argument("--tc", default="3+0.03")
    ap.add_argument("--nodes", type=int, help="nodes per move instead of a time control")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--openings", default=os.path.join(os.path.dirname(__file__),
                                                       "../../shared/tools/openings.epd"))
    ap.add_argument("--params", help="comma-separated tunables (default: all)")
    ap.add_argument("--stop-after", type=int, help="end after this many iterations of this run")
    ap.add_argument("--fastchess", default="fastchess")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--print", action="store_true", help="print theta and exit")
    ap.add_argument("--write", metavar="SRC", nargs="?", const=os.path.join(os.path.dirname(__file__), "..", "src"),
                    help="write theta into the tunables' declarations under SRC (default: the repository's src/)"
                         " and exit")
    args = ap.parse_args()

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
    else:
        if not args.engine:
            sys.exit(f"no state {args.state} yet: a new run needs --engine")
        chosen = [p.strip() for p in args.params.split(",")] if args.params else None
        state = fresh_state(engine_tunables(args.engine), chosen, args.iterations)
        save(args.state, state)
    if args.write:
        for path, name, old, new in write_defaults(state, args.write):
            print(f"{os.path.relpath(path)}: {name} {old} -> {new}")
        return
    if args.print:
        for n, p in sorted(state["params"].items()):
            print(f"{n} = {round(p['value'])}  (default {round(p['default'])}, now {p['value']:.2f})")
        print(f"# {state['done']} of {state['iterations']} iterations, {state['games']} games "
              f"(+{state['wins']} ={state['draws']} -{state['losses']} for theta+)")
        return

    if not args.engine:
        sys.exit("playing needs --engine (a `tune` build)")
    iterations = state["iterations"]
    run = 0
    while state["done"] < iterations and (args.stop_after is None or run < args.stop_after):
        k = state["done"]
        rng = random.Random(args.seed * 1_000_003 + k)
        plus, minus, steps = {}, {}, {}
        for n, p in state["params"].items():
            c_k, r_k = schedule(p, k, iterations)
            sign = rng.choice((-1, 1))
            plus[n] = min(p["max"], max(p["min"], p["value"] + c_k * sign))
            minus[n] = min(p["max"], max(p["min"], p["value"] - c_k * sign))
            steps[n] = (c_k, r_k, sign)
        w, l, d = play(args, plus, minus, seed=args.seed * 1_000_003 + k)
        for n, p in state["params"].items():
            c_k, r_k, sign = steps[n]
            p["value"] = min(p["max"], max(p["min"], p["value"] + r_k * c_k * (w - l) * sign))
        state["done"] = k + 1
        state["games"] += w + l + d
        state["wins"] += w
        state["losses"] += l
        state["draws"] += d
        save(args.state, state)
        run += 1
        print(f"iteration {k + 1}/{iterations}: theta+ +{w} ={d} -{l}", flush=True)


if __name__ == "__main__":
    main()
