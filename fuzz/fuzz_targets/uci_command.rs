//! Every line of the input through the UCI parser and the engine's own validation of what it carries.
//! The check itself is in `fuzz/checks.rs` (shared with the stable regression test).
#![no_main]

#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::uci_command(data));
