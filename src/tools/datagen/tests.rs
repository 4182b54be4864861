//! Unit tests of datagen: openings, whole games, resuming, the same file for any thread count.

use super::*;

fn config(out: &Path, games: u64, threads: u64) -> Config {
    Config {
        command: None,
        out: out.to_path_buf(),
        threads,
        positions: None,
        games: Some(games),
        seed: 42,
        nodes: 300,
        random_plies: 8,
        starts: Starts::Standard,
        dfrc_percent: 30,
        eval: "<hce>".to_string(),
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("corvid-datagen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn chess960_numbering_matches_known_positions() {
    let text = |n| -> String {
        chess960_back_rank(n)
            .iter()
            .map(|p| p.letter().to_ascii_uppercase())
            .collect()
    };
    // Registered entries of the standard numbering: 518 is the orthodox array.
    assert_eq!(text(518), "RNBQKBNR");
    assert_eq!(text(0), "BBQNNRKR");
    assert_eq!(text(959), "RKRNNQBB");
    // Every number gives a legal start: bishops on both colours, the king between the rooks.
    for n in 0..960 {
        let r = chess960_back_rank(n);
        let b: Vec<usize> = (0..8).filter(|&i| r[i] == PieceType::Bishop).collect();
        assert_eq!(b.len(), 2);
        assert_ne!(b[0] % 2, b[1] % 2);
        let rooks: Vec<usize> = (0..8).filter(|&i| r[i] == PieceType::Rook).collect();
        let king = (0..8).position(|i| r[i] == PieceType::King).expect("king");
        assert!(
            rooks.len() == 2 && rooks[0] < king && king < rooks[1],
            "{n}"
        );
        let fen = start_fen(&r, &r);
        let pos = Position::from_fen(&fen, true).expect("legal start");
        // 16 pawn moves and at least one move for each knight.
        assert!(pos.legal_moves().len() >= 18, "{fen}");
        assert_eq!(pos.castling_rights().0, 0b1111, "{fen}");
    }
    let distinct: std::collections::HashSet<String> = (0..960).map(text).collect();
    assert_eq!(distinct.len(), 960);
}

#[test]
fn random_openings_are_seeded_legal_and_unfinished() {
    for starts in [Starts::Standard, Starts::Chess960, Starts::Dfrc] {
        let a = chess_opening(starts, 8, &mut Rng::new(5)).positions;
        let b = chess_opening(starts, 8, &mut Rng::new(5)).positions;
        let c = chess_opening(starts, 8, &mut Rng::new(6)).positions;
        assert_eq!(a.len(), 9);
        let keys = |l: &[Position]| l.iter().map(|p| p.key()).collect::<Vec<_>>();
        assert_eq!(keys(&a), keys(&b));
        assert_ne!(keys(&a), keys(&c));
        let last = a[a.len() - 1];
        assert!(automatic_ending(&last, &a[..a.len() - 1]).is_none());
        assert_eq!(game_from(&a, &None).position().key(), last.key());
    }
}

#[test]
fn games_are_recorded_with_results_and_the_same_for_any_thread_count() {
    let dir = temp_dir("determinism");
    let one = dir.join("one.bin");
    let two = dir.join("two.bin");
    let stop = AtomicBool::new(false);
    let p1 = run(
        &config(&one, 6, 1),
        &stop,
        &mut |_| {},
        &ProgressBar::hidden(),
    )
    .expect("run");
    let p2 = run(
        &config(&two, 6, 2),
        &stop,
        &mut |_| {},
        &ProgressBar::hidden(),
    )
    .expect("run");
    assert_eq!(p1.games, 6);
    assert_eq!(p1, p2);
    let a = std::fs::read(&one).expect("read");
    assert_eq!(a, std::fs::read(&two).expect("read"));
    let records = format::read_records(&one).expect("records");
    assert_eq!(records.len() as u64, p1.positions);
    assert!(records.len() > 100, "{} records", records.len());
    assert_eq!(p1.white_wins + p1.draws + p1.black_wins, 6);
    for r in &records {
        assert!(r.result <= 2);
        assert!(r.score.abs() < 30_000);
        // Exactly one king each.
        let pcs = r.into_iter().filter(|&(p, _)| p & 7 == 5).count();
        assert_eq!(pcs, 2);
    }
    // Not every record can be a draw unless every game was drawn.
    if p1.draws < 6 {
        assert!(records.iter().any(|r| r.result != 1));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stopped_run_resumes_to_the_same_file() {
    let dir = temp_dir("resume");
    let whole = dir.join("whole.bin");
    let parts = dir.join("parts.bin");
    let stop = AtomicBool::new(false);
    run(
        &config(&whole, 5, 1),
        &stop,
        &mut |_| {},
        &ProgressBar::hidden(),
    )
    .expect("run");
    run(
        &config(&parts, 2, 1),
        &stop,
        &mut |_| {},
        &ProgressBar::hidden(),
    )
    .expect("first part");
    // A half-written game after the last progress update is cut off on resume.
    let mut f = OpenOptions::new().append(true).open(&parts).expect("open");
    f.write_all(&[7u8; 45]).expect("write");
    drop(f);
    let p = run(
        &config(&parts, 5, 2),
        &stop,
        &mut |_| {},
        &ProgressBar::hidden(),
    )
    .expect("resume");
    assert_eq!(p.games, 5);
    assert_eq!(
        std::fs::read(&whole).expect("read"),
        std::fs::read(&parts).expect("read")
    );
    // Other settings do not resume into the same file.
    let mut other = config(&parts, 6, 1);
    other.nodes = 301;
    assert!(run(&other, &stop, &mut |_| {}, &ProgressBar::hidden()).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_evaluation_is_a_setting_of_the_file() {
    // Progress files from before `--eval` were played with the hand-crafted evaluation.
    let old = Progress::parse("seed 1\nnodes 5000\nrandom_plies 8\nstarts standard\ngames 3\n")
        .expect("parse");
    assert_eq!(old.eval, "<hce>");
    // Progress files without a format line are bulletformat files: never resumed as games.
    assert_eq!(old.format, "bulletformat");
    assert_eq!(Progress::parse(&old.to_text()).expect("parse"), old);
    let dir = temp_dir("eval");
    let stop = AtomicBool::new(false);
    let mut c = config(&dir.join("a.bin"), 1, 1);
    c.eval = dir.join("missing.nnue").display().to_string();
    let e = run(&c, &stop, &mut |_| {}, &ProgressBar::hidden()).expect_err("a missing network");
    assert!(e.starts_with("--eval"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
