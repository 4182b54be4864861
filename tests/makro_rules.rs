//! Every special Makromachy rule, each both ways (allowed and forbidden), on positions built for it.

use corvid::chess::Color;
use corvid::fen::FenError;
use corvid::makro::{Kind, Position};

/// A FEN from piece placements like `("K", "i1")` (upper case White), side to move and castling field.
fn fen_of(pieces: &[(&str, &str)], side: &str, castling: &str) -> String {
    let mut board = [['.'; 14]; 14];
    for (p, s) in pieces {
        let file = (s.as_bytes()[0] - b'a') as usize;
        let rank: usize = s[1..].parse::<usize>().unwrap() - 1;
        board[rank][file] = p.chars().next().unwrap();
    }
    let mut ranks = Vec::new();
    for rank in (0..14).rev() {
        let mut text = String::new();
        let mut run = 0;
        for &c in &board[rank] {
            if c == '.' {
                run += 1;
            } else {
                if run > 0 {
                    text.push_str(&run.to_string());
                    run = 0;
                }
                text.push(c);
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        ranks.push(text);
    }
    format!("{} {side} {castling} - 0 1", ranks.join("/"))
}

fn pos(pieces: &[(&str, &str)]) -> Position {
    Position::from_fen(&fen_of(pieces, "w", "-")).unwrap_or_else(|e| panic!("{e}"))
}

fn legal(p: &Position, text: &str) -> bool {
    p.legal_moves().iter().any(|m| m.text() == text)
}

fn assert_legal(p: &Position, text: &str) {
    assert!(legal(p, text), "{text} should be legal in {}", p.to_fen());
}

fn assert_illegal(p: &Position, text: &str) {
    assert!(
        !legal(p, text),
        "{text} should be illegal in {}",
        p.to_fen()
    );
}

const KINGS: [(&str, &str); 2] = [("K", "a1"), ("k", "n14")];

fn with_kings<'a>(rest: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = KINGS.to_vec();
    v.extend_from_slice(rest);
    v
}

#[test]
fn flying_capture_over_unranked_pieces_but_not_over_ranked_ones() {
    // Eagle d2 looks up the d-file: own Rook d4, enemy Knight d6, enemy Queen d9.
    let p = pos(&with_kings(&[
        ("L", "d2"),
        ("R", "d4"),
        ("n", "d6"),
        ("q", "d9"),
    ]));
    assert_legal(&p, "d2d6"); // over an own unranked piece
    assert_legal(&p, "d2d9"); // any enemy further on, over another enemy
    assert_illegal(&p, "d2d5"); // a non-capture cannot fly
                                // An Archer (ranked) on d7 ends the line: d9 is out of reach, d7's enemy Archer is not.
    let q = pos(&with_kings(&[
        ("L", "d2"),
        ("R", "d4"),
        ("o", "d7"),
        ("q", "d9"),
    ]));
    assert_legal(&q, "d2d7");
    assert_illegal(&q, "d2d9");
    // An own ranked piece ends it too.
    let r = pos(&with_kings(&[("L", "d2"), ("S", "d5"), ("q", "d9")]));
    assert_illegal(&r, "d2d9");
    // Raven flies only orthogonally, Bat only diagonally.
    let s = pos(&with_kings(&[
        ("F", "d2"),
        ("N", "d3"),
        ("q", "d5"),
        ("S", "h2"),
        ("N", "i3"),
        ("q", "j4"),
        ("q", "f4"),
    ]));
    assert_legal(&s, "d2d5");
    assert_legal(&s, "h2j4");
    assert_illegal(&s, "d2f4");
}

#[test]
fn check_by_a_flying_piece_over_screens() {
    // Black Eagle on e14 sees the white King on e1 over unranked pieces of both colours: check.
    let p = Position::from_fen(&fen_of(
        &[
            ("K", "e1"),
            ("N", "e3"),
            ("p", "e7"),
            ("l", "e14"),
            ("k", "n14"),
        ],
        "w",
        "-",
    ))
    .unwrap();
    assert!(p.in_check());
    // Every legal move must answer it: a random Knight move elsewhere does not.
    assert_illegal(&p, "e3f5");
    assert_legal(&p, "e1d1");
    // A ranked piece in between (an Archer) blocks the flight: no check.
    let q = Position::from_fen(&fen_of(
        &[("K", "e1"), ("O", "e3"), ("l", "e14"), ("k", "n14")],
        "w",
        "-",
    ))
    .unwrap();
    assert!(!q.in_check());
    // The side not to move may not be left in such a check.
    let bad = fen_of(
        &[("K", "e1"), ("N", "e3"), ("l", "e14"), ("k", "n14")],
        "b",
        "-",
    );
    assert_eq!(
        Position::from_fen(&bad).unwrap_err(),
        FenError::OpponentInCheck
    );
    // Unranked pieces cannot block a flying check, but a ranked one pins: the Archer on e2 must stay on the file.
    let pin = Position::from_fen(&fen_of(
        &[("K", "e1"), ("O", "e2"), ("l", "e14"), ("k", "n14")],
        "w",
        "-",
    ))
    .unwrap();
    assert!(!pin.in_check());
    assert_illegal(&pin, "e2d2");
    assert_illegal(&pin, "e2g4");
    assert_legal(&pin, "e2e3");
}

#[test]
fn cannon_and_vao_need_exactly_one_screen() {
    let p = pos(&with_kings(&[
        ("C", "c3"),
        ("P", "c5"),
        ("r", "c8"),
        ("V", "h3"),
        ("p", "i4"),
        ("n", "k6"),
    ]));
    assert_legal(&p, "c3c8"); // one screen
    assert_illegal(&p, "c3c5"); // cannot capture without a screen (and c5 is own anyway)
    assert_legal(&p, "c3c4"); // moves like a Rook over empty squares
    assert_illegal(&p, "c3c6"); // no jumping for a non-capture
    assert_legal(&p, "h3k6"); // Vao: one screen on the diagonal
                              // Two screens: no capture.
    let q = pos(&with_kings(&[
        ("C", "c3"),
        ("P", "c5"),
        ("n", "c6"),
        ("r", "c8"),
    ]));
    assert_illegal(&q, "c3c8");
    assert_legal(&q, "c3c6");
    // Cannon check through a screen.
    let c = Position::from_fen(&fen_of(
        &[("K", "e1"), ("N", "e5"), ("c", "e9"), ("k", "n14")],
        "w",
        "-",
    ))
    .unwrap();
    assert!(c.in_check());
    let nc =
        Position::from_fen(&fen_of(&[("K", "e1"), ("c", "e9"), ("k", "n14")], "w", "-")).unwrap();
    assert!(!nc.in_check());
    // A ranked piece (an Archer) is a screen like any other.
    let ranked = Position::from_fen(&fen_of(
        &[("K", "e1"), ("O", "e5"), ("c", "e9"), ("k", "n14")],
        "w",
        "-",
    ))
    .unwrap();
    assert!(ranked.in_check());
    let vao = Position::from_fen(&fen_of(
        &[("K", "h3"), ("O", "e6"), ("v", "d7"), ("k", "n14")],
        "w",
        "-",
    ))
    .unwrap();
    assert!(vao.in_check());
}

#[test]
fn airlifts() {
    // Knight on d4: diagonal towards h8 with a blocker on h8 (4 steps): lands on g7.
    let p = pos(&with_kings(&[("N", "d4"), ("p", "h8")]));
    assert_legal(&p, "d4g7");
    // Blocker only 3 steps away: no airlift for a Knight.
    let q = pos(&with_kings(&[("N", "d4"), ("p", "g7")]));
    assert_illegal(&q, "d4f6");
    // Never towards the edge (no blocker), never a capture.
    let r = pos(&with_kings(&[("N", "d7")]));
    assert_illegal(&r, "d7a10");
    assert_illegal(&r, "d7k14");
    assert_illegal(&p, "d4h8");
    // Champion: orthogonal airlift; Elephant: diagonal.
    let c = pos(&with_kings(&[
        ("I", "d4"),
        ("P", "d10"),
        ("E", "h2"),
        ("p", "m7"),
    ]));
    assert_legal(&c, "d4d9");
    assert_legal(&c, "h2l6");
}

#[test]
fn hit_and_run() {
    let p = pos(&with_kings(&[("T", "g2"), ("p", "h3"), ("P", "i4")]));
    assert_legal(&p, "g2h3,h3i3");
    assert_legal(&p, "g2h3"); // the ordinary capture stopping there
    assert_illegal(&p, "g2h3,h3i4"); // second leg onto an occupied square
    assert_illegal(&p, "g2h3,h3g2"); // not back to the start
                                     // Hit-and-run on a protected Terror is always allowed (anti-trade binds only landing captures).
    let q = pos(&with_kings(&[("T", "g2"), ("t", "h3"), ("r", "h10")]));
    assert_legal(&q, "g2h3,h3i3");
    assert_illegal(&q, "g2h3");
}

#[test]
fn terror_anti_trade() {
    // Unprotected Terrors: may be taken by Terror and Eagle.
    let p = pos(&with_kings(&[
        ("T", "d3"),
        ("t", "d5"),
        ("L", "j4"),
        ("t", "j8"),
    ]));
    assert_legal(&p, "d3d5");
    assert_legal(&p, "j4j8");
    // Protected by a black Rook: neither may land on it; any other piece may.
    let q = pos(&with_kings(&[
        ("T", "d3"),
        ("t", "d5"),
        ("r", "d12"),
        ("R", "b5"),
    ]));
    assert_illegal(&q, "d3d5");
    assert_legal(&q, "b5d5");
    // Protection by a flying piece over screens counts: the black Bat on h9 flies over the white Knight on
    // g8 to recapture on e6.
    let f = pos(&with_kings(&[
        ("T", "e4"),
        ("t", "e6"),
        ("N", "g8"),
        ("s", "h9"),
    ]));
    assert_illegal(&f, "e4e6");
    // With an Archer as the screen the Bat cannot fly: the capture is allowed.
    let g = pos(&with_kings(&[
        ("T", "e4"),
        ("t", "e6"),
        ("O", "g8"),
        ("s", "h9"),
    ]));
    assert_legal(&g, "e4e6");
    // An Eagle capturing a Terror protected by a Cannon (screen, then the capturer) is forbidden too.
    let c = pos(&with_kings(&[
        ("L", "c2"),
        ("t", "c9"),
        ("p", "c11"),
        ("c", "c12"),
    ]));
    assert_illegal(&c, "c2c9");
    let c2 = pos(&with_kings(&[("L", "c2"), ("t", "c9"), ("c", "c12")]));
    assert_legal(&c2, "c2c9"); // no screen, no recapture
}

#[test]
fn griffon_and_rhino() {
    let p = pos(&with_kings(&[("G", "d4"), ("U", "j4")]));
    assert_legal(&p, "d4e5"); // diagonal step
    assert_legal(&p, "d4h5"); // e5 then along the rank away from d
    assert_legal(&p, "d4e9"); // e5 then up the file
    assert_legal(&p, "d4a5"); // c5 then along the rank the other way
    assert_illegal(&p, "d4f6"); // no plain diagonal slide
    assert_legal(&p, "j4j5"); // Rhino orthogonal step
    assert_legal(&p, "j4l7"); // j5 then diagonal
    assert_illegal(&p, "j4l6"); // not on either bent line
                                // First step blocked: no continuation.
    let q = pos(&with_kings(&[
        ("G", "d4"),
        ("P", "e5"),
        ("U", "j4"),
        ("P", "j5"),
    ]));
    assert_illegal(&q, "d4h5");
    assert_illegal(&q, "j4l7");
    // Bent check: a black Griffon on f8 steps to g7 and slides down the g-file to the King on g1.
    let c =
        Position::from_fen(&fen_of(&[("K", "g1"), ("g", "f8"), ("k", "n14")], "w", "-")).unwrap();
    assert!(c.in_check());
    let nc = Position::from_fen(&fen_of(
        &[("K", "g1"), ("P", "g4"), ("g", "f8"), ("k", "n14")],
        "w",
        "-",
    ))
    .unwrap();
    assert!(!nc.in_check());
}

#[test]
fn warriors() {
    let p = pos(&with_kings(&[
        ("W", "e7"),
        ("n", "d5"),
        ("b", "g6"),
        ("r", "f8"),
    ]));
    assert_legal(&p, "e7e8");
    assert_legal(&p, "e7e9"); // two from any rank
    assert_legal(&p, "e7d5"); // backward Knight capture
    assert_legal(&p, "e7g6");
    assert_legal(&p, "e7f8"); // diagonal forward capture
    assert_illegal(&p, "e7c6"); // backward Knight move without a capture
    assert_illegal(&p, "e7e6"); // never backward straight
    let blocked = pos(&with_kings(&[("W", "e7"), ("P", "e8")]));
    assert_illegal(&blocked, "e7e9");
    // A black Warrior checks backwards like a Knight (Black's backward is up the board).
    let c =
        Position::from_fen(&fen_of(&[("K", "e5"), ("w", "d3"), ("k", "n14")], "w", "-")).unwrap();
    assert!(c.in_check());
    let nc =
        Position::from_fen(&fen_of(&[("K", "e1"), ("w", "d3"), ("k", "n14")], "w", "-")).unwrap();
    assert!(!nc.in_check(), "forward Knight squares are no capture");
}

#[test]
fn triple_push_and_en_passant_on_every_passed_square() {
    // White Pawn e4 advances three; a black Pawn on d7 and a black Warrior on f6 stand beside the passed squares.
    let s = Position::from_fen(&fen_of(
        &[
            ("K", "a1"),
            ("k", "n14"),
            ("P", "e4"),
            ("p", "d7"),
            ("w", "f6"),
        ],
        "w",
        "-",
    ))
    .unwrap();
    let mut q = s.clone();
    q.make_move(q.parse_move("e4e7").unwrap());
    assert_eq!(q.to_fen().split(' ').nth(3), Some("e5e6"));
    assert_legal(&q, "d7e6"); // Pawn takes e.p. on the first passed square
    assert_legal(&q, "f6e5"); // Warrior takes e.p. on the second
    let mut taken = q.clone();
    taken.make_move(taken.parse_move("f6e5").unwrap());
    assert!(taken
        .piece_at(corvid::makro::geometry::parse_square("e7").unwrap())
        .is_none());
    // One move later the right is gone.
    let mut later = q.clone();
    later.make_move(later.parse_move("n14n13").unwrap());
    later.make_move(later.parse_move("a1a2").unwrap());
    assert_illegal(&later, "d7e6");
    // A Warrior's backward capture never takes en passant: g4 sees e5 only as a backward Knight square.
    let w = Position::from_fen(&fen_of(
        &[("K", "a1"), ("k", "n14"), ("P", "e4"), ("w", "g4")],
        "w",
        "-",
    ))
    .unwrap();
    let mut wq = w.clone();
    wq.make_move(wq.parse_move("e4e6").unwrap());
    assert_illegal(&wq, "g4e5");
    assert_eq!(
        wq.to_fen().split(' ').nth(3),
        Some("-"),
        "no real e.p. right, none written"
    );
}

#[test]
fn sixteen_way_promotion() {
    let p = pos(&with_kings(&[("P", "c13"), ("r", "b14")]));
    let promos: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| m.text())
        .filter(|t| t.starts_with("c13"))
        .collect();
    assert_eq!(
        promos.len(),
        32,
        "16 kinds straight and 16 capturing: {promos:?}"
    );
    assert_legal(&p, "c13c14q");
    assert_legal(&p, "c13b14d");
    for forbidden in ["k", "p", "w", "o", "s", "f", "l", "t"] {
        assert_illegal(&p, &format!("c13c14{forbidden}"));
    }
    assert_illegal(&p, "c13c14"); // promotion is mandatory
}

#[test]
fn fast_castling() {
    let base = |extra: &[(&'static str, &'static str)]| {
        let mut v = vec![
            ("K", "i1"),
            ("D", "a1"),
            ("D", "n1"),
            ("k", "i14"),
            ("C", "e1"),
        ];
        v.extend_from_slice(extra);
        Position::from_fen(&fen_of(&v, "w", "KQ")).unwrap()
    };
    let p = base(&[]);
    for t in [
        "i1b1,a1i1",
        "i1d1,a1i1",
        "i1h1,a1i1",
        "i1j1,n1i1",
        "i1m1,n1i1",
    ] {
        assert_legal(&p, t);
    }
    assert_illegal(&p, "i1e1,a1i1"); // landing square occupied (pieces in between are fine)
    assert_legal(&p, "i1h1"); // a plain King step is another move
                              // Landing square attacked: forbidden; squares passed over may be attacked.
    let q = base(&[("r", "c10"), ("r", "g10")]);
    assert_illegal(&q, "i1c1,a1i1");
    assert_legal(&q, "i1d1,a1i1");
    assert_legal(&q, "i1b1,a1i1"); // passes the attacked c1 and g1
                                   // Not out of check.
    let c = base(&[("r", "i10")]);
    assert!(c.in_check());
    assert_illegal(&c, "i1j1,n1i1");
    // Moving the Dragon King loses that side's right.
    let mut m = base(&[]);
    m.make_move(m.parse_move("n1n2").unwrap());
    m.make_move(m.parse_move("i14i13").unwrap());
    m.make_move(m.parse_move("n2n1").unwrap());
    m.make_move(m.parse_move("i13i14").unwrap());
    assert_illegal(&m, "i1j1,n1i1");
    assert_legal(&m, "i1b1,a1i1");
    // After castling, the Dragon King stands on the King's start square and White's rights are gone.
    let mut after = base(&[]);
    after.make_move(after.parse_move("i1c1,a1i1").unwrap());
    let at = |s: &str| after.piece_at(corvid::makro::geometry::parse_square(s).unwrap());
    assert_eq!(at("c1"), Some((Color::White, Kind::King)));
    assert_eq!(at("i1"), Some((Color::White, Kind::DragonKing)));
    assert_eq!(at("a1"), None);
    assert_eq!(after.castling_rights(), 0);
}

#[test]
fn fen_errors_are_typed() {
    let e = |f: &str| Position::from_fen(f).unwrap_err();
    assert!(matches!(
        e("14/14 w - - 0 1"),
        FenError::RankCount { found: 2, .. }
    ));
    let mut ranks = vec!["14"; 14];
    ranks[0] = "k13";
    ranks[13] = "K12";
    assert!(matches!(
        e(&format!("{} w - - 0 1", ranks.join("/"))),
        FenError::RankLength { rank: 1, .. }
    ));
    ranks[13] = "K13";
    assert!(Position::from_fen(&format!("{} w - - 0 1", ranks.join("/"))).is_ok());
    ranks[5] = "x13";
    assert!(matches!(
        e(&format!("{} w - - 0 1", ranks.join("/"))),
        FenError::BadPieceLetter('x')
    ));
    ranks[5] = "14";
    ranks[0] = "14";
    assert!(matches!(
        e(&format!("{} w - - 0 1", ranks.join("/"))),
        FenError::MissingKing(_)
    ));
    ranks[0] = "k12P";
    assert!(matches!(
        e(&format!("{} w - - 0 1", ranks.join("/"))),
        FenError::UnpromotedOnLastRank(_)
    ));
    ranks[0] = "k13";
    assert!(matches!(
        e(&format!("{} w K - 0 1", ranks.join("/"))),
        FenError::CastlingWithoutPieces { right: 'K', .. }
    ));
    assert!(matches!(
        e(&format!("{} w - e5 0 1", ranks.join("/"))),
        FenError::BadEnPassant(_)
    ));
    assert!(matches!(
        e(&format!("{} x - - 0 1", ranks.join("/"))),
        FenError::BadSideToMove(_)
    ));
}
