//! Limited strength (`UCI_LimitStrength` with `UCI_Elo`, `corvid play --elo`): a weaker player that loses the
//! way a person of that rating does.
//!
//! Two things make it weaker, both measured against Stockfish 15.1's own `UCI_Elo` (whose scale is calibrated
//! against CCRL 40/4; see `scripts/match.sh calibrate` and the table in docs/usage.md):
//! - **It sees less.** Each move gets a node budget that grows exponentially with the rating, so a weak player
//!   searches a few plies and misses deeper tactics, as people do.
//! - **It sometimes prefers a slightly worse move.** Among the best few root moves (searched as MultiPV lines)
//!   it draws one with probability `exp(-loss / temperature)`, `loss` being how much worse than the best the
//!   move scored. Moves that lose more than a few temperatures are never taken, so the errors are plausible
//!   second choices, not random blunders; a found mate is always played and a move into a mate never is.
//!
//! Between the anchors of [`ANCHORS`] the node budget is interpolated geometrically and the temperature
//! linearly. From [`FULL_STRENGTH`] up it is the full engine: settings above that are accepted (GUIs offer up
//! to 3000) but cannot be honoured until the engine itself is stronger. Below it the engine facade plays with
//! the hand-crafted evaluation (`Engine::install_network`), the one the anchors were measured with.

/// The lowest `UCI_Elo` offered.
pub const ELO_MIN: u32 = 1320;
/// The highest `UCI_Elo` offered (what GUIs expect to be able to ask for).
pub const ELO_MAX: u32 = 3000;

/// Root moves compared when choosing (searched as MultiPV lines).
pub const CANDIDATES: usize = 4;

/// A move is considered only when it loses at most this many temperatures against the best one.
const MAX_LOSS_IN_TEMPERATURES: f64 = 3.0;

/// From this rating up the player is the full engine: Corvid's own strength on Stockfish's scale at fast
/// time controls (one thread, hand-crafted evaluation: 30 % against Stockfish's 2500 in 40 games at
/// 5 s + 0.05 s, so about 2350). Higher settings cannot be honoured yet.
pub const FULL_STRENGTH: u32 = 2350;

/// `(elo, nodes per move, temperature in centipawns)`, from the calibration; `u64::MAX` nodes is no limit.
const ANCHORS: [(u32, u64, f64); 5] = [
    (ELO_MIN, 600, 40.0),
    (1500, 3_400, 21.0),
    (2000, 80_000, 4.0),
    (2200, 400_000, 0.0),
    (FULL_STRENGTH, u64::MAX, 0.0),
];

/// How a player of some rating searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Node budget per move (`None`: unlimited).
    pub nodes: Option<u64>,
    /// Spread of the move choice in centipawns (0: always the best move).
    pub temperature: f64,
}

impl Strength {
    /// The player of rating `elo` (clamped to `ELO_MIN..=ELO_MAX`).
    pub fn for_elo(elo: u32) -> Strength {
        if elo >= FULL_STRENGTH {
            return Strength {
                nodes: None,
                temperature: 0.0,
            };
        }
        let elo = elo.max(ELO_MIN);
        let i = ANCHORS
            .windows(2)
            .position(|w| elo <= w[1].0)
            .unwrap_or(ANCHORS.len() - 2);
        let ((e0, n0, t0), (e1, n1, t1)) = (ANCHORS[i], ANCHORS[i + 1]);
        let f = f64::from(elo - e0) / f64::from(e1 - e0);
        let nodes = if n1 == u64::MAX {
            // The last stretch ends at the full engine (returned above): grow a hundredfold towards it.
            Some((n0 as f64 * 10f64.powf(f * 2.0)) as u64)
        } else {
            Some((n0 as f64 * (n1 as f64 / n0 as f64).powf(f)).round() as u64)
        };
        Strength {
            nodes,
            temperature: t0 + (t1 - t0) * f,
        }
    }

    /// Index of the move chosen among candidates scored `scores` (best first, centipawns from the mover's
    /// view, mates beyond `mate_bound`), with `random` a uniform draw in `[0, 1)`.
    pub fn choose(&self, scores: &[i32], mate_bound: i32, random: f64) -> usize {
        let Some(&top) = scores.first() else {
            return 0;
        };
        if self.temperature <= 0.0 || top >= mate_bound {
            return 0;
        }
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| {
                let loss = f64::from(top.saturating_sub(s));
                if s <= -mate_bound || loss > MAX_LOSS_IN_TEMPERATURES * self.temperature {
                    0.0
                } else {
                    (-loss / self.temperature).exp()
                }
            })
            .collect();
        let mut left = random * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if left < *w {
                return i;
            }
            left -= w;
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_and_spread_follow_the_rating() {
        let mut last = Strength::for_elo(ELO_MIN);
        assert_eq!(last, Strength::for_elo(0), "clamped below");
        for elo in (ELO_MIN + 10..=ELO_MAX).step_by(10) {
            let s = Strength::for_elo(elo);
            let (n, m) = (s.nodes.unwrap_or(u64::MAX), last.nodes.unwrap_or(u64::MAX));
            assert!(n >= m, "{elo}: budget must not shrink ({m} -> {n})");
            assert!(
                s.temperature <= last.temperature,
                "{elo}: spread must not grow"
            );
            last = s;
        }
        for top in [FULL_STRENGTH, ELO_MAX] {
            assert_eq!(Strength::for_elo(top).nodes, None);
            assert_eq!(Strength::for_elo(top).temperature, 0.0);
        }
        assert_eq!(Strength::for_elo(2000).nodes, Some(ANCHORS[2].1));
        // Just below the top the budget is large but finite.
        assert!(Strength::for_elo(FULL_STRENGTH - 10).nodes.unwrap() > 1_000_000);
    }

    #[test]
    fn choice_prefers_better_moves_and_never_blunders() {
        let s = Strength {
            nodes: None,
            temperature: 50.0,
        };
        let scores = [30, 10, -60, -400];
        let mut counts = [0usize; 4];
        for k in 0..10_000 {
            counts[s.choose(&scores, 30_000, (k as f64 + 0.5) / 10_000.0)] += 1;
        }
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        assert!(
            counts[1] > 0 && counts[2] > 0,
            "second choices happen: {counts:?}"
        );
        assert_eq!(counts[3], 0, "a 430 cp loss is never chosen");
        // Full strength, a mate found, or a move into a mate: no randomness there.
        let full = Strength::for_elo(ELO_MAX);
        assert_eq!(full.choose(&scores, 30_000, 0.99), 0);
        assert_eq!(s.choose(&[30_000, 20], 29_000, 0.99), 0);
        assert_eq!(s.choose(&[0, -29_500], 29_000, 0.99), 0);
    }
}
