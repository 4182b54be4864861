//! The xboard protocol (CECP v2): parsing commands and formatting replies. All CECP text Corvid writes is
//! produced here; the game is a `rules::Record` of whichever variant runs (kept in `games::CecpGame`; so
//! results, draw claims and the draw-offer rule are the rules module's), the thinking is the same
//! `engine::Engine` the UCI loop drives, and Corvid's draw and resignation decisions are
//! `conduct::Conduct`'s.
//!
//! Parsing never panics: a malformed command gets one `Error (…): …` line (an illegal move `Illegal move: …`,
//! a bad position `tellusererror Illegal position`) and the session carries on with the state it had.
//!
//! What CECP needs of each game is its `game::Cecp` implementation, in the game's folder under `variants`:
//! the names `variant` takes, the lines that describe an engine-defined variant to XBoard 4.9 (`setup` and
//! `piece`), the start position as XBoard records it, and moves and PVs as XBoard writes and reads them. The
//! session names no game.
//!
//! Files: [`parse`] reads commands, [`format`] writes replies, [`session`] keeps the game and drives the
//! engine.

pub mod format;
mod games;
pub mod parse;
mod session;
#[cfg(test)]
mod tests;

pub use self::format::*;
pub use self::parse::*;
pub use self::session::run;
