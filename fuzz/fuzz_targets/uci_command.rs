//! Every line of the input through the UCI parser, and what a parsed command carries through the engine's
//! own validation (position set-up, option values): none of it may panic.
#![no_main]

use corvid::engine::{find_option, setup_game};
use corvid::uci::{parse_command, Command, Start};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines() {
        match parse_command(line) {
            Ok(Some(Command::Position { start, moves })) => {
                let fen = match &start {
                    Start::StartPos => None,
                    Start::Fen(f) => Some(f.as_str()),
                };
                for chess960 in [false, true] {
                    if let Ok((game, _)) = setup_game(fen, &moves, chess960) {
                        let _ = game.current.legal_moves();
                        let _ = game.current.to_fen();
                    }
                }
            }
            Ok(Some(Command::SetOption { name, value })) => {
                if let Some(spec) = find_option(&name) {
                    let _ = spec.parse_value(value.as_deref());
                }
            }
            Ok(_) => {}
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
});
