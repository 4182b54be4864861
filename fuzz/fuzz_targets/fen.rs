//! Arbitrary text as a FEN: parsing may refuse it but never panic, and an accepted position must be sound
//! (its FEN round-trips, its key matches a recomputation, every legal move can be played and re-read).
#![no_main]

use corvid::chess::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for chess960 in [false, true] {
        let Ok(pos) = Position::from_fen(text, chess960) else {
            continue;
        };
        let fen = pos.to_fen();
        let again = Position::from_fen(&fen, pos.is_chess960()).expect("own FEN re-reads");
        assert_eq!(again.to_fen(), fen);
        assert_eq!(pos.key(), pos.compute_key());
        for &m in pos.legal_moves().iter() {
            let text = m.to_uci(pos.is_chess960());
            assert_eq!(pos.parse_uci_move(&text), Ok(m));
            let mut child = pos;
            child.make_move(m);
            assert_eq!(child.key(), child.compute_key());
        }
    }
});
