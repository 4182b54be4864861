#!/usr/bin/env python3
"""Corvid's workloads on an OpenBench server, from the command line (docs/openbench.md).

OpenBench scripts tests and network uploads (its Scripts/create_test.py and upload_net.py); tunes and data
generation are created through its web forms. This does the same as a user at those forms would, logged in:

  openbench.py datagen --games 500 --tc N=5000            a DATAGEN workload (random 8-ply openings, PGNs kept)
  openbench.py tune --tc N=25000 --iterations 20 --params lmr_base,lmr_divisor [--branch tune]
  openbench.py pgns ID --out DIR                           a finished workload's PGNs (then import_openbench.sh)
  openbench.py status ID                                   games, LLR; for a tune its current values

Server and account: --server/--user/--password or OPENBENCH_SERVER/_USERNAME/_PASSWORD.
"""
import argparse
import os
import re
import subprocess
import sys

import requests

REPO = "https://github.com/corvid-engine/corvid"


def csrf_token(page):
    """The token Django's forms carry, which a POST must send back."""
    return re.search(r'name="csrfmiddlewaretoken"[^>]*value="([^"]+)"', page).group(1)


def session(a):
    s = requests.Session()
    token = csrf_token(s.get(a.server + "/login/").text)
    r = s.post(a.server + "/login/", data={"username": a.user, "password": a.password,
                                            "csrfmiddlewaretoken": token},
               headers={"Referer": a.server + "/login/"})
    if "logout" not in r.text.lower():
        sys.exit("openbench.py: login refused")
    return s


def submit(a, kind, fields):
    """Posts a workload form; prints the new workload's address or the server's errors."""
    s = session(a)
    url = f"{a.server}/{kind}/new/"
    r = s.post(url, data=dict(fields, csrfmiddlewaretoken=csrf_token(s.get(url).text)), headers={"Referer": url})
    errors = re.findall(r'<div class="error-message">\s*<pre>(.*?)</pre>', r.text, re.S)
    if errors or f"/{kind}/new/" in r.url:
        sys.exit("openbench.py: the server refused it: " + "; ".join(e.strip() for e in errors))
    ids = re.findall(rf'href="/{kind}/(\d+)/"', s.get(f"{a.server}/index/").text)
    print(f"created: {a.server}/{kind}/{max(map(int, ids))}/" if ids else "created")


def common(a):
    return {"dev_engine": "Corvid", "dev_repo": a.repo, "dev_branch": a.branch, "dev_bench": "",
            "dev_network": a.network, "dev_options": a.options, "dev_time_control": a.tc,
            "book_name": a.book, "info": a.info, "priority": "0", "throughput": "1000",
            "syzygy_wdl": "DISABLED", "syzygy_adj": "OPTIONAL", "scale_method": "BOTH", "scale_nps": "1000000"}


def cmd_datagen(a):
    f = common(a)
    # A DATAGEN form has a base engine too; the games are the dev engine's against itself.
    f.update({k.replace("dev_", "base_"): v for k, v in f.items() if k.startswith("dev_")})
    f.update({"upload_pgns": "COMPACT", "datagen_max_games": str(a.games),
              "datagen_custom_genfens": "dfrc" if a.dfrc else "", "datagen_play_reverses": "NO",
              "workload_size": str(a.workload_size), "win_adj": "None", "draw_adj": "None"})
    submit(a, "datagen", f)


def cmd_tune(a):
    """The SPSA inputs are what the tune build's `tunables` command prints, for the parameters asked."""
    exe = a.engine
    lines = subprocess.run([exe], input="tunables\nquit\n", capture_output=True, text=True, check=True).stdout
    rows = {ln.split(",")[0].strip(): ln.strip() for ln in lines.splitlines() if ln.count(",") == 6}
    missing = [p for p in a.params.split(",") if p not in rows]
    if missing:
        sys.exit(f"openbench.py: {exe} has no tunable {', '.join(missing)} (a `make TUNE=1` build?)")
    f = common(a)
    f.update({"spsa_inputs": "\n".join(rows[p] for p in a.params.split(",")),
              "spsa_reporting_type": "BATCHED", "spsa_distribution_type": "SINGLE",
              "spsa_alpha": "0.602", "spsa_gamma": "0.101", "spsa_A_ratio": "0.1",
              "spsa_iterations": str(a.iterations), "spsa_pairs_per": str(a.pairs),
              "upload_pgns": "FALSE", "win_adj": "movecount=3 score=400",
              "draw_adj": "movenumber=40 movecount=8 score=10"})
    submit(a, "tune", f)


def cmd_pgns(a):
    r = requests.get(f"{a.server}/api/pgns/{a.id}/")
    if r.status_code != 200 or not r.content:
        sys.exit(f"openbench.py: no PGNs for workload {a.id} (HTTP {r.status_code})")
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"{a.id}.pgn.tar")
    with open(path, "wb") as f:
        f.write(r.content)
    print(f"{path}: {len(r.content)} bytes")


def cmd_status(a):
    info = requests.get(f"{a.server}/api/workload/{a.id}/info/").json()["info"]
    mode, games = info["test_mode"], info["games"]
    line = f"workload {a.id}: {mode}, {games} games, {'finished' if info['finished'] else 'running'}"
    if mode == "SPRT":
        line += (f", LLR {info['currentllr']:.2f} of [{info['lowerllr']:.2f}, {info['upperllr']:.2f}]"
                 f" for [{info['elolower']}, {info['eloupper']}]"
                 + (", passed" if info["passed"] else ", failed" if info["failed"] else ""))
    if mode != "DATAGEN":
        line += f", pentanomial {info['penta']}"
    print(line)
    if mode == "SPSA":
        print(requests.get(f"{a.server}/api/spsa/{a.id}/digest/").text.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--server", default=os.environ.get("OPENBENCH_SERVER", "http://127.0.0.1:8000"))
    ap.add_argument("--user", default=os.environ.get("OPENBENCH_USERNAME", "admin"))
    ap.add_argument("--password", default=os.environ.get("OPENBENCH_PASSWORD"))
    sub = ap.add_subparsers(dest="command", required=True)
    for name, fn, tc in (("datagen", cmd_datagen, "N=5000"), ("tune", cmd_tune, "N=25000")):
        p = sub.add_parser(name)
        p.set_defaults(fn=fn)
        p.add_argument("--repo", default=REPO)
        p.add_argument("--branch", default="main")
        p.add_argument("--network", default="", help="SHA-256 of a net uploaded to the server (default: embedded)")
        p.add_argument("--options", default="Threads=1 Hash=16")
        p.add_argument("--tc", default=tc)
        p.add_argument("--info", default="")
    g = sub.choices["datagen"]
    g.add_argument("--games", type=int, default=500)
    g.add_argument("--workload-size", type=int, default=64)
    g.add_argument("--book", default="NONE")
    g.add_argument("--dfrc", action="store_true", help="double-Chess960 starts (genfens ... dfrc)")
    t = sub.choices["tune"]
    t.add_argument("--params", required=True, help="comma-separated tunable names")
    t.add_argument("--iterations", type=int, default=2500)
    t.add_argument("--pairs", type=int, default=8, help="game pairs per iteration")
    t.add_argument("--book", default="UHO_4060_v2.epd")
    t.add_argument("--engine", default="target/release/corvid-tune", help="a tune build, for the inputs")
    for name, fn in (("pgns", cmd_pgns), ("status", cmd_status)):
        p = sub.add_parser(name)
        p.set_defaults(fn=fn)
        p.add_argument("id", type=int)
        if name == "pgns":
            p.add_argument("--out", default="data/openbench")
    a = ap.parse_args()
    if a.command in ("datagen", "tune") and not a.password:
        sys.exit("openbench.py: --password or OPENBENCH_PASSWORD")
    a.fn(a)


if __name__ == "__main__":
    main()
