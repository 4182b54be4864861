//! Makromachy's pieces described for XBoard 4.9 (its Betza dialect, XBetza) and its piece table: what a GUI
//! needs to draw the board and check moves. Pure data about the game's pieces, kept with the board.

use super::Kind;

/// Where each Makromachy kind goes in XBoard 4.9's piece-type table (the index is the type's place in the
/// `setup` command's piece-to-char string; XBoard draws that type's image). The types are chosen for their
/// pictures: Archbishop, Marshall, Elephant, Cannon, Zebra and Camel for themselves, crowned Bishop and Rook
/// for the Dragon Horse and King, the Hawk for the Eagle, the Duck for the Raven, the Dragon for the Bat,
/// the Pegasus for the Griffon, the Gnu for the Rhino and the Amazon for the Terror. The King is always the
/// table's last type.
///
/// Two types carry rules of their own in XBoard, whatever the `piece` command says, and decide two choices:
/// the Warrior is the Lance, which XBoard treats as a Pawn outside Shogi (it promotes on the last rank, its
/// double step gives en-passant rights, its moves reset the fifty-move count), as the rules treat the
/// Warrior; and the Terror is not the Lion, whose Chu Shogi capture rules would forbid legal captures of a
/// Terror (no Terror may be taken right after a Terror was taken by another piece).
const XB_TYPES: [(usize, Kind); 23] = [
    (0, Kind::Pawn),
    (1, Kind::Knight),
    (2, Kind::Bishop),
    (3, Kind::Rook),
    (4, Kind::Queen),
    (6, Kind::Elephant),
    (7, Kind::Archbishop),
    (8, Kind::Marshall),
    (9, Kind::Archer),
    (10, Kind::Champion),
    (11, Kind::Cannon),
    (12, Kind::Vao),
    (13, Kind::DragonHorse),
    (14, Kind::DragonKing),
    (17, Kind::Eagle),
    (18, Kind::Warrior),
    (23, Kind::Zebra),
    (24, Kind::Camel),
    (28, Kind::Raven),
    (29, Kind::Terror),
    (30, Kind::Bat),
    (31, Kind::Rhino),
    (34, Kind::Griffon),
];

/// Piece types per colour in XBoard 4.9's table (the King last).
const XB_TABLE_TYPES: usize = 44;

/// The piece-to-char table of the `setup` command: White's letters by XBoard type, the King last, then
/// Black's; `.` for types Makromachy does not use.
pub fn makro_piece_to_char() -> String {
    let mut white = vec!['.'; XB_TABLE_TYPES];
    for (index, kind) in XB_TYPES {
        white[index] = kind.letter();
    }
    white[XB_TABLE_TYPES - 1] = Kind::King.letter();
    let black: String = white.iter().map(|c| c.to_ascii_lowercase()).collect();
    white.into_iter().collect::<String>() + &black
}

/// Most pieces a flying capture can pass over on a 14-square line.
const MAX_SCREENS: usize = 12;

/// A flying piece's moves on `atom`'s lines (`Q`, `R` or `B`): the plain slide (non-captures and the capture
/// of the first piece reached), then captures over 1..=12 screens, each screen a hop leg (`paf`: slide to the
/// next piece, leave it, go on in the same direction). XBoard does not know which pieces are ranked, so the
/// hops are a superset of the real flights; they carry `t` so that XBoard imagines no checks from them.
fn flying_betza(atom: char) -> String {
    let mut s = atom.to_string();
    for screens in 1..=MAX_SCREENS {
        s.push_str(&"paf".repeat(screens));
        s.push_str("ct");
        s.push(atom);
    }
    s
}

/// A kind's moves in XBoard 4.9's Betza dialect (XBetza), so that XBoard (which tests the legality of both
/// engines' moves with these) can highlight targets and write SAN. Where XBetza cannot say it exactly the
/// description is a superset, so XBoard never refuses a legal move, and imagined captures carry `t` (may not
/// take a King), so XBoard never sees a check that is not there: airlifts are plain non-capturing slides
/// (`mB`, `mR`), flying captures hop any pieces (see [`flying_betza`]). Fast castling has no XBetza form
/// (XBoard's castling puts the partner beside the King); Corvid does not castle under CECP unless the
/// `FastCastling` option is set.
pub fn xboard_betza(kind: Kind) -> String {
    let fixed = match kind {
        Kind::Eagle => return flying_betza('Q'),
        Kind::Raven => return flying_betza('R'),
        Kind::Bat => return flying_betza('B'),
        Kind::King => "K",
        Kind::Queen => "Q",
        Kind::Rook => "R",
        Kind::Bishop => "B",
        Kind::Knight => "NmB",
        Kind::Elephant => "FAmB",
        Kind::Champion => "WDAmR",
        Kind::Camel => "C",
        Kind::Zebra => "Z",
        Kind::Marshall => "RN",
        Kind::Archbishop => "BN",
        Kind::DragonKing => "RF",
        Kind::DragonHorse => "BW",
        Kind::Archer => "WA",
        // One step, then (on an empty square) a slide bent 45 degrees away from the start.
        Kind::Griffon => "FyafsF",
        Kind::Rhino => "WyafsW",
        Kind::Cannon => "mRcpR",
        Kind::Vao => "mBcpB",
        // Hit-and-run last: XBoard wants multi-leg captures after the other moves to the same square.
        Kind::Terror => "QNDAcamK",
        Kind::Warrior => "fmW2fceFbhcN",
        Kind::Pawn => "fmWifmW3fceF",
    };
    fixed.to_string()
}

/// The reply to `variant makromachy`: the `setup` command (piece letters, 14x14 board without holdings on
/// the `fairy` parent, the start position) and one `piece` command per kind (`&`: both colours).
pub fn makro_variant_lines() -> Vec<String> {
    let mut lines = vec![format!(
        "setup ({}) 14x14+0_fairy {}",
        makro_piece_to_char(),
        crate::makro::STARTPOS
    )];
    for kind in Kind::ALL {
        lines.push(format!("piece {}& {}", kind.letter(), xboard_betza(kind)));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn makromachy_piece_table_and_betza() {
        let table = makro_piece_to_char();
        assert_eq!(table.len(), 2 * XB_TABLE_TYPES);
        assert_eq!(&table[XB_TABLE_TYPES - 1..XB_TABLE_TYPES + 1], "Kp");
        // The Warrior is XBoard's Lance (Pawn-like: promotion, e.p., fifty moves), the Terror not its Lion.
        assert_eq!(table.find('W'), Some(18));
        assert_eq!(table.find('T'), Some(29));
        assert_eq!(table[5..6].to_string() + &table[21..22], "..");
        // Flying pieces: the plain slide, then captures over one to twelve screens.
        let eagle = xboard_betza(Kind::Eagle);
        assert!(eagle.starts_with("QpafctQpafpafctQ"), "{eagle}");
        assert_eq!(eagle.matches("ctQ").count(), MAX_SCREENS);
        assert_eq!(
            eagle.matches("paf").count(),
            MAX_SCREENS * (MAX_SCREENS + 1) / 2
        );
        // Every line fits XBoard's 512-byte message buffer.
        assert!(makro_variant_lines().iter().all(|l| l.len() < 500));
    }
}
