//! The UCI protocol: parsing commands and formatting replies. All UCI text Corvid writes is produced here.
//!
//! Parsing never panics: every malformed line becomes a `UciError`, which the loop prints as one
//! `info string` line before carrying on with the state it had.
//!
//! Files: [`parse`] reads commands, [`format`] writes replies, [`session`] drives the engine with them; the
//! stdin listener is the engine's ([`crate::engine::spawn_listener`]), shared with CECP.

pub mod format;
pub mod parse;
mod session;
#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used)]
mod tests;

pub use self::format::*;
pub use self::parse::*;
pub use self::session::run;
