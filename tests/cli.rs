//! The command line against the real binaries: every verb (and each tool binary) answers `--help` with status 0
//! and lists its options; bad usage is refused with a message and a non-zero status (1 for `corvid`).

mod common;

use common::{run_corvid, CORVID};
use std::process::{Command, Output};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `program --help`-style `args` and returns stdout, asserting status 0 and every `expected` string.
fn help(program: &str, args: &[&str], expected: &[&str]) {
    let out = Command::new(program).args(args).output().expect("start");
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "{program} {args:?}: {:?}\n{stdout}{}",
        out.status,
        text(&out.stderr)
    );
    for e in expected {
        assert!(
            stdout.contains(e),
            "{program} {args:?} lacks {e:?}:\n{stdout}"
        );
    }
}

#[test]
fn corvid_lists_its_verbs() {
    let verbs = [
        "bench", "perft", "divide", "play", "match", "datagen", "genfens",
    ];
    help(CORVID, &["--help"], &verbs);
    help(CORVID, &["help"], &verbs);
    help(CORVID, &["--version"], &[env!("CARGO_PKG_VERSION")]);
}

#[test]
fn every_verb_answers_help_with_its_options() {
    let perft = [
        "<DEPTH>",
        "[FEN]...",
        "--threads",
        "--chess960",
        "--variant",
    ];
    let verbs: [(&str, &[&str]); 7] = [
        ("bench", &["[DEPTH]", "--variant"]),
        ("perft", &perft),
        ("divide", &perft),
        (
            "play",
            &[
                "--color", "--colour", "--seed", "--elo", "--movetime", "--variant", "--fen", "--pgn",
                "--ascii", "--unicode", "--accept-draw", "--accept-middlegame", "--opponent-elo",
                "--offer-balance", "--offer-streak", "--offer-after", "--no-offer", "--resign-cp",
                "--resign-moves", "--no-resign", "[default: 1000]", "[default: -25]",
            ],
        ),
        (
            "match",
            &[
                "Usage: corvid match --engine-a CMD --engine-b CMD (--tc BASE+INC | --limit-a L --limit-b L)",
                "--engine-a <CMD>",
                "--engine-b <CMD>",
                "quotes and backslashes as in a shell",
                "--name-a",
                "--name-b",
                "--opt-a <NAME=VALUE>",
                "--opt-b <NAME=VALUE>",
                "repeatable",
                "--variant",
                "--tc <BASE+INC>",
                "--limit-a <L>",
                "tc=10+0.1 | depth=N | nodes=N | movetime=MS",
                "--limit-b <L>",
                "--games <N>",
                "--concurrency <N>",
                "each with its own pair of engines",
                "--openings-random <N>",
                "--seed <S>",
                "--max-plies <N>",
                "--margin <MS>",
                "--grace <MS>",
                "--hang-timeout <S>",
                "--pgn <FILE>",
                "Exit status: 0 when every game ended by the rules or the ply cap, 2 when some engine \
                 forfeited, 1 on bad usage",
            ],
        ),
        (
            "datagen",
            &[
                "--out", "--threads", "--positions", "--games", "--seed", "--nodes", "--random-plies",
                "--starts", "--dfrc-percent", "--eval",
            ],
        ),
        (
            "genfens",
            &[
                "corvid genfens N seed S book <FILE|None> [dfrc]",
                "corvid \"genfens N seed S book <FILE|None> [dfrc]\" [UCI commands, ignored]",
                "OpenBench passes them as one argument",
            ],
        ),
    ];
    for (verb, options) in verbs {
        help(CORVID, &[verb, "--help"], options);
        // `help VERB` is the same text.
        help(CORVID, &["help", verb], options);
    }
}

#[test]
fn the_tool_binaries_answer_help_too() {
    help(
        env!("CARGO_BIN_EXE_tune"),
        &["--help"],
        &[
            "--out",
            "--epochs",
            "--lr",
            "--holdout",
            "--start",
            "--l2",
            "--free-files",
            "--write-hand",
        ],
    );
    help(
        env!("CARGO_BIN_EXE_tune_makro"),
        &["--help"],
        &["<GAMES.pgn>...", "--epochs", "--lr", "--skip", "--l2"],
    );
    help(
        env!("CARGO_BIN_EXE_train_nnue"),
        &["--help"],
        &["train", "export", "eval"],
    );
    // Bad usage of a tool binary is refused, not run with a default.
    for (program, args) in [
        (env!("CARGO_BIN_EXE_tune"), &["--holdout", "1.5", "x"][..]),
        (env!("CARGO_BIN_EXE_tune"), &[][..]),
        (env!("CARGO_BIN_EXE_tune_makro"), &[][..]),
        (
            env!("CARGO_BIN_EXE_tune_makro"),
            &["--epochs", "many", "g.pgn"][..],
        ),
    ] {
        let out = Command::new(program).args(args).output().expect("start");
        assert!(!out.status.success(), "{program} {args:?}");
        assert!(text(&out.stderr).contains("error: "), "{program} {args:?}");
    }
}

/// `corvid ARGS` with no input: its status code and stderr.
fn refused(args: &[&str]) -> (Option<i32>, String) {
    let Output { status, stderr, .. } = run_corvid(args, "");
    (status.code(), text(&stderr))
}

#[test]
fn bad_usage_exits_with_status_1_and_says_why() {
    for (args, why) in [
        (&["frobnicate"][..], "unrecognized subcommand 'frobnicate'"),
        (&["perft"][..], "<DEPTH>"),
        (&["perft", "3", "--threads", "0"][..], "--threads"),
        (
            &["bench", "--variant", "shogi"][..],
            "unknown variant 'shogi'",
        ),
        (&["play", "--elo", "99"][..], "99 is not in 1320..=3000"),
        (&["play", "--movetime", "0"][..], "--movetime"),
        (
            &["play", "--color", "green"][..],
            "[possible values: white, black, random]",
        ),
        (
            &["play", "--frobnicate"][..],
            "unexpected argument '--frobnicate'",
        ),
        (
            &["match", "--engine-a", "x", "--tc", "1"][..],
            "--engine-b <CMD>",
        ),
        (
            &["match", "--engine-a", "x", "--engine-b", "y"][..],
            "--limit-a <L>",
        ),
        (
            &[
                "match",
                "--engine-a",
                "x",
                "--engine-b",
                "y",
                "--tc",
                "1",
                "--games",
                "0",
            ][..],
            "0 is not in 1..=1000000",
        ),
        (
            &["match", "--engine-a", "x", "--engine-b", "y", "--tc", "0+1"][..],
            "time control '0+1' has no base time",
        ),
        (
            &["match", "--engine-a", "'x", "--engine-b", "y", "--tc", "1"][..],
            "unclosed quote",
        ),
        (&["datagen", "--threads", "0"][..], "--threads"),
        (&["genfens"][..], "<WORDS>"),
    ] {
        let (code, stderr) = refused(args);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
    }
    // A FEN is checked once the variant is known, before a game starts.
    let (code, stderr) = refused(&["play", "--variant", "makromachy", "--fen", "8/8 w - - 0 1"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("invalid Makromachy FEN"), "{stderr}");
}
