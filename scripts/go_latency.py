#!/usr/bin/env python3
"""`go`-to-first-`info` latency of UCI engines, alternating between them in one run.

    scripts/go_latency.py ENGINE [ENGINE...] [--runs 300] [--threads 1] [--go "go depth 1"]

For each engine: one process, `isready` before every `go`, then the time from writing `go` to reading the
first `info` line and to `bestmove`. Prints the median and the 90th percentile of both, in microseconds.
"""
import argparse
import statistics
import subprocess
import time


def start(cmd, threads):
    p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    send(p, "uci")
    wait(p, "uciok")
    send(p, f"setoption name Threads value {threads}")
    send(p, "position startpos moves e2e4 e7e5")
    return p


def send(p, line):
    p.stdin.write(line + "\n")
    p.stdin.flush()


def wait(p, prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("engine exited")
        if line.startswith(prefix):
            return line


def one(p, go):
    send(p, "isready")
    wait(p, "readyok")
    t0 = time.perf_counter()
    send(p, go)
    wait(p, "info")
    t1 = time.perf_counter()
    wait(p, "bestmove")
    t2 = time.perf_counter()
    return (t1 - t0) * 1e6, (t2 - t0) * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--go", default="go depth 1")
    a = ap.parse_args()
    procs = [start(e, a.threads) for e in a.engines]
    samples = [([], []) for _ in procs]
    for _ in range(a.runs):
        for p, (first, done) in zip(procs, samples):
            f, d = one(p, a.go)
            first.append(f)
            done.append(d)
    for e, (first, done) in zip(a.engines, samples):
        q = lambda v: sorted(v)[int(len(v) * 0.9)]
        print(f"{e}: first info median {statistics.median(first):.0f} us (p90 {q(first):.0f}), "
              f"bestmove median {statistics.median(done):.0f} us (p90 {q(done):.0f}), {a.runs} runs, "
              f"Threads {a.threads}")
    for p in procs:
        send(p, "quit")


if __name__ == "__main__":
    main()
