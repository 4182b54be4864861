#!/usr/bin/env python3
"""Corvid's long jobs (SPRTs, matches, SPSA tunes, datagen) that outlive a session and a machine.

A job is a folder jobs/<name>/ holding job.json (what to run) and its state (fastchess's state for an SPRT or a
match, the SPSA state, or for datagen the chunks under nets/games/), all committed. Whatever machine the work goes on, the first
command is `scripts/jobs.py resume`: a supervisor starts in the background, builds the engines each job names
from their commits, and carries on every unfinished job where its committed state left it. It commits the jobs' state every 15 minutes and when a job
ends (`Bench:` line included), so a stop without warning loses at most that much.

Scheduling on two cores: a timed SPRT or match runs alone (a starved engine loses on time), one at a time in name
order, at autogroup nice 0: keep foreground work light while it runs, or `pause` it. Otherwise the first unfinished datagen
and the first fixed-nodes SPRT (else the first SPSA) share the cores, each in an autogroup at nice 19, so
foreground work comes first.

  scripts/jobs.py resume                 start the supervisor (does nothing if one runs)
  scripts/jobs.py status                 each job: progress, LLR or iteration, its state's last commit
  scripts/jobs.py pause | unpause        stop the jobs for timed foreground work (benchmarks, matches), then go on
  scripts/jobs.py stop                   stop the supervisor and its jobs, committing their state
  scripts/jobs.py commit                 commit the jobs' state now
  scripts/jobs.py end NAME --why TEXT    end an unfinished job by hand (e.g. an SPRT stopped flat)
  scripts/jobs.py add-sprt NAME --new ENGINE --old ENGINE [--tc 3+0.03 | --nodes N [--new-nodes M]]
                             [--elo0 0 --elo1 5]
                             [--book UHO_4060_v2.epd] [--max-games 20000]
  scripts/jobs.py add-match NAME --new ENGINE --old ENGINE --games N [--tc 10+0.1] [--book openings.epd]
                             [--new-option NAME=VALUE]... [--old-option NAME=VALUE]...
                             a fixed number of games, each opening played in order with both colours;
                             the options are UCI options of one side (UCI_Elo calibration)
  scripts/jobs.py add-spsa NAME --ref ENGINE --iterations 2500 --params a,b,c [--nodes 25000 | --tc 3+0.03]
                             [--pairs 2] [--book UHO_4060_v2.epd]
  scripts/jobs.py add-datagen NAME --gen gen6 --first-seed 6000 [--nodes 2500] [--net nets/corvid.nnue]
                             [--games 500]

ENGINE is REF[+PATCH][:NET]: the commit REF, with PATCH (a `git format-patch` file in the repository, such as a
candidate; pinned by its blob id when the job is added) applied, and NET (a network file in the repository, as
commit REF holds it) embedded, as `make EVALFILE=`.
An absolute path names an installed engine instead (an opponent: /usr/games/fairy-stockfish, from apt-get).
Books (`--book`) are looked up in $CORVID_BOOKS (default /work/books, then ../shared/tools): the openbench-books
archives unzipped (fetch github:AndyGrant/openbench-books). Logs and builds live in data/jobs/ (not committed).
"""
import argparse
import glob
import hashlib
import json
import math
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spsa import save as write_json  # noqa: E402  (the atomic JSON writer the SPSA state uses)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
JOBS = os.path.join(ROOT, "jobs")
WORK = os.path.join(ROOT, "data", "jobs")
PIDFILE = os.path.join(WORK, "supervisor.pid")
PAUSED = os.path.join(WORK, "paused")
COMMIT_EVERY = 15 * 60


def sh(*cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, text=True, capture_output=True, **kw)


def log(msg):
    print(time.strftime("%H:%M:%S"), msg, flush=True)


# ---------------------------------------------------------------- jobs on disk

def load_jobs():
    jobs = []
    # In name order, as the scheduling promises: sorting the paths would put "a-2/job.json" before "a/job.json".
    names = sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(JOBS, "*", "job.json")))
    for name in names:
        with open(os.path.join(JOBS, name, "job.json")) as f:
            job = json.load(f)
        job["name"] = name
        job["dir"] = os.path.join(JOBS, name)
        jobs.append(job)
    return jobs


def finished(job):
    return os.path.exists(os.path.join(job["dir"], "result.json"))


def bench_line():
    out = sh("git", "log", "-50", "--format=%B").stdout
    for line in out.splitlines():
        if line.startswith("Bench: "):
            return line
    return "Bench: 0"


def commit(message, paths):
    """Commits the given paths (only those: foreground work staged beside them stays staged)."""
    paths = [p for p in paths if os.path.exists(os.path.join(ROOT, p))]
    if not paths:
        return False
    for _ in range(30):
        sh("git", "add", "--", *paths)
        if not sh("git", "diff", "--cached", "--quiet", "--", *paths).returncode:
            return False  # nothing changed
        r = sh("git", "commit", "-q", "-m", f"{message}\n\n{bench_line()}", "--", *paths)
        if r.returncode == 0:
            return True
        time.sleep(10)  # another git command holds the index
    log(f"commit failed: {r.stderr.strip()}")
    return False


def commit_state(reason="state"):
    # Finished jobs keep their result in result.json: the message names the unfinished ones.
    summary = "; ".join(f"{j['name']} {progress(j)}" for j in load_jobs() if not finished(j)) or "all done"
    if commit(f"jobs: {reason}: {summary}", ["jobs"]):
        log(f"committed jobs/ ({reason})")


# ---------------------------------------------------------------- engines from commits

def file_sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def find_book(name):
    dirs = [os.environ.get("CORVID_BOOKS", "/work/books"), os.path.join(ROOT, "..", "shared", "tools"), ROOT]
    for d in dirs:
        path = os.path.join(d, name)
        if os.path.exists(path):
            return os.path.abspath(path)
    sys.exit(f"book {name} not found in {', '.join(dirs)}: fetch github:AndyGrant/openbench-books and unzip "
             f"it into $CORVID_BOOKS")


def build(spec, tune=False, pins=None):
    """The path of a corvid binary built from REF[+PATCH][:NET] (cached in data/jobs/bin): the commit REF, with
    PATCH (a `git format-patch` file in the repository, e.g. a candidate) applied as the job pinned it (PINS:
    see pinned_patch), and NET embedded as commit REF holds it (see pinned_net)."""
    if spec.startswith("/"):
        if not os.access(spec, os.X_OK):
            sys.exit(f"engine {spec} is not installed here (apt-get install the package that has it)")
        return spec
    spec, _, net = spec.partition(":")
    ref, _, patch = spec.partition("+")
    sha = sh("git", "rev-parse", "--short=7", ref + "^{commit}").stdout.strip()
    if not sha:
        sys.exit(f"unknown commit {ref}")
    name = f"corvid-{sha}"
    if patch:
        patchfile = pinned_patch(patch, (pins or {}).get(patch))
        name += "-" + file_sha(patchfile)[:8]
    netfile = pinned_net(sha, net) if net else None
    if net:
        name += "-" + file_sha(netfile)[:16]
    if tune:
        name += "-tune"
    out = os.path.join(WORK, "bin", name)
    if os.path.exists(out):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    src = os.path.join(WORK, "src", name)
    if not os.path.exists(os.path.join(src, "Cargo.toml")):
        os.makedirs(src, exist_ok=True)
        archive = subprocess.run(["git", "archive", sha, "--", ".", ":!nets/games"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
        if patch:
            apply_patch(patchfile, src)
    # Every build shares one target folder, and cargo finds a tree's build results by its crate, not its path:
    # its build script (which embeds the net) reruns only when EVALFILE changes or the net's file looks newer
    # than its last run, and git archive's files carry the commit's old times. So EVALFILE always names this
    # build's own net by its full path, and the tree's times are today's.
    netfile = netfile or os.path.join(src, "nets", "corvid.nnue")
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(WORK, "target"),
               EVALFILE=netfile if os.path.exists(netfile) else "")
    for folder, _, files in os.walk(src):
        for f in files:
            os.utime(os.path.join(folder, f))
    cmd = ["cargo", "rustc", "--release", "--quiet", "--bin", "corvid"]
    if tune:
        cmd += ["--features", "tune"]
    log(f"building {name}")
    subprocess.run(cmd + ["--", "--emit", f"link={out}.tmp"], cwd=src, env=env, check=True)
    if os.path.exists(netfile):
        check_embedded(out + ".tmp", netfile)
    if patch and not net and not tune:
        check_bench(out + ".tmp", patchfile)
    os.replace(out + ".tmp", out)
    return out


def pinned_net(sha, net):
    """The file NET as commit SHA holds it (copied once into data/jobs/nets), so that an engine named REF:NET
    stays the same engine when the working tree's NET is replaced or removed (a candidate adopted or dropped
    while its SPRT is stored). A net that SHA does not hold is read from the working tree: a new, uncommitted
    candidate can be screened before it is committed."""
    blob = subprocess.run(["git", "show", f"{sha}:{net}"], cwd=ROOT, capture_output=True)
    if blob.returncode != 0:
        path = os.path.join(ROOT, net)
        if not os.path.exists(path):
            sys.exit(f"no net {net}: neither commit {sha} nor the working tree holds it")
        return path
    return cached(os.path.join("nets", hashlib.sha256(blob.stdout).hexdigest()[:16] + ".nnue"), blob.stdout)


def cached(name, data):
    """data/jobs/NAME holding DATA (written once, atomically): a file a job reads from git, kept at a path."""
    out = os.path.join(WORK, name)
    if not os.path.exists(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out + ".tmp", "wb") as f:
            f.write(data)
        os.replace(out + ".tmp", out)
    return out


def engine_pins(*specs):
    """{PATCH: its git blob id} for each REF+PATCH engine of SPECS, recorded when a job is added, so that the
    job's engine stays the patch it began with (see pinned_patch)."""
    pins = {}
    for spec in specs:
        patch = spec.partition(":")[0].partition("+")[2]
        if patch and not spec.startswith("/"):
            path = os.path.join(ROOT, patch)
            if not os.path.isfile(path):
                sys.exit(f"no patch {patch}")
            pins[patch] = sh("git", "hash-object", path).stdout.strip()
    return pins


def pinned_patch(patch, blob=None):
    """The file PATCH as its job pinned it (BLOB, its git blob id: copied once into data/jobs/patches), so a
    candidate may leave candidates/ as soon as its verdict is in, and a stored job still builds its engine on a
    new machine. The working tree's PATCH serves while the blob is not committed yet (it must match BLOB). A job
    added before pins were kept has no BLOB: the working tree's PATCH, else the last version committed."""
    path = os.path.join(ROOT, patch)
    if blob:
        data = subprocess.run(["git", "cat-file", "blob", blob], cwd=ROOT, capture_output=True)
        if data.returncode == 0:
            return cached(os.path.join("patches", blob + ".patch"), data.stdout)
        if os.path.isfile(path) and sh("git", "hash-object", path).stdout.strip() == blob:
            return path
        sys.exit(f"patch {patch} as its job pinned it ({blob[:12]}) is neither committed nor in the working tree")
    if os.path.isfile(path):
        return path
    # The last commit that touched PATCH holds it, or (when that commit deleted it) its parent does.
    last = sh("git", "log", "-1", "--format=%H", "--", patch).stdout.strip()
    for rev in (last, last + "^") if last else ():
        blob = sh("git", "rev-parse", "--verify", "--quiet", f"{rev}:{patch}").stdout.strip()
        if blob:
            return pinned_patch(patch, blob)
    sys.exit(f"no patch {patch}: neither the working tree nor any commit holds it")


def apply_patch(patch, src):
    """Applies PATCH to the tree extracted at SRC, or stops. SRC lies inside this repository (data/jobs/src), and
    `git apply` run in a repository's subdirectory silently skips every path outside it, which is all of a
    patch's paths: the candidates' SPRTs once played the unpatched engine against itself that way. So git must
    not find the repository above SRC, and the patch must be seen to be applied (its reverse applies)."""
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(os.path.abspath(src)))
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    subprocess.run(["git", "apply", patch], cwd=src, env=env, check=True)
    if subprocess.run(["git", "apply", "--reverse", "--check", patch], cwd=src, env=env,
                      capture_output=True).returncode != 0:
        sys.exit(f"{patch} did not apply to {src}")


def check_embedded(binary, netfile):
    """Stops unless BINARY holds NETFILE's bytes (a few samples of its weights): the engine plays the net it is
    named for."""
    with open(netfile, "rb") as f:
        want = f.read()
    with open(binary, "rb") as f:
        have = f.read()
    if not all(want[o:o + 64] in have for o in range(len(want) // 7, len(want) - 64, len(want) // 7)):
        sys.exit(f"{binary} does not embed {netfile}")


def check_bench(binary, patch):
    """Stops unless BINARY's bench node count is the `Bench:` line of PATCH's commit message (when it has
    one): the engine under test is the one the patch describes."""
    with open(patch, errors="replace") as f:
        want = next((line.split()[1] for line in f if line.startswith("Bench: ")), None)
    if want is None:
        return
    out = subprocess.run([binary, "bench"], capture_output=True, text=True).stdout.strip().splitlines()
    got = out[-1].split()[0] if out else "nothing"
    if got != want:
        sys.exit(f"{binary}: bench {got}, but {patch} says Bench: {want}")


# ---------------------------------------------------------------- progress

def fastchess_counts(job):
    """(wins, draws, losses, pentanomial LL/LD/WL+DD/WD/WW) from fastchess's state, the new engine's side (it
    is the first engine of the state); None before the first game."""
    path = os.path.join(job["dir"], "state.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        stats = json.load(f).get("stats", {})
    s = next(iter(stats.values()), None)
    if not s:
        return None
    penta = [s.get(k, 0) for k in ("penta_LL", "penta_LD", "penta_WL", "penta_DD", "penta_WD", "penta_WW")]
    return s.get("wins", 0), s.get("draws", 0), s.get("losses", 0), \
        [penta[0], penta[1], penta[2] + penta[3], penta[4], penta[5]]


def mle_normalized(phat, scores, t):
    """The distribution over `scores` of highest likelihood for the observed frequencies `phat` among those whose
    (mean - 1/2) / standard deviation is `t` (Van den Bergh's normalized-Elo MLE: the optimum has the form
    phat_i / (1 + x e_i), with x a root of the secular equation, found here by bisection)."""
    p = list(phat)
    for _ in range(100):
        mu = sum(q * a for q, a in zip(p, scores))
        sd = math.sqrt(sum(q * (a - mu) ** 2 for q, a in zip(p, scores)))
        e = [a - 0.5 - t * sd * (1 + ((mu - a) / sd) ** 2) / 2 for a in scores]
        if max(e) <= 0 or min(e) >= 0:
            return None
        lo, hi = -1 / max(e), -1 / min(e)
        for _ in range(100):
            x = (lo + hi) / 2
            if sum(q * ei / (1 + x * ei) for q, ei in zip(phat, e)) > 0:
                lo = x
            else:
                hi = x
        new = [q / (1 + x * ei) for q, ei in zip(phat, e)]
        done = max(abs(a - b) for a, b in zip(new, p)) < 1e-12
        p = new
        if done:
            break
    return p


def llr_normalized(penta, elo0, elo1):
    """Pentanomial LLR of the normalized-Elo SPRT, as fastchess computes it (its final figures are matched to 0.01
    by scripts/test_jobs.py), and the Elo of the score."""
    n = sum(penta)
    if n == 0:
        return 0.0, 0.0
    probs = [(c + 1e-3) / (n + 5e-3) for c in penta]
    scores = [0, 0.25, 0.5, 0.75, 1]
    mu = sum(p * s for p, s in zip(probs, scores))
    k = math.sqrt(2.0) * math.log(10) / 800.0
    p0, p1 = mle_normalized(probs, scores, k * elo0), mle_normalized(probs, scores, k * elo1)
    if p0 and p1:
        llr = n * sum(q * math.log(b / a) for q, a, b in zip(probs, p0, p1))
    else:  # degenerate counts: the GSPRT approximation
        var = sum(p * (s - mu) ** 2 for p, s in zip(probs, scores))
        t = (mu - 0.5) / math.sqrt(var) if var > 0 else 0.0
        llr = n * k * (elo1 - elo0) * (2 * t - k * (elo0 + elo1)) / 2
    score = min(max(mu, 1e-6), 1 - 1e-6)
    return llr, -400 * math.log10(1 / score - 1)


def sprt_summary(job):
    counts = fastchess_counts(job)
    if not counts:
        return "not started"
    w, d, l, penta = counts
    llr, elo = llr_normalized(penta, job["elo0"], job["elo1"])
    llr_text = f"LLR {llr:.2f}"
    # fastchess's own figure where this machine has its log (it may be a few games behind the state).
    logpath = os.path.join(WORK, job["name"] + ".log")
    if os.path.exists(logpath):
        with open(logpath, errors="replace") as f:
            exact = [line.split()[1] for line in f if line.startswith("LLR: ")]
        if exact:
            llr_text = f"LLR {exact[-1]}"
    bound = math.log((1 - 0.05) / 0.05)
    return f"{w + d + l} games +{w} ={d} -{l}, {elo:+.1f} Elo, {llr_text} of ±{bound:.2f}, pentanomial {penta}"


def match_summary(job):
    """Games, W/D/L, score and Elo with its 95 % interval, from the pairs of games (pentanomial)."""
    counts = fastchess_counts(job)
    if not counts:
        return "not started"
    w, d, l, penta = counts
    text = f"{w + d + l} of {job['games']} games +{w} ={d} -{l}"
    pairs = sum(penta)
    if pairs == 0:
        return text
    scores = [0, 0.25, 0.5, 0.75, 1]
    mu = sum(c * x for c, x in zip(penta, scores)) / pairs
    var = sum(c * (x - mu) ** 2 for c, x in zip(penta, scores)) / pairs
    half = 1.96 * math.sqrt(var / pairs)

    def elo(x):
        x = min(max(x, 1e-4), 1 - 1e-4)
        return -400 * math.log10(1 / x - 1)
    return f"{text}, {100 * (w + d / 2) / (w + d + l):.1f} %, {elo(mu):+.0f} Elo [{elo(mu - half):+.0f}, " \
           f"{elo(mu + half):+.0f}], pentanomial {penta}"


def progress(job):
    if finished(job):
        with open(os.path.join(job["dir"], "result.json")) as f:
            result = json.load(f)
        text = "done: " + result.get("verdict", "?")
        return text + ": " + result.get("summary", "") if job["kind"] == "match" else text
    if job["kind"] == "sprt":
        return sprt_summary(job)
    if job["kind"] == "match":
        return match_summary(job)
    if job["kind"] == "spsa":
        path = os.path.join(job["dir"], "spsa.json")
        if not os.path.exists(path):
            return "not started"
        with open(path) as f:
            st = json.load(f)
        return f"iteration {st['done']} of {st['iterations']}, {st['games']} games"
    if job["kind"] == "datagen":
        rows = [line.split("\t") for line in open(os.path.join(ROOT, "nets/games/manifest.tsv"))
                if line.startswith(f"nets/games/{job['gen']}/")]
        pos = sum(int(r[5]) for r in rows)
        return f"{len(rows)} chunks, {pos} positions"
    return "?"


def last_commit(job):
    # A datagen job's state is its chunks, which datagen_chunks.sh commits as each one finishes.
    paths = [os.path.relpath(job["dir"], ROOT)]
    if job["kind"] == "datagen":
        paths.append(os.path.join("nets/games", job["gen"]))
    return sh("git", "log", "-1", "--format=%h %cr", "--", *paths).stdout.strip()


# ---------------------------------------------------------------- running one job

def start_fastchess(job):
    """fastchess for an SPRT or a match: resumed from its committed state when there is one."""
    state = os.path.join(job["dir"], "state.json")
    new, old = build(job["new"], pins=job.get("pins")), build(job["old"], pins=job.get("pins"))
    os.makedirs(WORK, exist_ok=True)
    pgn = os.path.join(WORK, job["name"] + ".pgn")
    if os.path.exists(state):
        # Paths in fastchess's state are this machine's: point them at today's builds and book.
        with open(state) as f:
            cfg = json.load(f)
        for eng, path in zip(cfg["engines"], (new, old)):
            eng["cmd"] = path
            eng["dir"] = "."
        cfg["opening"]["file"] = find_book(job["book"])
        cfg["pgn"]["file"] = pgn
        resume = os.path.join(WORK, job["name"] + "-resume.json")
        write_json(resume, cfg)
        return ["fastchess", "-config", f"file={resume}", f"outname={state}"]
    limit = [f"nodes={job['nodes']}"] if job.get("nodes") else [f"tc={job['tc']}"]
    # Node odds: the new engine searches `new_nodes` a move, the old one `nodes`, so that a screen at fixed
    # nodes can charge a change for its cost a node (both limits per engine: -each would apply to both).
    new_limit, old_limit = [], []
    if job.get("new_nodes"):
        new_limit, old_limit, limit = [f"nodes={job['new_nodes']}"], limit, []
    if job["kind"] == "sprt":
        games, order = job.get("max_games", 20000), "random"
        verdict = ["-sprt", f"elo0={job['elo0']}", f"elo1={job['elo1']}", "alpha=0.05", "beta=0.05"]
    else:
        # A match plays its book's openings in order from the first, each with both colours.
        games, order, verdict = job["games"], "sequential", []
    # Per-engine UCI options (a UCI_Elo calibration: both sides at UCI_LimitStrength with one UCI_Elo).
    new_opts = [f"option.{o}" for o in job.get("new_options", [])]
    old_opts = [f"option.{o}" for o in job.get("old_options", [])]
    return ["fastchess", "-engine", f"cmd={new}", "name=new", *new_limit, *new_opts,
            "-engine", f"cmd={old}", "name=old", *old_limit, *old_opts,
            "-each", "proto=uci", *limit, "option.Hash=16", "option.Threads=1",
            "-rounds", str(games // 2), "-games", "2", "-repeat", "-concurrency", "2", "-recover",
            "-openings", f"file={find_book(job['book'])}", "format=epd", f"order={order}", *verdict,
            "-pgnout", f"file={pgn}", "-autosaveinterval", "10", "-config", f"outname={state}"]


def finish_fastchess(job, logpath, offset):
    """An SPRT's verdict or a match's result from this run's part of the log, written to result.json; None when
    it was interrupted."""
    text = ""
    if os.path.exists(logpath):
        with open(logpath, errors="replace") as f:
            f.seek(offset)
            text = f.read()
    verdict = None
    if "interrupted" in text:
        return None
    if "H1 was accepted" in text:
        verdict = "H1 accepted"
    elif "H0 was accepted" in text:
        verdict = "H0 accepted"
    elif "Finished match" in text:
        verdict = "no verdict (game limit)" if job["kind"] == "sprt" else "all games played"
    if verdict:
        summary = sprt_summary(job) if job["kind"] == "sprt" else match_summary(job)
        write_json(os.path.join(job["dir"], "result.json"),
                   {"verdict": verdict, "summary": summary, "ended": time.strftime("%Y-%m-%d %H:%M")})
    return verdict


def start_spsa(job, cores):
    engine = build(job["ref"], tune=True)
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "spsa.py"), "--engine", engine,
           "--state", os.path.join(job["dir"], "spsa.json"), "--iterations", str(job["iterations"]),
           "--pairs", str(job.get("pairs", 2)), "--concurrency", str(cores),
           "--openings", find_book(job["book"]), "--params", ",".join(job["params"])]
    cmd += ["--nodes", str(job["nodes"])] if job.get("nodes") else ["--tc", job["tc"]]
    return cmd


def start_datagen(job, cores):
    # datagen_chunks.sh plays with a copy of target/release/corvid (the net is passed as a file).
    # A generation is one net's games: once another net is committed under the same path, the job must end
    # rather than mix nets in its chunks (or fail on its unfinished chunk, which datagen ties to its net).
    net = job.get("net", "nets/corvid.nnue")
    pinned = job.get("net_sha256")
    if pinned and file_sha(os.path.join(ROOT, net)) != pinned:
        sys.exit(f"{net} is no longer the net {job['name']} plays ({pinned[:16]}): finish its unfinished chunk "
                 f"with that net or drop it, `scripts/jobs.py end {job['name']}`, and add the next generation")
    if not os.path.exists(os.path.join(ROOT, "data", "corvid-datagen")):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    return [os.path.join(ROOT, "scripts", "datagen_chunks.sh"), "--gen", job["gen"],
            "--first-seed", str(job["first_seed"]), "--nodes", str(job.get("nodes", 2500)),
            "--threads", str(cores), "--net", net,
            "--games", str(job.get("games", 1000))]


# ---------------------------------------------------------------- the supervisor

def timed(job):
    """A timed SPRT or match: it runs alone and at nice 0, since a starved engine loses on time."""
    return job["kind"] in ("sprt", "match") and not job.get("nodes")


def wanted(jobs):
    """{name: cores} of the jobs that should run now."""
    todo = [j for j in jobs if not finished(j)]
    alone = [j for j in todo if timed(j)]
    if alone:
        return {alone[0]["name"]: 2}
    # Datagen always has a core (the data is what the next net needs); the other goes to the first
    # fixed-nodes SPRT, else the first SPSA.
    picks = []
    for kinds in (("datagen",), ("sprt", "spsa")):
        first = next((j for k in kinds for j in todo if j["kind"] == k), None)
        if first:
            picks.append(first["name"])
    return {n: 2 // len(picks) for n in picks}


def stop_proc(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)  # fastchess saves its state on SIGINT
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def keep_partial_chunks():
    """Commits the unfinished datagen chunks (their games and progress files), so that a stop or a timed SPRT
    that takes the cores loses no games: `datagen_chunks.sh` resumes such a chunk on any machine, and its
    finished form replaces this one."""
    listed = {line.split("\t")[0] for line in open(os.path.join(ROOT, "nets/games/manifest.tsv"))}
    for prog in glob.glob(os.path.join(ROOT, "nets/games/*/*.vf.progress")):
        chunk = os.path.relpath(prog[: -len(".progress")], ROOT)
        if chunk in listed or not os.path.exists(os.path.join(ROOT, chunk)):
            continue
        games = next((line.split()[1] for line in open(prog) if line.startswith("games ")), "?")
        # The progress files are ignored by git (they change with every game): add this one by force.
        sh("git", "add", "-f", "--", chunk, chunk + ".progress")
        if commit(f"jobs: {chunk} kept unfinished ({games} games) to resume", [chunk, chunk + ".progress"]):
            log(f"committed the unfinished {chunk} ({games} games)")


def supervise():
    try:
        with open("/proc/self/autogroup", "w") as f:
            f.write("19")
    except OSError:
        os.nice(19)
    with open(PIDFILE, "w") as f:
        f.write(str(os.getpid()))
    # A supervisor started in the background of a non-interactive shell inherits SIGINT ignored, and so would
    # every job: `corvid datagen` (no handler of its own) then ignored the stop signal and was killed a minute
    # later. The jobs get the default action back.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    running = {}  # name -> (Popen, cores, log path)
    refused = {}  # name -> why it could not start, logged once
    stopping = []

    def on_term(*_):
        stopping.append(1)
    signal.signal(signal.SIGTERM, on_term)
    last = time.time()
    while not stopping:
        jobs = {j["name"]: j for j in load_jobs()}
        # Ended jobs are reaped before `want` is read, so that the result.json they write keeps them out of it
        # (net9-vs-net8 was once started again for 20 seconds after its H1).
        for name, (proc, cores, logpath, offset) in list(running.items()):
            if proc.poll() is None:
                continue
            del running[name]
            job = jobs.get(name)
            if job and job["kind"] in ("sprt", "match"):
                verdict = finish_fastchess(job, logpath, offset)
                log(f"{name} ended: {verdict or 'no verdict, will resume'}")
                commit_state(f"{name} {verdict}" if verdict else "state")
            elif job and job["kind"] == "spsa" and proc.returncode == 0:
                write_json(os.path.join(job["dir"], "result.json"),
                           {"verdict": "all iterations played", "ended": time.strftime("%Y-%m-%d %H:%M")})
                commit_state(f"{name} done")
            elif proc.returncode != 0:
                log(f"{name} exited with {proc.returncode}; see {logpath}; retrying in a minute")
                time.sleep(60)
        held = paused_jobs()
        want = {} if held == ALL else wanted([j for j in jobs.values() if j["name"] not in held])
        for name, (proc, cores, logpath, offset) in list(running.items()):
            if want.get(name) != cores:
                log(f"stopping {name}")
                stop_proc(proc)
                del running[name]
                if jobs.get(name, {}).get("kind") == "datagen":
                    keep_partial_chunks()
        for name, cores in want.items():
            if name in running:
                continue
            job = jobs[name]
            try:
                cmd = {"sprt": lambda: start_fastchess(job), "match": lambda: start_fastchess(job),
                       "spsa": lambda: start_spsa(job, cores),
                       "datagen": lambda: start_datagen(job, cores)}[job["kind"]]()
            except (subprocess.CalledProcessError, SystemExit) as e:
                if refused.get(name) != str(e):
                    log(f"{name} cannot start: {e}")
                    refused[name] = str(e)
                continue
            refused.pop(name, None)
            logpath = os.path.join(WORK, name + ".log")
            offset = os.path.getsize(logpath) if os.path.exists(logpath) else 0
            log(f"starting {name} on {cores} core(s): {' '.join(cmd)}")
            running[name] = (subprocess.Popen(cmd, cwd=ROOT, stdout=open(logpath, "a"),
                                              stderr=subprocess.STDOUT, start_new_session=True),
                             cores, logpath, offset)
            # The child's setsid gave it an autogroup of its own: SPSA and datagen yield to foreground work;
            # a timed SPRT or match keeps nice 0, since a starved engine loses on time.
            if not timed(job):
                try:
                    with open(f"/proc/{running[name][0].pid}/autogroup", "w") as f:
                        f.write("19")
                except OSError:
                    pass
        if time.time() - last >= COMMIT_EVERY:
            commit_state()
            last = time.time()
        time.sleep(20)
    for proc, *_ in running.values():
        stop_proc(proc)
    keep_partial_chunks()
    commit_state("stopped")
    os.remove(PIDFILE)


def supervisor_pid():
    try:
        pid = int(open(PIDFILE).read())
        os.kill(pid, 0)
        return pid
    except (OSError, ValueError):
        return None


# ---------------------------------------------------------------- commands

def cmd_resume(_):
    if supervisor_pid():
        print(f"supervisor already running (pid {supervisor_pid()})")
        return
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "supervisor.log"), "a") as out:
        subprocess.Popen([sys.executable, os.path.abspath(__file__), "_supervise"], cwd=ROOT, stdout=out,
                         stderr=subprocess.STDOUT, start_new_session=True)
    time.sleep(1)
    print(f"supervisor started (pid {supervisor_pid()}); log data/jobs/supervisor.log")
    cmd_status(None)


def cmd_status(_):
    pid = supervisor_pid()
    state = "running" if pid else "not running"
    held = paused_jobs()
    if held:
        state += ", paused" if held == ALL else f", holding {' '.join(sorted(held))}"
    print(f"supervisor: {state}")
    for job in load_jobs():
        print(f"{job['name']:<22} {job['kind']:<8} {progress(job)}")
        print(f"{'':<31} state committed: {last_commit(job) or 'never'}")


def cmd_stop(_):
    pid = supervisor_pid()
    if not pid:
        print("supervisor not running")
        return
    os.kill(pid, signal.SIGTERM)
    while supervisor_pid():
        time.sleep(1)
    print("stopped; state committed")


ALL = "all"
# Held jobs are a decision about the jobs, so they are committed with them and hold on any machine; a pause
# of everything is for timing on this machine, so it stays in data/ (ignored by git).
HELD = os.path.join(JOBS, "held")


def held_jobs():
    return set(open(HELD).read().split()) if os.path.exists(HELD) else set()


def paused_jobs():
    """ALL while everything is paused, else the set of jobs held by `pause NAME...`."""
    return ALL if os.path.exists(PAUSED) else held_jobs()


def write_held(names):
    if names:
        with open(HELD, "w") as f:
            f.write("".join(n + "\n" for n in sorted(names)))
    elif os.path.exists(HELD):
        os.remove(HELD)
    commit(f"jobs: held: {' '.join(sorted(names)) or 'none'}", ["jobs"])


def cmd_pause(a):
    """Pauses every job (for timed work on this machine), or holds the named ones on every machine until
    `unpause NAME` (a timed SPRT, say, while another goes first): the others are scheduled as if the held
    ones were not there."""
    if not a.names:
        os.makedirs(WORK, exist_ok=True)
        open(PAUSED, "w").close()
        print("paused all jobs: they stop within 20 s (state kept); `scripts/jobs.py unpause` to go on")
        return
    known = {j["name"] for j in load_jobs()}
    unknown = [n for n in a.names if n not in known]
    if unknown:
        sys.exit(f"no job named {' '.join(unknown)}")
    names = held_jobs() | set(a.names)
    write_held(names)
    print(f"holding {' '.join(sorted(names))} (committed): `scripts/jobs.py unpause NAME` releases")


def cmd_unpause(a):
    if a.names:
        rest = held_jobs() - set(a.names)
        write_held(rest)
        print(f"still held: {' '.join(sorted(rest))}" if rest else "no job held")
        return
    if os.path.exists(PAUSED):
        os.remove(PAUSED)
    print("unpaused" + (f"; still held: {' '.join(sorted(held_jobs()))}" if held_jobs() else ""))


def cmd_commit(_):
    commit_state()


def cmd_end(a):
    """Ends a job by hand (a flat SPRT not worth its cores, a superseded tune): the supervisor stops it."""
    job = next((j for j in load_jobs() if j["name"] == a.name), None)
    if not job or finished(job):
        sys.exit(f"no unfinished job {a.name}")
    summary = progress(job)
    write_json(os.path.join(job["dir"], "result.json"),
               {"verdict": f"ended by hand: {a.why}", "summary": summary, "ended": time.strftime("%Y-%m-%d %H:%M")})
    commit(f"jobs: {a.name} ended by hand ({a.why}): {summary}", ["jobs"])
    print(f"{a.name} ended; a running supervisor stops it within 20 s")


def add_job(name, job):
    path = os.path.join(JOBS, name)
    if os.path.exists(path):
        sys.exit(f"job {name} exists")
    pins = engine_pins(job["new"], job["old"]) if job["kind"] in ("sprt", "match") else {}
    if pins:
        job["pins"] = pins
    os.makedirs(path)
    job["created"] = time.strftime("%Y-%m-%d %H:%M")
    write_json(os.path.join(path, "job.json"), job)
    commit(f"jobs: add {name} ({job['kind']})", ["jobs"])
    print(f"added {name}; `scripts/jobs.py resume` runs it")


def cmd_add_sprt(a):
    job = {"kind": "sprt", "new": a.new, "old": a.old, "elo0": a.elo0, "elo1": a.elo1, "book": a.book,
           "max_games": a.max_games}
    job.update({"nodes": a.nodes} if a.nodes else {"tc": a.tc})
    if a.new_nodes:
        if not a.nodes:
            sys.exit("--new-nodes needs --nodes (the old engine's budget)")
        job["new_nodes"] = a.new_nodes
    add_job(a.name, job)


def cmd_add_match(a):
    if a.games < 2 or a.games % 2:
        sys.exit("--games must be even (each opening is played with both colours)")
    job = {"kind": "match", "new": a.new, "old": a.old, "games": a.games, "tc": a.tc, "book": a.book}
    for side in ("new", "old"):
        opts = getattr(a, f"{side}_option") or []
        for o in opts:
            name, eq, value = o.partition("=")
            if not eq or not name or " " in o:
                sys.exit(f"--{side}-option takes NAME=VALUE without spaces, not {o!r}")
        if opts:
            job[f"{side}_options"] = opts
    add_job(a.name, job)


def cmd_add_spsa(a):
    job = {"kind": "spsa", "ref": a.ref, "iterations": a.iterations, "pairs": a.pairs, "book": a.book,
           "params": a.params.split(",")}
    job.update({"nodes": a.nodes} if a.nodes else {"tc": a.tc})
    add_job(a.name, job)


def cmd_add_datagen(a):
    net = os.path.join(ROOT, a.net)
    if not os.path.isfile(net):
        sys.exit(f"no net {a.net}")
    add_job(a.name, {"kind": "datagen", "gen": a.gen, "first_seed": a.first_seed, "nodes": a.nodes,
                     "net": a.net, "net_sha256": file_sha(net), "games": a.games})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    for name, fn in (("resume", cmd_resume), ("status", cmd_status), ("stop", cmd_stop),
                     ("commit", cmd_commit)):
        sub.add_parser(name).set_defaults(fn=fn)
    for name, fn in (("pause", cmd_pause), ("unpause", cmd_unpause)):
        p = sub.add_parser(name)
        p.add_argument("names", nargs="*", help="only these jobs (default: all)")
        p.set_defaults(fn=fn)
    sub.add_parser("_supervise").set_defaults(fn=lambda _: supervise())
    p = sub.add_parser("end")
    p.add_argument("name")
    p.add_argument("--why", required=True)
    p.set_defaults(fn=cmd_end)
    p = sub.add_parser("add-sprt")
    p.add_argument("name")
    p.add_argument("--new", required=True)
    p.add_argument("--old", required=True)
    p.add_argument("--tc", default="3+0.03")
    p.add_argument("--nodes", type=int)
    p.add_argument("--new-nodes", type=int, help="the new engine's nodes a move (node odds; default --nodes)")
    p.add_argument("--elo0", type=float, default=0)
    p.add_argument("--elo1", type=float, default=5)
    p.add_argument("--book", default="UHO_4060_v2.epd")
    p.add_argument("--max-games", type=int, default=20000)
    p.set_defaults(fn=cmd_add_sprt)
    p = sub.add_parser("add-match")
    p.add_argument("name")
    p.add_argument("--new", required=True)
    p.add_argument("--old", required=True)
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--tc", default="10+0.1")
    p.add_argument("--book", default="openings.epd")
    p.add_argument("--new-option", action="append", metavar="NAME=VALUE", help="a UCI option of the new engine")
    p.add_argument("--old-option", action="append", metavar="NAME=VALUE", help="a UCI option of the old engine")
    p.set_defaults(fn=cmd_add_match)
    p = sub.add_parser("add-spsa")
    p.add_argument("name")
    p.add_argument("--ref", required=True)
    p.add_argument("--iterations", type=int, default=2500)
    p.add_argument("--pairs", type=int, default=2)
    p.add_argument("--params", required=True)
    p.add_argument("--tc", default="3+0.03")
    p.add_argument("--nodes", type=int)
    p.add_argument("--book", default="UHO_4060_v2.epd")
    p.set_defaults(fn=cmd_add_spsa)
    p = sub.add_parser("add-datagen")
    p.add_argument("name")
    p.add_argument("--gen", required=True)
    p.add_argument("--first-seed", type=int, required=True)
    p.add_argument("--nodes", type=int, default=2500)
    p.add_argument("--net", default="nets/corvid.nnue")
    # 500 games take about 12 minutes on one core: a stop loses less than the 20 minutes allowed.
    p.add_argument("--games", type=int, default=500, help="games per committed chunk")
    p.set_defaults(fn=cmd_add_datagen)
    a = ap.parse_args()
    a.fn(a)


if __name__ == "__main__":
    main()
