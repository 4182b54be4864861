//! Makromachy's 24 piece kinds: letters, which are "ranked" (end a flying piece's line), and their leaps.

use crate::types::{joined, leaps, scaled, Leap};

/// A piece kind. The discriminants are the codes stored on the board (1..=24).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    King = 1,
    Queen,
    Rook,
    Bishop,
    Knight,
    Elephant,
    Champion,
    Camel,
    Zebra,
    Marshall,
    Archbishop,
    DragonKing,
    DragonHorse,
    Archer,
    Griffon,
    Rhino,
    Cannon,
    Vao,
    Eagle,
    Raven,
    Bat,
    Terror,
    Warrior,
    Pawn,
}

pub const KIND_COUNT: usize = 24;

impl Kind {
    pub const ALL: [Kind; KIND_COUNT] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Elephant,
        Kind::Champion,
        Kind::Camel,
        Kind::Zebra,
        Kind::Marshall,
        Kind::Archbishop,
        Kind::DragonKing,
        Kind::DragonHorse,
        Kind::Archer,
        Kind::Griffon,
        Kind::Rhino,
        Kind::Cannon,
        Kind::Vao,
        Kind::Eagle,
        Kind::Raven,
        Kind::Bat,
        Kind::Terror,
        Kind::Warrior,
        Kind::Pawn,
    ];

    /// Promotion choices, in the order the rules list them.
    pub const PROMOTIONS: [Kind; 16] = [
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Elephant,
        Kind::Cannon,
        Kind::Champion,
        Kind::Rhino,
        Kind::Griffon,
        Kind::Camel,
        Kind::Marshall,
        Kind::Archbishop,
        Kind::DragonKing,
        Kind::DragonHorse,
        Kind::Vao,
        Kind::Zebra,
    ];

    #[inline(always)]
    pub const fn from_code(code: u8) -> Kind {
        Kind::ALL[(code - 1) as usize]
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// Upper-case letter (White's).
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Elephant => 'E',
            Kind::Champion => 'I',
            Kind::Camel => 'J',
            Kind::Zebra => 'Z',
            Kind::Marshall => 'M',
            Kind::Archbishop => 'A',
            Kind::DragonKing => 'D',
            Kind::DragonHorse => 'H',
            Kind::Archer => 'O',
            Kind::Griffon => 'G',
            Kind::Rhino => 'U',
            Kind::Cannon => 'C',
            Kind::Vao => 'V',
            Kind::Eagle => 'L',
            Kind::Raven => 'F',
            Kind::Bat => 'S',
            Kind::Terror => 'T',
            Kind::Warrior => 'W',
            Kind::Pawn => 'P',
        }
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        let up = c.to_ascii_uppercase();
        Kind::ALL.iter().copied().find(|k| k.letter() == up)
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::King => "King",
            Kind::Queen => "Queen",
            Kind::Rook => "Rook",
            Kind::Bishop => "Bishop",
            Kind::Knight => "Knight",
            Kind::Elephant => "Elephant",
            Kind::Champion => "Champion",
            Kind::Camel => "Camel",
            Kind::Zebra => "Zebra",
            Kind::Marshall => "Marshall",
            Kind::Archbishop => "Archbishop",
            Kind::DragonKing => "Dragon King",
            Kind::DragonHorse => "Dragon Horse",
            Kind::Archer => "Archer",
            Kind::Griffon => "Griffon",
            Kind::Rhino => "Rhino",
            Kind::Cannon => "Cannon",
            Kind::Vao => "Vao",
            Kind::Eagle => "Eagle",
            Kind::Raven => "Raven",
            Kind::Bat => "Bat",
            Kind::Terror => "Terror",
            Kind::Warrior => "Warrior",
            Kind::Pawn => "Pawn",
        }
    }

    /// Ranked pieces end a flying piece's line.
    #[inline(always)]
    pub const fn is_ranked(self) -> bool {
        matches!(self, Kind::Eagle | Kind::Raven | Kind::Bat | Kind::Archer)
    }

    /// Slides along ranks and files (moving and capturing normally), or flies along them.
    #[inline(always)]
    pub const fn slides_orthogonally(self) -> bool {
        matches!(
            self,
            Kind::Queen
                | Kind::Rook
                | Kind::Marshall
                | Kind::DragonKing
                | Kind::Eagle
                | Kind::Raven
                | Kind::Terror
        )
    }

    #[inline(always)]
    pub const fn slides_diagonally(self) -> bool {
        matches!(
            self,
            Kind::Queen
                | Kind::Bishop
                | Kind::Archbishop
                | Kind::DragonHorse
                | Kind::Eagle
                | Kind::Bat
                | Kind::Terror
        )
    }

    /// Moves along ranks and files: its slides plus the Cannon's (generation, mobility and the long-range set
    /// all ask this).
    #[inline(always)]
    pub const fn moves_along_orthogonals(self) -> bool {
        self.slides_orthogonally() || matches!(self, Kind::Cannon)
    }

    /// Moves along diagonals: its slides plus the Vao's.
    #[inline(always)]
    pub const fn moves_along_diagonals(self) -> bool {
        self.slides_diagonally() || matches!(self, Kind::Vao)
    }

    /// Flying capture along its sliding lines.
    #[inline(always)]
    pub const fn flies(self) -> bool {
        matches!(self, Kind::Eagle | Kind::Raven | Kind::Bat)
    }

    /// The piece's plain leaps and steps (move or capture), as (file, rank) offsets.
    pub const fn leaps(self) -> &'static [(i8, i8)] {
        match self {
            Kind::King => &KING,
            Kind::Knight | Kind::Marshall | Kind::Archbishop => &KNIGHT,
            Kind::Elephant => &ELEPHANT,
            Kind::Champion => &CHAMPION,
            Kind::Camel => &CAMEL,
            Kind::Zebra => &ZEBRA,
            Kind::DragonKing => &FERZ,
            Kind::DragonHorse => &WAZIR,
            Kind::Archer => &ARCHER,
            Kind::Griffon => &FERZ,
            Kind::Rhino => &WAZIR,
            Kind::Terror => &TERROR,
            _ => &[],
        }
    }
}

pub const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// The second square along each orthogonal, then each diagonal (the Champion's and the Terror's leaps).
const ORTHOGONAL_AND_DIAGONAL_2: [Leap; 8] = joined(scaled(ORTHOGONAL, 2), scaled(DIAGONAL, 2));
pub const KING: [Leap; 8] = joined(ORTHOGONAL, DIAGONAL);
pub const WAZIR: [(i8, i8); 4] = ORTHOGONAL;
pub const FERZ: [(i8, i8); 4] = DIAGONAL;
pub const KNIGHT: [Leap; 8] = leaps(1, 2);
pub const ELEPHANT: [Leap; 8] = joined(DIAGONAL, scaled(DIAGONAL, 2));
pub const CHAMPION: [Leap; 12] = joined(ORTHOGONAL, ORTHOGONAL_AND_DIAGONAL_2);
pub const CAMEL: [Leap; 8] = leaps(1, 3);
pub const ZEBRA: [Leap; 8] = leaps(2, 3);
pub const ARCHER: [Leap; 8] = joined(ORTHOGONAL, scaled(DIAGONAL, 2));
/// The Terror's leaps on top of its Queen lines: Knight, and the second square orthogonally or diagonally.
pub const TERROR: [Leap; 16] = joined(KNIGHT, ORTHOGONAL_AND_DIAGONAL_2);
