//! Every line through the CECP command parser and the `level` parser.
//! The check itself is in `fuzz/checks.rs` (shared with the stable regression test).
#![no_main]

#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::cecp_command(data));
