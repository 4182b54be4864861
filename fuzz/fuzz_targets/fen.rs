//! A FEN (plain, Shredder-FEN, X-FEN; with and without Chess960) and move text: refused or sound.
//! The check itself is in `fuzz/checks.rs` (shared with the stable regression test).
#![no_main]

#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::fen(data));
