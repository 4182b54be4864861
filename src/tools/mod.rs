//! Command-line tools built on the engine: `corvid datagen` (self-play training data).

pub mod datagen;
