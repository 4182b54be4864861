//! Orthodox chess and Chess960 on 8x8: bitboards, attack tables, the position, legal move generation,
//! FEN and move text.

pub mod attacks;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod position;
pub mod see;
pub mod slider_tables;
pub mod types;
pub mod zobrist;

pub use fen::FenError;
pub use movegen::{gives_check, is_legal_move, perft};
pub use moves::{Move, MoveKind, MoveList, MoveParseError};
pub use position::{Position, STARTPOS};
pub use types::{Bitboard, CastlingRights, Color, Piece, PieceType, Square};
