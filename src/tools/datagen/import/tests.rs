//! `datagen import`: the committed OpenBench samples (tests/data/openbench/, compact and verbose forms of the
//! same games), fastchess's own form, the compressed and archived forms, and what is refused.

use super::*;
use crate::tools::datagen::format::{parse_games, splat, MATE_EVAL};
use std::path::Path;

/// A mate in the expected scores (White's view): `M` for White, `-M` for Black.
const M: i32 = 1_000_000;

/// One expected game: start, Chess960, moves (UCI) with White's-view scores, winner.
type Expected = (
    &'static str,
    bool,
    &'static [(&'static str, i32)],
    Option<Color>,
);

/// The games of the samples that convert (the others are skipped), written independently of the PGN reader.
const SAMPLE_GAMES: [Expected; 4] = [
    // Black to move first, captures, castling, a check.
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        false,
        &[
            ("e7e5", 30),
            ("g1f3", 32),
            ("b8c6", 28),
            ("f1b5", 35),
            ("a7a6", 33),
            ("b5c6", 30),
            ("d7c6", 29),
            ("e1g1", 31),
            ("f7f6", 40),
            ("d2d4", 45),
            ("e5d4", 41),
            ("f3d4", 44),
            ("c6c5", 50),
            ("d4b3", 52),
            ("d8d1", 55),
            ("f1d1", 60),
            ("f8d6", 62),
            ("b3a5", 85),
            ("g8e7", 110),
            ("a5c4", 135),
            ("c8e6", 240),
            ("c4d6", 255),
            ("c7d6", 261),
            ("d1d6", 270),
            ("e8f7", 275),
            ("d6d2", 274),
        ],
        Some(Color::White),
    ),
    // A draw; one move carries a `line=` (pgncomment).
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        false,
        &[
            ("d2d4", 20),
            ("d7d5", 18),
            ("c2c4", 25),
            ("e7e6", 22),
            ("b1c3", 21),
            ("g8f6", 20),
            ("c1g5", 15),
            ("f8e7", 10),
            ("e2e3", 12),
            ("e8g8", 8),
            ("g1f3", 5),
            ("h7h6", 0),
            ("g5h4", 2),
            ("b7b6", 1),
        ],
        None,
    ),
    // Mate: `-M2` for Black (mated), `+M1` for White.
    (
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3",
        false,
        &[("d1h5", 120), ("g8f6", M), ("h5f7", M)],
        Some(Color::White),
    ),
    // A double-Chess960 start (Shredder-FEN), castling king-takes-rook, mate scores for Black.
    (
        "rnbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBga - 0 1",
        true,
        &[
            ("f1g1", 15),
            ("e7e5", 10),
            ("e2e4", 20),
            ("b8c6", 18),
            ("a1b3", 5),
            ("d7d6", -10),
            ("f2f4", -30),
            ("e5f4", -60),
            ("f1f4", -70),
            ("c6e5", -90),
            ("d2d4", -M),
            ("e5g4", -M),
        ],
        Some(Color::Black),
    ),
];

/// The bytes and trainable positions of expected games, through `GameRecord` as `corvid datagen` writes.
fn expected(games: &[Expected]) -> (Vec<u8>, u64) {
    let (mut bytes, mut positions) = (Vec::new(), 0);
    for (fen, chess960, moves, winner) in games {
        let pos = Position::from_fen(fen, *chess960).expect("fen");
        let (b, p) = expected_from(pos, moves, *winner);
        bytes.extend(b);
        positions += p;
    }
    (bytes, positions)
}

/// One expected game from `pos`.
fn expected_from(
    mut pos: Position,
    moves: &[(&str, i32)],
    winner: Option<Color>,
) -> (Vec<u8>, u64) {
    let mut rec = GameRecord::new(&pos).expect("record");
    for (uci, eval) in moves {
        let mv = pos.parse_uci_move(uci).expect(uci);
        match *eval {
            M => rec.push(&pos, mv, None, 1),
            e if e == -M => rec.push(&pos, mv, None, -1),
            e => rec.push(&pos, mv, Some(e), 1),
        }
        pos.make_move(mv);
    }
    let positions = rec.trainable();
    (rec.finish(winner), positions)
}

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/openbench")
        .join(name)
}

fn convert_bytes(text: &[u8], name: &str) -> Result<(Vec<u8>, Summary), String> {
    let (mut out, mut summary) = (Vec::new(), Summary::default());
    let mut sink = Sink {
        out: &mut out,
        summary: &mut summary,
    };
    convert_any(&mut &text[..], name, &mut sink, 0)?;
    Ok((out, summary))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("corvid-import-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn import(inputs: &[PathBuf], out: &Path) -> Result<Summary, String> {
    run(&ImportArgs {
        inputs: inputs.to_vec(),
        out: out.to_path_buf(),
    })
}

/// The reasons the samples' other four games are skipped for.
fn sample_skips(summary: &Summary) -> Vec<(&'static str, u64)> {
    summary.skipped.iter().map(|(k, (n, _))| (*k, *n)).collect()
}

#[test]
fn openbench_compact_and_verbose_samples_convert_to_the_expected_games() {
    let (want, positions) = expected(&SAMPLE_GAMES);
    for form in ["compact.pgn", "verbose.pgn"] {
        let text = std::fs::read(sample(form)).expect("sample");
        let (bytes, summary) = convert_bytes(&text, form).expect(form);
        assert!(bytes == want, "{form}: not the expected games");
        assert_eq!(
            (summary.games, summary.plies, summary.positions),
            (4, 26 + 14 + 3 + 12, positions),
            "{form}"
        );
        assert_eq!(
            sample_skips(&summary),
            [
                ("illegal move", 1),
                ("missing score", 1),
                ("no result", 1),
                ("unknown variant", 1)
            ],
            "{form}"
        );
        let first = |why| summary.skipped[why].1.clone();
        assert!(first("illegal move").ends_with("ply 7 (Bxe5): not a legal move"));
        assert!(first("missing score").contains("ply 2 (c5): no score in {unknown}"));
        assert!(first("unknown variant").contains("variant atomic"));
        assert!(first("no result").contains("result *"));
        // Where the game starts in the file.
        assert!(first("illegal move").starts_with(&format!("{form}:")));
    }
}

/// What the trainer reads of the converted sample: quiet positions only, side-to-move scores, mates left out.
#[test]
fn converted_sample_trains_the_quiet_positions_with_their_scores() {
    let text = std::fs::read(sample("compact.pgn")).expect("sample");
    let (bytes, summary) = convert_bytes(&text, "compact").expect("convert");
    let games = parse_games(&bytes, "compact").expect("games");
    assert_eq!(games.len(), 4);
    let records = |g: usize| {
        let mut out = Vec::new();
        splat(&games[g], &mut out).expect("splat");
        out
    };
    let total: usize = (0..4).map(|g| records(g).len()).sum();
    assert_eq!(total as u64, summary.positions);
    // The mate game: only 3. Qh5 trains (Nf6 has a mate score, Qxf7# is a capture and a mate), +1.20 for White.
    let mate = records(2);
    assert_eq!(mate.len(), 1);
    assert_eq!((mate[0].score, mate[0].result), (120, 2));
    // The DFRC game: castling is quiet; Black's positions score from Black's view; Black won.
    let dfrc = records(3);
    assert_eq!((dfrc[0].score, dfrc[0].result), (15, 0));
    assert_eq!((dfrc[1].score, dfrc[1].result), (-10, 2));
    // The first game: 26 moves, 9 captures (cxd6 also answers a check): 17 quiet ones.
    assert_eq!(records(0).len(), 17);
    // Mates are stored as mates.
    let mut evals = Vec::new();
    games[3].visit_positions(|_, eval| evals.push(eval));
    assert_eq!(evals[10..], [-(MATE_EVAL as i32), -(MATE_EVAL as i32)]);
}

/// fastchess's own file: move numbers, Black first (`3...`), `line="..."`, the ending in the last comment,
/// the extra tags, book moves; a forfeit by time is skipped, a mate with the wrong result too.
#[test]
fn fastchess_own_form_reads_the_same() {
    let text = r#"[Event "Fastchess Tournament"]
[Site "?"]
[Round "1"]
[White "Corvid-dev"]
[Black "Corvid-dev"]
[Result "1-0"]
[SetUp "1"]
[FEN "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3"]
[GameDuration "00:00:01"]
[PlyCount "3"]
[Termination "normal"]
[TimeControl "-"]

3. Qh5 {+1.20/14 0.012s, n=2500, sd=18, line="info string pgncomment capture=0"} 3... Nf6
{-M2/3 0.001s, n=31, sd=3} 4. Qxf7# {+M1/1 0.001s, n=2, sd=1, White mates} 1-0

[Event "Fastchess Tournament"]
[Result "1/2-1/2"]
[Termination "time forfeit"]

1. e4 {+0.30/10 0.010s} 1/2-1/2

[Event "Fastchess Tournament"]
[Result "0-1"]
[FEN "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3"]

3. Qh5 {+1.20/14} Nf6 {-M2/3} 4. Qxf7# {+M1/1} 0-1

[Event "Fastchess Tournament"]
[Result "1-0"]

1. e4 {book} 1... e5 {book} 2. Nf3 {+0.32/12} Nc6 {0.00/0} 1-0

[Event "Fastchess Tournament"]
[Result "1-0"]

1. e4 {book} e5 {+0.10/9} 2. Nf3 {book} 1-0
"#;
    let (bytes, summary) = convert_bytes(text.as_bytes(), "fastchess").expect("convert");
    let (want, _) = expected(&SAMPLE_GAMES[2..3]);
    assert!(bytes == want);
    assert_eq!(
        sample_skips(&summary),
        [("forfeit", 1), ("missing score", 2), ("wrong result", 1)]
    );
    assert!(summary.skipped["missing score"].1.contains("depth 0"));
    assert!(summary.skipped["wrong result"].1.contains("mate"));
    // Book moves lead to the first searched position.
    let book = "[Result \"1-0\"]\n\n1. e4 {book} e5 {book} 2. Nf3 {+0.32/12} Nc6 {-0.30/11} 1-0\n";
    let (bytes, _) = convert_bytes(book.as_bytes(), "book").expect("book");
    let mut start = Position::startpos();
    for uci in ["e2e4", "e7e5"] {
        start.make_move(start.parse_uci_move(uci).expect(uci));
    }
    let (want, _) = expected_from(start, &[("g1f3", 32), ("b8c6", 30)], Some(Color::White));
    assert!(bytes == want);
}

#[test]
fn score_comments_parse() {
    let cases = [
        ("+0.35/12", Some((Score::Cp(35), 12))),
        ("-1.20/9 0.012s, n=2500, sd=14", Some((Score::Cp(-120), 9))),
        ("0.00/14, line=anything at all", Some((Score::Cp(0), 14))),
        ("+12.5/3", Some((Score::Cp(1250), 3))),
        ("-0.07/1", Some((Score::Cp(-7), 1))),
        ("+M5/20", Some((Score::Mate(1), 20))),
        ("-M4/18 0.1s", Some((Score::Mate(-1), 18))),
        ("unknown", None),
        ("book", None),
        ("ERR/0 0.010s", None),
        ("+0.355/12", None),
        ("+0.35", None),
        ("+x.35/12", None),
        ("", None),
    ];
    for (text, want) in cases {
        assert_eq!(parse_score(text), want, "{text}");
    }
}

/// A cut-off or malformed file refuses the whole import with a message that says where; nothing is written.
#[test]
fn cut_or_malformed_pgn_is_refused_and_writes_nothing() {
    let dir = temp_dir("refused");
    let good = std::fs::read_to_string(sample("compact.pgn")).expect("sample");
    let cut_at = good.rfind(" d5 ").expect("the last game's moves");
    let cases = [
        (
            "cut.pgn",
            good[..cut_at].to_string(),
            "ends before the result",
        ),
        (
            "open-comment.pgn",
            format!("{good}\n[Result \"1-0\"]\n\ne4 {{+0.30/10 e5 1-0\n"),
            "ends inside a comment",
        ),
        (
            "bad-tag.pgn",
            format!("[Event \"x\"]\n[Result 1-0]\n\ne4 {{+0.30/10}} 1-0\n{good}"),
            "not a tag pair",
        ),
        (
            "junk.pgn",
            format!("{good}\n[Result \"1-0\"]\n\ne4 {{+0.30/10}} \u{1}\u{2}xx 1-0\n"),
            "not a move",
        ),
        (
            "after-result.pgn",
            format!("[Result \"1-0\"]\n\ne4 {{+0.30/10}} 1-0 e5\n{good}"),
            "text after the result",
        ),
        (
            "two-cut.pgn",
            format!(
                "[Result \"1-0\"]\n\ne4 {{+0.30/10}} e5 {{-0.2/9}}\n{}",
                &good
            ),
            "a tag among the moves",
        ),
        ("binary.pgn", "\u{0}\u{1}BZ".to_string(), "not a move"),
    ];
    for (name, text, why) in cases {
        let input = dir.join(name);
        std::fs::write(&input, text).expect("write");
        let out = dir.join(format!("{name}.vf"));
        let err = import(&[input], &out).expect_err(name);
        assert!(err.contains(name) && err.contains(why), "{name}: {err}");
        assert!(!out.exists(), "{name}");
        assert!(!dir.join(format!("{name}.vf.part")).exists(), "{name}");
    }
    let bytes = [0xffu8, 0xfe, b'\n'];
    std::fs::write(dir.join("latin.pgn"), bytes).expect("write");
    let err = import(&[dir.join("latin.pgn")], &dir.join("latin.vf")).expect_err("latin");
    assert!(err.contains("not text"), "{err}");
    // Nothing to convert, an existing output: refused as well.
    let skipped_only = dir.join("skipped.pgn");
    std::fs::write(&skipped_only, "[Result \"*\"]\n\ne4 {+0.3/9} *\n").expect("write");
    let err = import(&[skipped_only], &dir.join("none.vf")).expect_err("no games");
    assert!(err.contains("no game could be converted"), "{err}");
    assert!(!dir.join("none.vf").exists());
    let out = dir.join("exists.vf");
    std::fs::write(&out, b"x").expect("write");
    let err = import(&[sample("compact.pgn")], &out).expect_err("exists");
    assert!(err.contains("exists"), "{err}");
    assert_eq!(std::fs::read(&out).expect("kept"), b"x");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ustar archive of (name, bytes) members, as Python's tarfile writes OpenBench's download.
fn tar(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, data) in members {
        let mut h = [0u8; 512];
        h[..name.len()].copy_from_slice(name.as_bytes());
        h[100..108].copy_from_slice(b"0000644\0");
        h[108..116].copy_from_slice(b"0000000\0");
        h[116..124].copy_from_slice(b"0000000\0");
        h[124..136].copy_from_slice(format!("{:011o}\0", data.len()).as_bytes());
        h[136..148].copy_from_slice(b"00000000000\0");
        h[156] = b'0';
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|&b| b as u32).sum();
        h[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
        out.extend_from_slice(&h);
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.resize(out.len() + 1024, 0);
    out
}

fn bz2(data: &[u8]) -> Vec<u8> {
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    enc.write_all(data).expect("compress");
    enc.finish().expect("compress")
}

/// OpenBench's upload (`.pgn.bz2`) and download (`.pgn.tar` of them) read as the text; cut ones are refused.
#[test]
fn bz2_uploads_and_the_tar_download_read_like_the_text() {
    let dir = temp_dir("archives");
    let compact = std::fs::read(sample("compact.pgn")).expect("sample");
    let verbose = std::fs::read(sample("verbose.pgn")).expect("sample");
    let (mut want, _) = expected(&SAMPLE_GAMES);
    want.extend(want.clone());
    let download = tar(&[
        ("40.101.0.pgn.bz2", &bz2(&compact)),
        ("40.102.0.pgn.bz2", &bz2(&verbose)),
    ]);
    std::fs::write(dir.join("40.pgn.tar"), &download).expect("write");
    let summary = import(&[dir.join("40.pgn.tar")], &dir.join("tar.vf")).expect("tar");
    assert_eq!((summary.games, summary.skipped_games()), (8, 8));
    assert!(std::fs::read(dir.join("tar.vf")).expect("out") == want);
    // A directory of uploads, in name order.
    let uploads = dir.join("uploads");
    std::fs::create_dir_all(&uploads).expect("dir");
    std::fs::write(uploads.join("b.pgn.bz2"), bz2(&verbose)).expect("write");
    std::fs::write(uploads.join("a.pgn"), &compact).expect("write");
    std::fs::write(uploads.join("notes.txt"), "not read").expect("write");
    import(std::slice::from_ref(&uploads), &dir.join("dir.vf")).expect("dir");
    assert!(std::fs::read(dir.join("dir.vf")).expect("out") == want);
    // Cut archives and streams.
    let packed = bz2(&compact);
    let cuts: [(&str, Vec<u8>, &str); 3] = [
        (
            "cut.pgn.bz2",
            packed[..packed.len() - 20].to_vec(),
            "cut.pgn.bz2",
        ),
        ("cut.pgn.tar", download[..700].to_vec(), "40.101.0.pgn.bz2"),
        (
            "noend.pgn.tar",
            download[..download.len() - 1024].to_vec(),
            "end-of-archive",
        ),
    ];
    for (name, bytes, says) in cuts {
        std::fs::write(dir.join(name), bytes).expect("write");
        let out = dir.join(format!("{name}.vf"));
        let err = import(&[dir.join(name)], &out).expect_err(name);
        assert!(err.contains(says), "{name}: {err}");
        assert!(!out.exists(), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `corvid datagen import ...` parses as datagen's subcommand; datagen's own options do not mix with it.
#[test]
fn the_command_line_reads_datagen_import() {
    use clap::Parser;
    #[derive(clap::Parser, Debug)]
    enum Top {
        Datagen(crate::tools::datagen::Config),
    }
    let parse = |line: &str| Top::try_parse_from(line.split_whitespace());
    let Ok(Top::Datagen(config)) = parse("corvid datagen import a.pgn dir --out b.vf") else {
        panic!("datagen import")
    };
    let Some(Command::Import(args)) = config.command else {
        panic!("no import")
    };
    assert_eq!(args.inputs, [PathBuf::from("a.pgn"), PathBuf::from("dir")]);
    assert_eq!(args.out, PathBuf::from("b.vf"));
    assert!(parse("corvid datagen import --out b.vf").is_err());
    assert!(parse("corvid datagen import a.pgn").is_err());
    assert!(parse("corvid datagen --threads 2 import a.pgn --out b.vf").is_err());
    let Ok(Top::Datagen(plain)) = parse("corvid datagen --threads 2") else {
        panic!("datagen")
    };
    assert!(plain.command.is_none());
}
