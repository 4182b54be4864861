//! Command-line tools behind the `corvid` verbs: `bench`, `perft`/`divide` (and, with their own modules, the
//! match runner and data generation).

pub mod bench;
// Engine output is untrusted input: the match runner reports it, never panics on it.
#[deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
pub mod arena;
pub mod perft;
