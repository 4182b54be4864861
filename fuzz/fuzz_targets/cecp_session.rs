//! The input as a whole CECP session against the protocol loop (thinking capped at depth 2 and 1 ms).
//! The check itself is in `fuzz/checks.rs` (shared with the stable regression test).
#![no_main]

#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::cecp_session(data));
