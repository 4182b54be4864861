//! Results: the tally, Elo with its error, the PGN of each game and the final summary.

use super::config::*;
use super::forfeit::Forfeit;
use super::referee::*;
use crate::rules::{pgn_tag, wrap_words};
use std::time::Duration;

/// The running score from A's point of view, and the forfeits.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Forfeits per engine (A, B) and reason (in `Forfeit::ALL` order).
    pub forfeits: [[u32; 4]; 2],
    pub capped: u32,
    /// Games per rules termination, in first-seen order.
    pub terminations: Vec<(String, u32)>,
}

impl Tally {
    pub fn add(&mut self, game: &GameRecord) {
        let s = game.score_a();
        if s > 0.75 {
            self.wins += 1;
        } else if s < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        match &game.termination {
            Verdict::Rules(r) => match self.terminations.iter_mut().find(|(t, _)| t == r) {
                Some((_, n)) => *n += 1,
                None => self.terminations.push((r.clone(), 1)),
            },
            Verdict::MaxPlies(_) => self.capped += 1,
            Verdict::Forfeit { engine, kind, .. } => {
                let k = Forfeit::ALL.iter().position(|f| f == kind).unwrap_or(0);
                self.forfeits[*engine][k] += 1;
            }
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score, 0 to 1.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    pub fn total_forfeits(&self) -> u32 {
        self.forfeits.iter().flatten().sum()
    }

    /// Elo difference (A minus B) and its 95% interval, from the per-game scores (normal approximation). When
    /// every game had the same result the variance is zero; the bound is then the exact binomial one
    /// (`0.025^(1/n)`) on the missing side, and the estimate itself is infinite.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (0.0, f64::NEG_INFINITY, f64::INFINITY);
        }
        let m = self.score();
        let var = (f64::from(self.wins) * (1.0 - m).powi(2)
            + f64::from(self.draws) * (0.5 - m).powi(2)
            + f64::from(self.losses) * m.powi(2))
            / n;
        let se = (var / n).sqrt();
        let (mut lo, mut hi) = (m - 1.959964 * se, m + 1.959964 * se);
        if var == 0.0 {
            let p = 0.025f64.powf(1.0 / n);
            if m == 1.0 {
                lo = p;
            } else if m == 0.0 {
                hi = 1.0 - p;
            }
        }
        (elo(m), elo(lo), elo(hi))
    }
}

/// The Elo difference of an expected score (infinite at 0 and 1).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

pub(super) fn fmt_elo(e: f64) -> String {
    if e.is_finite() {
        // Rounded first, so an even score never prints as -0.0.
        let r = (e * 10.0).round() / 10.0 + 0.0;
        format!("{r:+.1}")
    } else if e > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// One finished game as a PGN-like record (moves in the protocol's text).
pub(super) fn pgn_text(config: &MatchConfig, names: &[String; 2], g: &GameRecord) -> String {
    let (white, black) = if g.a_white {
        (&names[0], &names[1])
    } else {
        (&names[1], &names[0])
    };
    let limit_of = |e: usize| config.engines[e].limit.to_string();
    let (wl, bl) = if g.a_white {
        (limit_of(0), limit_of(1))
    } else {
        (limit_of(1), limit_of(0))
    };
    let mut out = String::new();
    let tags = [
        ("Event", "corvid match".to_string()),
        ("Round", (g.index + 1).to_string()),
        ("White", white.clone()),
        ("Black", black.clone()),
        ("Result", g.result_str().to_string()),
        ("Variant", config.variant.name().to_string()),
        ("WhiteLimit", wl),
        ("BlackLimit", bl),
        ("Termination", g.pgn_termination().to_string()),
        ("PlyCount", g.moves.len().to_string()),
        ("OpeningPlies", g.opening_plies.to_string()),
    ];
    for (k, v) in tags {
        out.push_str(&pgn_tag(k, &v));
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        if i % 2 == 0 {
            words.push(format!("{}.", i / 2 + 1));
        }
        words.push(m.clone());
        if let Some((t, d)) = i.checked_sub(g.opening_plies).and_then(|k| g.notes.get(k)) {
            let depth = d.map_or(String::new(), |d| format!("d{d} "));
            words.push(format!("{{{depth}{:.3}s}}", t.as_secs_f64()));
        }
        if i + 1 == g.opening_plies {
            words.push("{end of opening}".to_string());
        }
    }
    // The reason in words after the last move (the tag holds the standard's value).
    words.push(format!("{{{}}}", g.reason(names)));
    words.push(g.result_str().to_string());
    out.push_str(&wrap_words(words.iter().map(String::as_str)));
    out.push('\n');
    out
}

/// The final summary.
pub fn summary(
    config: &MatchConfig,
    names: &[String; 2],
    tally: &Tally,
    games: &[GameRecord],
) -> String {
    let mut out = String::new();
    let n = tally.games();
    out.push_str(&format!(
        "=== {} (A, {}) vs {} (B, {}): {} games, {}\n",
        names[0],
        config.engines[0].limit,
        names[1],
        config.engines[1].limit,
        n,
        config.variant.name()
    ));
    out.push_str(&format!(
        "A: W {}  D {}  L {}   score {:.1}%\n",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score()
    ));
    let (e, lo, hi) = tally.elo();
    out.push_str(&format!(
        "Elo {}  95% [{}, {}]\n",
        fmt_elo(e),
        fmt_elo(lo),
        fmt_elo(hi)
    ));
    let terms: Vec<String> = tally
        .terminations
        .iter()
        .map(|(t, k)| format!("{t} x{k}"))
        .collect();
    out.push_str(&format!(
        "Endings: {}; ply cap x{}\n",
        if terms.is_empty() {
            "none".to_string()
        } else {
            terms.join(", ")
        },
        tally.capped
    ));
    let by_reason: Vec<String> = Forfeit::ALL
        .iter()
        .enumerate()
        .map(|(k, f)| {
            format!(
                "{}={} (A {}, B {})",
                f.name(),
                tally.forfeits[0][k] + tally.forfeits[1][k],
                tally.forfeits[0][k],
                tally.forfeits[1][k]
            )
        })
        .collect();
    out.push_str(&format!(
        "Forfeits: {}  {}\n",
        tally.total_forfeits(),
        by_reason.join(" ")
    ));
    for e in 0..2 {
        let moves: u32 = games.iter().map(|g| g.move_count[e]).sum();
        let time: Duration = games.iter().map(|g| g.move_time[e]).sum();
        let dsum: u64 = games.iter().map(|g| g.depth_sum[e]).sum();
        let dcount: u32 = games.iter().map(|g| g.depth_count[e]).sum();
        out.push_str(&format!(
            "{}: {} moves, {:.3} s/move, average depth {:.1}\n",
            ["A", "B"][e],
            moves,
            time.as_secs_f64() / f64::from(moves.max(1)),
            dsum as f64 / f64::from(dcount.max(1))
        ));
    }
    if !games.is_empty() {
        let total: Duration = games.iter().map(|g| g.duration).sum();
        let plies: usize = games.iter().map(|g| g.moves.len()).sum();
        let longest = games.iter().map(|g| g.duration).max().unwrap_or_default();
        out.push_str(&format!(
            "Games: {:.1} s and {:.0} plies on average, longest {:.1} s\n",
            total.as_secs_f64() / games.len() as f64,
            plies as f64 / games.len() as f64,
            longest.as_secs_f64()
        ));
    }
    out
}
