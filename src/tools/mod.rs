//! Command-line tools built on the engine: `corvid datagen` (self-play training data) and `genfens`
//! (openings for OpenBench).

pub mod datagen;
pub mod genfens;
