//! `corvid play` driven through stdin, as a script would: illegal and unparsable input, draw offers declined
//! and accepted (both ways), the re-offer rule, resignation by the person and by Corvid, and the PGN.

mod common;

use common::run_corvid;

/// Runs `corvid play ARGS` with `input` on stdin; returns stdout (the board is ASCII: stdout is a pipe).
fn play(args: &[&str], input: &str) -> String {
    let out = run_corvid(&[&["play"], args].concat(), input);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "exit {:?}\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn tag(pgn: &str, name: &str) -> Option<String> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .map(|v| v.trim_end_matches("\"]").to_string())
}

#[test]
fn short_game_with_bad_input_a_declined_offer_and_a_resignation() {
    let pgn_path = std::env::temp_dir().join(format!("corvid-play-{}.pgn", std::process::id()));
    let pgn_arg = pgn_path.to_string_lossy().into_owned();
    // Corvid (Black) is a queen up: it declines the offer; a second offer at once is refused by the rules.
    let out = play(
        &[
            "--color",
            "white",
            "--movetime",
            "30",
            "--fen",
            "3qk3/8/8/8/8/1K6/PP6/8 w - - 0 1",
            "--pgn",
            &pgn_arg,
            "--no-resign",
        ],
        "Ke3\nhello\ndraw\ndraw\na3\nresign\n",
    );
    assert!(out.contains("you play White (chosen)"), "{out}");
    assert!(
        out.contains("'Ke3' is not a legal move here. Legal moves: "),
        "{out}"
    );
    assert!(
        out.contains("'hello' is neither a move nor a command"),
        "{out}"
    );
    assert!(out.contains("Corvid declines the draw"), "{out}");
    assert!(
        out.contains("You cannot offer a draw now: a new draw offer needs 2 more move(s)"),
        "{out}"
    );
    assert!(out.contains("You play a3."), "{out}");
    assert!(out.contains("Corvid plays "), "{out}");
    // Whose view the number is: Corvid's own.
    assert!(
        out.lines()
            .any(|l| l.contains("Corvid plays ") && l.contains("(its evaluation: ")),
        "{out}"
    );
    assert!(out.contains("You resign."), "{out}");
    assert!(out.contains("Game over: 0-1 (White resigns)."), "{out}");
    // The board is drawn in ASCII with the last move in brackets.
    assert!(out.contains(" 3 [P] K  .  .  .  .  .  .  3"), "{out}");
    let saved = std::fs::read_to_string(&pgn_path).expect("PGN saved");
    let _ = std::fs::remove_file(&pgn_path);
    assert_eq!(tag(&saved, "Result").as_deref(), Some("0-1"));
    assert_eq!(tag(&saved, "Termination").as_deref(), Some("normal"));
    assert!(saved.contains("{White resigns} 0-1"), "{saved}");
    assert_eq!(tag(&saved, "White").as_deref(), Some("You"));
    assert_eq!(
        tag(&saved, "FEN").as_deref(),
        Some("3qk3/8/8/8/8/1K6/PP6/8 w - - 0 1")
    );
    assert!(saved.trim_end().ends_with("0-1"), "{saved}");
    assert!(saved.contains("1. a3 "), "{saved}");
    assert!(out.contains(&saved), "the printed PGN is the saved one");
}

#[test]
fn a_draw_offer_is_accepted_when_corvid_is_worse() {
    // Corvid (Black) is a queen down.
    let out = play(
        &[
            "--color",
            "white",
            "--movetime",
            "30",
            "--fen",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        ],
        "draw\n",
    );
    assert!(out.contains("Corvid accepts the draw"), "{out}");
    assert!(out.contains("[Result \"1/2-1/2\"]"), "{out}");
    assert!(out.contains("[Termination \"normal\"]"), "{out}");
    assert!(out.contains("{Draw by agreement} 1/2-1/2"), "{out}");
}

#[test]
fn an_early_draw_offer_is_declined_and_a_bare_ending_accepted() {
    // The old policy drew here on move 2 at -0.38: in the opening Corvid declines unless clearly worse.
    let out = play(
        &["--color", "white", "--movetime", "30", "--seed", "1"],
        "e4\nNf3\ndraw\nquit\n",
    );
    assert!(out.contains("Corvid declines the draw"), "{out}");
    assert!(!out.contains("Corvid accepts the draw"), "{out}");
    // Rook against bishop, no pawns: too little for either side to win, so Corvid accepts even when better.
    let out = play(
        &[
            "--color",
            "black",
            "--movetime",
            "30",
            "--fen",
            "4k3/8/8/8/2b5/8/8/3RK3 b - - 0 1",
        ],
        "draw\n",
    );
    assert!(
        out.contains("Corvid accepts the draw (its evaluation: +"),
        "{out}"
    );
}

#[test]
fn corvid_offers_a_draw_and_the_person_accepts() {
    // An offer policy that always offers: Corvid, White, offers with its first move.
    let out = play(
        &[
            "--color",
            "black",
            "--movetime",
            "20",
            "--offer-balance",
            "100000",
            "--offer-after",
            "0",
            "--offer-streak",
            "1",
            "--elo",
            "1500",
        ],
        "decline\naccept\n",
    );
    assert!(out.contains("you play Black (chosen)"), "{out}");
    assert!(out.contains("Corvid offers a draw"), "{out}");
    // `decline` answers the offer; the following `accept` then has nothing to accept.
    assert!(
        out.contains("You decline the draw offer; play on."),
        "{out}"
    );
    assert!(
        out.contains("Cannot accept: there is no draw offer to answer."),
        "{out}"
    );
    assert!(out.contains("Game left unfinished."), "{out}");
    assert!(out.contains("[Result \"*\"]"), "{out}");

    let out = play(
        &[
            "--color",
            "black",
            "--movetime",
            "20",
            "--offer-balance",
            "100000",
            "--offer-after",
            "0",
            "--offer-streak",
            "1",
        ],
        "accept\n",
    );
    assert!(out.contains("You accept Corvid's draw offer."), "{out}");
    assert!(out.contains("[Termination \"normal\"]"), "{out}");
    assert!(out.contains("{Draw by agreement} 1/2-1/2"), "{out}");
    assert!(out.contains("[Result \"1/2-1/2\"]"), "{out}");
}

#[test]
fn corvid_resigns_a_hopeless_game() {
    // Corvid (Black) has a bare king against king and queen.
    let out = play(
        &[
            "--color",
            "white",
            "--movetime",
            "30",
            "--resign-cp",
            "500",
            "--resign-moves",
            "1",
            "--fen",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        ],
        "Qd2\n",
    );
    assert!(out.contains("Corvid resigns"), "{out}");
    assert!(out.contains("[Result \"1-0\"]"), "{out}");
    assert!(out.contains("[Termination \"normal\"]"), "{out}");
    assert!(out.contains("{Black resigns} 1-0"), "{out}");
}

#[test]
fn a_checkmate_by_the_person_ends_the_game() {
    // White mates at once.
    let out = play(
        &[
            "--color",
            "white",
            "--movetime",
            "20",
            "--fen",
            "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
        ],
        "xx\nQb8#\n",
    );
    assert!(
        out.contains("'xx' is neither a move nor a command"),
        "{out}"
    );
    assert!(out.contains("You play Qb8#."), "{out}");
    assert!(out.contains("Game over: 1-0 (White mates)."), "{out}");
    assert!(out.contains("[Termination \"normal\"]"), "{out}");
    assert!(out.contains("{White mates} 1-0"), "{out}");
}

#[test]
fn seeded_colours_are_reproducible_and_bad_flags_fail() {
    let colour = |seed: &str| {
        let out = play(
            &["--seed", seed, "--movetime", "10", "--no-offer"],
            "quit\n",
        );
        out.lines()
            .next()
            .map(|l| l.contains("you play White"))
            .unwrap_or(false)
    };
    let a: Vec<bool> = ["1", "2", "3", "4", "5", "6"]
        .iter()
        .map(|s| colour(s))
        .collect();
    let b: Vec<bool> = ["1", "2", "3", "4", "5", "6"]
        .iter()
        .map(|s| colour(s))
        .collect();
    assert_eq!(a, b);
    assert!(a.contains(&true) && a.contains(&false), "{a:?}");
    assert!(!run_corvid(&["play", "--elo", "5"], "").status.success());
}

#[test]
fn makromachy_session_with_hit_and_run_castling_and_resignation() {
    // White: King i1 with its a1 Dragon King (castling right), Terror g2 beside a black Rook on h3.
    let fen = "13k/14/14/14/14/14/14/14/14/14/14/7r6/6T7/D7K5 w Q - 0 1";
    let out = play(
        &[
            "--variant",
            "makromachy",
            "--color",
            "white",
            "--movetime",
            "30",
            "--fen",
            fen,
            "--no-resign",
            "--no-offer",
        ],
        "hello\ng2h3,h3i4\ni1c1\nresign\n",
    );
    assert!(out.contains("Makromachy: you play White"), "{out}");
    // The 14x14 board: two-digit ranks, files a..n.
    assert!(
        out.contains(" 14  .  .  .  .  .  .  .  .  .  .  .  .  .  k  14"),
        "{out}"
    );
    assert!(
        out.contains("     a  b  c  d  e  f  g  h  i  j  k  l  m  n"),
        "{out}"
    );
    assert!(
        out.contains("'hello' is neither a move nor a command"),
        "{out}"
    );
    // Hit-and-run: the Rook is gone, the Terror stands on i4.
    assert!(out.contains("You play g2h3,h3i4."), "{out}");
    assert!(
        out.contains("  4  .  .  .  .  .  .  .  . [T] .  .  .  .  .  4"),
        "{out}"
    );
    // Castling typed as the King's leg alone: the Dragon King lands on the King's square.
    assert!(out.contains("You play i1c1,a1i1."), "{out}");
    assert!(
        out.contains("  1 [.] . [K] .  .  .  .  . [D] .  .  .  .  .  1"),
        "{out}"
    );
    assert!(out.contains("Corvid plays "), "{out}");
    assert!(out.contains("Game over: 0-1 (White resigns)."), "{out}");
    let pgn = &out[out.find("[Event").expect("a PGN")..];
    assert_eq!(tag(pgn, "Variant").as_deref(), Some("makromachy"));
    assert_eq!(tag(pgn, "FEN").as_deref(), Some(fen));
    assert_eq!(tag(pgn, "Result").as_deref(), Some("0-1"));
    assert!(pgn.contains("1. g2h3,h3i4 "), "{pgn}");
    assert!(pgn.contains(" 2. i1c1,a1i1 "), "{pgn}");
}

#[test]
fn makromachy_illegal_input_then_mate_ends_the_game() {
    // Black King n14, White King m12: the Rook mates on the 14th rank.
    let out = play(
        &[
            "--variant",
            "makromachy",
            "--color",
            "white",
            "--movetime",
            "30",
            "--fen",
            "13k/14/12K1/14/14/14/14/14/14/14/14/14/14/R13 w - - 0 1",
        ],
        "a1b2\na1a14\n",
    );
    assert!(
        out.contains("'a1b2' is not a legal move here. Legal moves: "),
        "{out}"
    );
    assert!(out.contains("Game over: 1-0 (White mates)."), "{out}");
    assert!(!out.contains("Corvid plays"), "{out}");
    // A bad variant name is refused on the command line.
    let child = run_corvid(&["play", "--variant", "shogi"], "");
    assert!(!child.status.success());
    assert!(String::from_utf8_lossy(&child.stderr).contains("--variant needs chess or makromachy"));
}
