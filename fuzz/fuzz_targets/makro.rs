//! A Makromachy FEN and move text: refused or sound, moves played as far as they are legal.
//! The check itself is in `fuzz/checks.rs` (shared with the stable regression test).
#![no_main]

#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::makro(data));
