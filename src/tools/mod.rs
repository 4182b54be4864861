//! Command-line tools behind the `corvid` verbs: `bench`, `perft`/`divide`, the match runner (`corvid
//! match`), `datagen` (self-play training data) and `genfens` (openings for OpenBench); [`openings`] draws the random openings
//! they play from, and [`progress`] the progress bars of the long ones.

// Engine output is untrusted input: the match runner reports it, never panics on it.
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod arena;
pub mod bench;
pub mod datagen;
pub mod genfens;
pub mod openings;
pub mod perft;
pub mod progress;
