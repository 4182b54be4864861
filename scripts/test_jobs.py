#!/usr/bin/env python3
"""Unit tests of scripts/jobs.py's decisions that need no engine and no CPU: the SPRT arithmetic, which jobs run
together, the order they are read in, a datagen generation tied to its net, an engine's net pinned by its
commit and its patch by the job (in a scratch git repository), and an SPSA's values written into the source.
Run: python3 scripts/test_jobs.py (cargo test runs it through tests/jobs_script.rs)."""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jobs  # noqa: E402
import spsa  # noqa: E402


class Llr(unittest.TestCase):
    # Final states of real jobs, with the LLR fastchess printed for them (normalized model, [0, 10]).
    def test_matches_fastchess_on_an_h1(self):
        llr, elo = jobs.llr_normalized([1, 15, 68, 63, 15], 0, 10)  # net8-vs-net7: LLR 2.97, +83.0
        self.assertAlmostEqual(llr, 2.97, delta=0.03)
        self.assertAlmostEqual(elo, 83.0, delta=0.1)

    def test_matches_fastchess_on_an_h0(self):
        llr, elo = jobs.llr_normalized([61, 174, 277, 144, 46], 0, 10)  # lambda-screen-2: -2.95, -14.9
        self.assertAlmostEqual(llr, -2.95, delta=0.03)
        self.assertAlmostEqual(elo, -14.9, delta=0.1)

    def test_an_even_score_counts_against_a_gain_and_wins_for_it(self):
        even, elo = jobs.llr_normalized([20, 80, 200, 80, 20], 0, 5)
        self.assertLess(even, 0.0)
        self.assertAlmostEqual(elo, 0.0)
        better, _ = jobs.llr_normalized([20, 80, 200, 100, 20], 0, 5)
        self.assertGreater(better, even)

    def test_no_games_is_no_evidence(self):
        self.assertEqual(jobs.llr_normalized([0, 0, 0, 0, 0], 0, 5), (0.0, 0.0))


class Scheduling(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def job(self, name, finished=False, **fields):
        d = os.path.join(self.tmp.name, name)
        os.makedirs(d)
        with open(os.path.join(d, "job.json"), "w") as f:
            json.dump(fields, f)
        if finished:
            with open(os.path.join(d, "result.json"), "w") as f:
                f.write("{}")
        return dict(fields, name=name, dir=d)

    def test_a_timed_sprt_runs_alone_on_both_cores(self):
        js = [self.job("gen8", kind="datagen"), self.job("net9", kind="sprt", tc="8+0.08"),
              self.job("spsa", kind="spsa", nodes=25000)]
        self.assertEqual(jobs.wanted(js), {"net9": 2})

    def test_datagen_shares_with_a_fixed_nodes_sprt_before_an_spsa(self):
        js = [self.job("a-spsa", kind="spsa", nodes=25000), self.job("gen8", kind="datagen"),
              self.job("screen", kind="sprt", nodes=25000)]
        self.assertEqual(jobs.wanted(js), {"gen8": 1, "screen": 1})

    def test_finished_jobs_take_no_core(self):
        js = [self.job("old", finished=True, kind="sprt", tc="8+0.08"), self.job("gen8", kind="datagen"),
              self.job("screen", finished=True, kind="sprt", nodes=25000), self.job("spsa", kind="spsa")]
        self.assertEqual(jobs.wanted(js), {"gen8": 1, "spsa": 1})

    def test_a_job_alone_gets_both_cores(self):
        self.assertEqual(jobs.wanted([self.job("spsa", kind="spsa", nodes=25000)]), {"spsa": 2})

    def test_jobs_are_read_in_name_order(self):
        for name in ("lambda-screen-2", "lambda-screen", "gen7"):
            self.job(name, kind="sprt", nodes=25000)
        saved, jobs.JOBS = jobs.JOBS, self.tmp.name
        try:
            names = [j["name"] for j in jobs.load_jobs()]
        finally:
            jobs.JOBS = saved
        self.assertEqual(names, ["gen7", "lambda-screen", "lambda-screen-2"])


class DatagenNet(unittest.TestCase):
    def test_a_generation_will_not_start_with_another_net(self):
        with tempfile.TemporaryDirectory() as tmp:
            net = os.path.join(tmp, "corvid.nnue")
            with open(net, "wb") as f:
                f.write(b"the net the generation was added for")
            pinned = jobs.file_sha(net)
            with open(net, "wb") as f:
                f.write(b"a net adopted since")
            job = {"name": "gen7", "gen": "gen7", "first_seed": 7000, "net": net, "net_sha256": pinned}
            with self.assertRaises(SystemExit) as e:
                jobs.start_datagen(job, 2)
            self.assertIn("end gen7", str(e.exception.code))

    def test_adding_a_generation_needs_its_net(self):
        a = argparse.Namespace(name="gen9", gen="gen9", first_seed=9000, nodes=2500, games=500,
                               net="nets/no-such-net.nnue")
        with self.assertRaises(SystemExit) as e:
            jobs.cmd_add_datagen(a)
        self.assertIn("no net", str(e.exception.code))
        self.assertFalse(os.path.exists(os.path.join(jobs.JOBS, "gen9")))


class ScratchRepo(unittest.TestCase):
    """A test in a scratch git repository (with candidates/) that jobs.py takes for the project's."""

    def setUp(self):
        self.saved = jobs.ROOT, jobs.WORK
        self.tmpdir = tempfile.TemporaryDirectory()
        self.tmp = self.tmpdir.name
        jobs.ROOT, jobs.WORK = self.tmp, os.path.join(self.tmp, "work")
        self.git = ["git", "-C", self.tmp, "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(self.git + ["init", "-q"], check=True)
        os.makedirs(os.path.join(self.tmp, "candidates"))

    def tearDown(self):
        jobs.ROOT, jobs.WORK = self.saved
        self.tmpdir.cleanup()


class PinnedNet(ScratchRepo):
    def test_a_committed_net_is_read_from_its_commit_and_a_new_one_from_the_tree(self):
        net = os.path.join(self.tmp, "candidates", "neta.nnue")
        with open(net, "wb") as f:
            f.write(b"the candidate as its SPRT began")
        subprocess.run(self.git + ["add", "."], check=True)
        subprocess.run(self.git + ["commit", "-q", "-m", "candidate"], check=True)
        sha = subprocess.run(self.git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        os.remove(net)  # adopted: moved to nets/ while its job is still stored
        with open(jobs.pinned_net(sha, "candidates/neta.nnue"), "rb") as f:
            self.assertEqual(f.read(), b"the candidate as its SPRT began")
        with open(os.path.join(self.tmp, "candidates", "netb.nnue"), "wb") as f:
            f.write(b"not committed yet")
        self.assertEqual(jobs.pinned_net(sha, "candidates/netb.nnue"),
                         os.path.join(self.tmp, "candidates", "netb.nnue"))
        with self.assertRaises(SystemExit) as e:
            jobs.pinned_net(sha, "candidates/netc.nnue")
        self.assertIn("no net", str(e.exception.code))


class PinnedPatch(ScratchRepo):
    def test_a_patch_is_read_as_its_job_pinned_it_after_it_leaves_the_tree(self):
        rel = "candidates/0001-a.patch"
        patch = os.path.join(self.tmp, rel)
        with open(patch, "w") as f:
            f.write("the patch as its SPRT began\n")
        pins = jobs.engine_pins(f"abc1234+{rel}", "abc1234", "/usr/games/stockfish")
        self.assertEqual(list(pins), [rel])
        # Not committed yet: the working tree serves while it still matches the pin.
        self.assertEqual(jobs.pinned_patch(rel, pins[rel]), patch)
        subprocess.run(self.git + ["add", "."], check=True)
        subprocess.run(self.git + ["commit", "-q", "-m", "candidate"], check=True)
        with open(patch, "w") as f:
            f.write("rebased later\n")
        with open(jobs.pinned_patch(rel, pins[rel])) as f:
            self.assertEqual(f.read(), "the patch as its SPRT began\n")
        os.remove(patch)
        subprocess.run(self.git + ["commit", "-q", "-a", "-m", "verdict in: candidate deleted"], check=True)
        with open(jobs.pinned_patch(rel, pins[rel])) as f:
            self.assertEqual(f.read(), "the patch as its SPRT began\n")
        # A job stored before pins were kept reads the last committed version.
        with open(jobs.pinned_patch(rel)) as f:
            self.assertEqual(f.read(), "the patch as its SPRT began\n")
        with self.assertRaises(SystemExit) as e:
            jobs.pinned_patch("candidates/0002-none.patch")
        self.assertIn("no patch", str(e.exception.code))
        with self.assertRaises(SystemExit):
            jobs.engine_pins("abc1234+candidates/0002-none.patch")


class SpsaWrite(unittest.TestCase):
    PARAMS = """tunables! {
    /// A margin.
    rfp_margin: i32 = 75, 37, 150;
    lmr_base: f64 = 0.75, 0.375, 1.5;
    lmr_divisor: f64 = 2.25, 1.125, 4.5;
    untouched: i32 = 3, 1, 6;
}
"""

    def state(self, **values):
        return {"params": {n: {"value": v} for n, v in values.items()}}

    def test_theta_becomes_the_defaults_rounded_as_the_engine_rounds_an_option(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "search"))
            path = os.path.join(tmp, "search", "params.rs")
            with open(path, "w") as f:
                f.write(self.PARAMS)
            changes = spsa.write_defaults(self.state(rfp_margin=73.6, lmr_base=80.04, lmr_divisor=225.2), tmp)
            with open(path) as f:
                text = f.read()
            self.assertIn("rfp_margin: i32 = 74, 37, 150;", text)
            self.assertIn("lmr_base: f64 = 0.8, 0.375, 1.5;", text)
            self.assertIn("lmr_divisor: f64 = 2.25, 1.125, 4.5;", text)  # rounds to its default: unchanged
            self.assertIn("untouched: i32 = 3, 1, 6;", text)
            self.assertEqual([(c[1], c[2], c[3]) for c in changes], [("lmr_base", "0.75", "0.8"),
                                                                    ("rfp_margin", "75", "74")])

    def test_a_name_declared_twice_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("a.rs", "b.rs"):
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(self.PARAMS)
            with self.assertRaises(SystemExit) as e:
                spsa.write_defaults(self.state(untouched=5.0, rfp_margin=80.0), tmp)
            self.assertIn("declared 2 times", str(e.exception.code))
            for name in ("a.rs", "b.rs"):
                with open(os.path.join(tmp, name)) as f:
                    self.assertEqual(f.read(), self.PARAMS)


if __name__ == "__main__":
    unittest.main()
