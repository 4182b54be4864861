//! Writing CECP replies: features, thinking output, moves and results.

use crate::engine::OptionKind;
use crate::search::{Info, Score};
use crate::variants::GameKind;

/// The CECP-only options Corvid offers through `feature option=…`: its draw and resignation policy and
/// whether it castles where XBoard cannot show the castling (`Cecp::search_moves`) (the engine's own options come from its table, `engine::OPTIONS`). Names have no
/// spaces: python-chess (and some GUIs) take an option's name to end at the first space.
const XB_OPTIONS: &[&str] = &[
    "AcceptDrawBelow -spin -25 -100000 100000",
    "AcceptDrawMiddlegame -spin -150 -100000 100000",
    "Contempt -spin 0 -100 100",
    "OfferDraws -check 1",
    "OfferDrawAfter -spin 30 0 1000",
    "OfferDrawStreak -spin 4 1 100",
    "OfferDrawBalance -spin 25 0 100000",
    "Resign -check 1",
    "ResignBelow -spin 900 0 100000",
    "ResignMoves -spin 4 1 100",
    "FastCastling -check 0",
];

/// The reply to `protover 2`: `feature` lines, `done=1` last.
pub fn format_features() -> String {
    let mut s = String::from("feature done=0\n");
    s.push_str(&format!(
        "feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=1 sigint=0 sigterm=1 reuse=1 \
         analyze=1 colors=0 name=1 nps=0 memory=1 smp=1 debug=1 pause=0 \
         egt=\"syzygy\" variants=\"{}\" myname=\"Corvid {}\"\n",
        GameKind::cecp_variants().join(","),
        env!("CARGO_PKG_VERSION")
    ));
    // The engine options CECP offers, with the kind, default and range UCI gives them.
    for o in crate::engine::OPTIONS {
        if let Some(name) = o.cecp {
            s.push_str(&format!(
                "feature option=\"{}\"\n",
                format_engine_option(name, o.kind)
            ));
        }
    }
    for o in XB_OPTIONS {
        s.push_str(&format!("feature option=\"{o}\"\n"));
    }
    s.push_str("feature done=1");
    s
}

/// An engine option as `feature option` describes it: `NAME -spin D MIN MAX`, `NAME -check 0|1`, ….
pub fn format_engine_option(name: &str, kind: OptionKind) -> String {
    match kind {
        OptionKind::Check { default } => format!("{name} -check {}", u8::from(default)),
        OptionKind::Spin { default, min, max } => format!("{name} -spin {default} {min} {max}"),
        OptionKind::Combo { default, vars } => {
            // The default is marked with `*`; choices are separated by ` /// `.
            let choices: Vec<String> = vars
                .iter()
                .map(|v| {
                    if *v == default {
                        format!("*{v}")
                    } else {
                        (*v).to_string()
                    }
                })
                .collect();
            format!("{name} -combo {}", choices.join(" /// "))
        }
        OptionKind::Button => format!("{name} -button"),
        OptionKind::String { default } => format!("{name} -string {default}"),
        OptionKind::File { default } => format!("{name} -file {default}"),
    }
}

/// A score as xboard writes it: centipawns, or ±(100000 + n) for a mate in n moves.
pub fn xboard_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    }
}

/// A thinking line with the PV already written: `depth score time(cs) nodes seldepth nps tbhits<TAB>pv`.
pub fn format_thinking_text(info: &Info, pv: &str) -> String {
    format!(
        "{} {} {} {} {} {} {}\t{}",
        info.depth,
        xboard_score(info.score),
        info.time_ms / 10,
        info.nodes,
        info.seldepth,
        info.nps,
        info.tbhits,
        pv
    )
}

/// The result line of a finished game: `1-0 {White mates}`.
pub fn format_result(o: &crate::rules::Outcome) -> String {
    format!("{} {{{}}}", o.result_str(), o.description())
}
