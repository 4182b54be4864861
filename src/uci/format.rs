//! Writing UCI replies: `uci`'s option list, search information, best moves and free text.

use crate::engine::{BestMove, OptionKind, OptionSpec};
use crate::search::{Bound, Event, Info, Score};

/// `id` lines, one `option` line per option, then `uciok`.
pub fn format_uci_reply(options: &[OptionSpec]) -> String {
    let mut s = format!(
        "id name Corvid {}\nid author the Corvid developers\n",
        env!("CARGO_PKG_VERSION")
    );
    for o in options {
        s.push_str(&format_option(o));
        s.push('\n');
    }
    // A tuning build offers the tunables (the search's and the games' overrides) as options too.
    #[cfg(feature = "tune")]
    for t in crate::engine::tunables() {
        s.push_str(&format!(
            "option name {} type spin default {} min {} max {}\n",
            t.name, t.default, t.min, t.max
        ));
    }
    s.push_str("uciok");
    s
}

/// One `option name … type …` line.
pub fn format_option(o: &OptionSpec) -> String {
    match o.kind {
        OptionKind::Check { default } => {
            format!("option name {} type check default {default}", o.name)
        }
        OptionKind::Spin { default, min, max } => format!(
            "option name {} type spin default {default} min {min} max {max}",
            o.name
        ),
        OptionKind::Combo { default, vars } => {
            let mut s = format!("option name {} type combo default {default}", o.name);
            for v in vars {
                s.push_str(" var ");
                s.push_str(v);
            }
            s
        }
        OptionKind::Button => format!("option name {} type button", o.name),
        // UCI has no file type: a file name is a string.
        OptionKind::String { default } | OptionKind::File { default } => {
            format!("option name {} type string default {default}", o.name)
        }
    }
}

/// `score cp N` / `score mate N`, with the bound when the score is not exact.
pub fn format_score(score: Score, bound: Bound) -> String {
    let mut s = match score {
        Score::Cp(cp) => format!("score cp {cp}"),
        Score::Mate(n) => format!("score mate {n}"),
    };
    match bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    s
}

/// An `info depth … pv …` line; the WDL triple only when `show_wdl`.
pub fn format_info(info: &Info, show_wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score, info.bound)
    );
    if let (true, Some((w, d, l))) = (show_wdl, info.wdl) {
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} tbhits {} time {}",
        info.nodes, info.nps, info.hashfull, info.tbhits, info.time_ms
    ));
    if !info.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&info.pv.join(" "));
    }
    s
}

/// Any search event as one line.
pub fn format_event(event: &Event, show_wdl: bool) -> String {
    match event {
        Event::Info(info) => format_info(info, show_wdl),
        Event::CurrMove { depth, mv, number } => {
            format!("info depth {depth} currmove {mv} currmovenumber {number}")
        }
        Event::Text(t) => info_string(t),
    }
}

/// `bestmove m [ponder p]`, or `bestmove (none)` without a legal move.
pub fn format_bestmove(outcome: &BestMove) -> String {
    match (
        outcome.best.as_ref().map(|c| &c.text),
        outcome.ponder.as_ref().map(|c| &c.text),
    ) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), None) => format!("bestmove {b}"),
        (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
    }
}

/// `info string …` for free text; a multi-line text becomes one line (GUIs read line by line).
pub fn info_string(text: &str) -> String {
    let flat: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    format!("info string {}", flat.join(" | "))
}
