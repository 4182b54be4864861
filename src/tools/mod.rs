//! Command-line tools behind the `corvid` verbs: `bench`, `perft`/`divide` (and, with their own modules, the
//! match runner and data generation).

pub mod bench;
pub mod perft;
