//! Makromachy perft from the start position against the reference counts in the rules file.

use corvid::makro::{perft, Position};

#[test]
fn startpos_depth_1_to_3() {
    let pos = Position::startpos();
    assert_eq!(perft(&pos, 1), 62);
    assert_eq!(perft(&pos, 2), 3_854);
    assert_eq!(perft(&pos, 3), 259_249);
}

#[test]
fn fen_round_trip() {
    let pos = Position::startpos();
    assert_eq!(pos.to_fen(), corvid::makro::STARTPOS);
}

#[test]
fn startpos_depth_4() {
    let pos = Position::startpos();
    let t = std::time::Instant::now();
    assert_eq!(perft(&pos, 4), 17_452_279);
    eprintln!("makromachy perft 4: {:?}", t.elapsed());
}
