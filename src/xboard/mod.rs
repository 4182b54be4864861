//! The xboard protocol (CECP v2): parsing commands and formatting replies. All CECP text Corvid writes is
//! produced here; the game is a `rules::Record` of whichever variant runs (`variants::ChessRecord` for chess, kept
//! in `games::CecpGame`; so results, draw claims and the draw-offer rule are the rules module's), the thinking
//! is the same `engine::Engine` the UCI loop drives, and Corvid's draw and resignation decisions are
//! `conduct::Conduct`'s.
//!
//! Parsing never panics: a malformed command gets one `Error (…): …` line (an illegal move `Illegal move: …`,
//! a bad position `tellusererror Illegal position`) and the session carries on with the state it had.
//!
//! Makromachy (`variant makromachy`) is an engine-defined variant for XBoard 4.9: Corvid answers with a
//! `setup` command (board size, piece letters and start position) and one `piece` command per kind in
//! XBoard's Betza dialect, then plays with moves in the rules' notation (two-digit ranks, comma-separated
//! legs: `g2h3,h3i4`); the game is a `variants::MakroRecord`.

//!
//! Files: [`parse`] reads commands, [`format`] writes replies, [`session`] keeps the game and drives the
//! engine; Makromachy's piece descriptions for XBoard live with the board, in `crate::makro::xbetza`.

pub mod format;
mod games;
pub mod parse;
mod session;
#[cfg(test)]
mod tests;

pub use self::format::*;
pub use self::parse::*;
pub use self::session::run;
pub use crate::makro::xbetza::{makro_piece_to_char, makro_variant_lines, xboard_betza};
