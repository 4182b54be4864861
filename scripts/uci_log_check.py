#!/usr/bin/env python3
"""uci_log_check.py - checks logged UCI sessions of an engine (written by the wrapper `scripts/match.sh soak` puts in
front of Corvid): for every process, each `go` got exactly one `bestmove`, and the last `info ... pv` of line 1
before each `bestmove` starts with the best move and, when a ponder move is given, continues with it.

  uci_log_check.py LOGDIR         (LOGDIR holds NAME.in / NAME.out pairs, one per engine process)

Prints one line per problem (at most 20 per kind) and a summary; exits 1 when there is any problem.
"""
import collections
import os
import sys


def pv_of(tokens):
    return tokens[tokens.index("pv") + 1:] if "pv" in tokens else []


def check_out(path, problems):
    """Returns the number of bestmoves in one output log; appends problems."""
    last_pv, bestmoves = None, 0
    with open(path, errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            t = line.split()
            if not t:
                continue
            if t[0] == "info" and "pv" in t:
                multipv = t[t.index("multipv") + 1] if "multipv" in t[:-1] else "1"
                if multipv == "1":
                    last_pv = pv_of(t)
            elif t[0] == "bestmove":
                bestmoves += 1
                best = t[1] if len(t) > 1 else ""
                ponder = t[3] if len(t) > 3 and t[2] == "ponder" else None
                where = "%s:%d" % (path, n)
                if best != "(none)":
                    if not last_pv:
                        problems["no pv before bestmove"].append(where)
                    elif last_pv[0] != best:
                        problems["bestmove does not start the last pv"].append(
                            "%s: bestmove %s, pv %s" % (where, best, " ".join(last_pv[:3])))
                    elif ponder is not None and (len(last_pv) < 2 or last_pv[1] != ponder):
                        problems["ponder is not the pv's second move"].append(
                            "%s: ponder %s, pv %s" % (where, ponder, " ".join(last_pv[:3])))
                last_pv = None
    return bestmoves


def count_go(path):
    with open(path, errors="replace") as fh:
        return sum(1 for line in fh if line.split()[:1] == ["go"])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    logdir = sys.argv[1]
    problems = collections.defaultdict(list)
    outs = sorted(f for f in os.listdir(logdir) if f.endswith(".out"))
    total_go = total_best = 0
    for f in outs:
        out = os.path.join(logdir, f)
        best = check_out(out, problems)
        inp = out[:-4] + ".in"
        go = count_go(inp) if os.path.exists(inp) else best
        total_go, total_best = total_go + go, total_best + best
        if go != best:
            problems["go without exactly one bestmove"].append("%s: %d go, %d bestmove" % (out, go, best))
    for kind, items in sorted(problems.items()):
        print("%s x%d" % (kind, len(items)))
        for item in items[:20]:
            print("  " + item)
    print("%d engine processes, %d go, %d bestmove, %d problems" % (
        len(outs), total_go, total_best, sum(len(v) for v in problems.values())))
    sys.exit(1 if problems or not outs else 0)


if __name__ == "__main__":
    main()
