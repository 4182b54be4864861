//! The games Corvid plays, registered in one place: one [`Variant`] implementation per game, and the
//! dispatch from a [`GameKind`] chosen at run time to code monomorphised over the variant.
//!
//! This is the only module that lists the games, in one place: the `games!` macro's list. Adding one means a
//! board folder beside `chess/` and `makro/`, an evaluator, its folder here (its [`Variant`], `Rules`,
//! `PlayHooks` and `Cecp`: names and aliases, CECP's variant names and set-up lines, its start position as
//! CECP records it, its bench positions), its `mod` line and re-export here, and one line in `games!`:
//! [`GameKind`], [`AnyMove`], [`AnyGame`], [`for_game!`], [`by_game!`] and the [`Registered`] impls are built
//! from that list. The engine, the protocols, `play`, the rules and the tools are generic and need no edit.
//! Front ends learn what they need of a game from the `GameKind` methods below;
//! `tests/front_ends_name_no_game.rs` fails when one names a game.

mod chess;
mod makro;

pub use self::chess::{scale_evaluation, Chess, ChessGame, ChessRecord};
pub use self::makro::{MakroGame, MakroRecord, Makromachy};

use crate::eval::nnue::Network;
pub use crate::game::{Cecp, CecpVariant, GameKind, Variant};
use std::sync::Arc;

/// The registry: every game Corvid plays, one line each (its type in this module, named as in [`GameKind`],
/// and its move type), in `UCI_Variant`'s order; the first is the default. [`GameKind`], [`AnyMove`],
/// [`AnyGame`], [`for_game!`], [`by_game!`] and the [`Registered`] impls are all built from this list.
#[doc(hidden)]
#[macro_export]
macro_rules! games {
    (@list $($what:tt)*) => {
        $crate::games! { @with [
            Chess: $crate::chess::Move,
            Makromachy: $crate::makro::Move,
        ] $($what)* }
    };
    (@with [$($g:ident: $mv:ty,)*] kinds) => {
        /// Names a game everywhere a person or a protocol chooses one: the command line (`--variant`),
        /// UCI's `UCI_Variant`, CECP's `variant`, `play` and `match`. Its names, aliases and everything else a
        /// front end needs come from the game's own folder through the registry (`crate::variants`, which
        /// implements `name`, parsing and display), so that a front end never names a game.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $(
                #[doc = concat!("The game of `variants::", stringify!($g), "`.")]
                $g,
            )*
        }
        impl GameKind {
            /// Every game, in the order `UCI_Variant` lists them.
            pub const ALL: [GameKind; [$(GameKind::$g),*].len()] = [$(GameKind::$g),*];
        }
    };
    (@with [$($g:ident: $mv:ty,)*] any) => {
        /// A move of any game, as the engine reports a best move to front ends that serve every game.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum AnyMove {
            $(
                #[doc = concat!("A move of `", stringify!($g), "`.")]
                $g($mv),
            )*
        }
        /// One value of `F::Of<V>` for the game that runs; [`by_game!`] opens it generically.
        pub enum AnyGame<F: PerGame> {
            $(
                #[doc = concat!("`", stringify!($g), "`'s value.")]
                $g(F::Of<$g>),
            )*
        }
        impl<F: PerGame> Clone for AnyGame<F>
        where
            $(F::Of<$g>: Clone,)*
        {
            fn clone(&self) -> Self {
                match self {
                    $(AnyGame::$g(v) => AnyGame::$g(v.clone()),)*
                }
            }
        }
        impl<F: PerGame> AnyGame<F> {
            /// Which game the value belongs to.
            pub fn kind(&self) -> GameKind {
                match self {
                    $(AnyGame::$g(_) => GameKind::$g,)*
                }
            }
        }
        $(registered!($g);)*
    };
    (@with [$($g:ident: $mv:ty,)*] for_game $kind:expr, $v:ident, $body:expr) => {
        match $kind {
            $(
                $crate::game::GameKind::$g => {
                    #[allow(dead_code)]
                    type $v = $crate::variants::$g;
                    $body
                }
            )*
        }
    };
    (@with [$($g:ident: $mv:ty,)*] by_game $value:expr, $x:pat, $v:ident, $body:expr) => {
        match $value {
            $(
                $crate::variants::AnyGame::$g($x) => {
                    #[allow(dead_code)]
                    type $v = $crate::variants::$g;
                    $body
                }
            )*
        }
    };
}

/// How the network an engine session owns reaches a game's evaluator ([`Variant::EvalSetting`]): chess
/// evaluates with it, a game without a network ignores it. (The game trait cannot name the network: it lies
/// below the evaluators.)
pub trait UsesNetwork: Variant {
    /// The evaluator setting for `net` (`None`: the hand-crafted evaluation).
    fn eval_setting(net: Option<&Arc<Network>>) -> Self::EvalSetting;
}

/// A variant's place in the registry: how its values are found in the game-erased types. Every registered
/// game has its rules ([`crate::rules::Rules`]: how it ends), so generic front ends can referee it, and
/// takes the engine's network ([`UsesNetwork`]).
pub trait Registered: crate::rules::Rules + UsesNetwork + Cecp + crate::game::PlayHooks {
    /// `m` as a move of any game.
    fn any_move(m: Self::Move) -> AnyMove;
    /// `m` as this game's move (None when it belongs to another game).
    fn from_any_move(m: AnyMove) -> Option<Self::Move>;
    /// `F`'s value for this game, built from it.
    fn into_any<F: PerGame>(v: F::Of<Self>) -> AnyGame<F>;
    /// `F`'s value for this game (None when `b` holds another game).
    fn from_any<F: PerGame>(b: &AnyGame<F>) -> Option<&F::Of<Self>>;
    /// The same, mutable.
    fn from_any_mut<F: PerGame>(b: &mut AnyGame<F>) -> Option<&mut F::Of<Self>>;
}

/// A type built from a variant (`Session<V>`, `Record<V>`...), so that [`AnyGame`] can hold one of them for
/// whichever game runs.
pub trait PerGame {
    /// The type for variant `V`.
    type Of<V: Registered>;
}

/// Runs `$body` with the type `$v` naming the variant of `$kind`: `for_game!(kind, V => V::start_position(false))`.
#[macro_export]
macro_rules! for_game {
    ($kind:expr, $v:ident => $body:expr) => {
        $crate::games!(@list for_game $kind, $v, $body)
    };
}

/// Opens a [`AnyGame`] value: `by_game!(value, x, V => body)` runs `body` with `x` bound to the inner value
/// (by the match's binding mode) and `V` naming its variant.
#[macro_export]
macro_rules! by_game {
    ($value:expr, $x:pat, $v:ident => $body:expr) => {
        $crate::games!(@list by_game $value, $x, $v, $body)
    };
}

impl GameKind {
    /// The name on the command line and in the protocols (`chess`, `makromachy`): the game's own
    /// [`Variant::NAME`].
    pub const fn name(self) -> &'static str {
        for_game!(self, V => V::NAME)
    }

    /// The game called `name` (exactly as [`GameKind::name`] writes it).
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The game called `text` by its name or one of its [`Variant::ALIASES`], in any case (what a person
    /// types: `corvid play --variant Standard`).
    pub fn from_alias(text: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|&k| {
            let aliases = for_game!(k, V => V::ALIASES);
            std::iter::once(k.name())
                .chain(aliases.iter().copied())
                .any(|n| n.eq_ignore_ascii_case(text))
        })
    }

    /// Every game's name, `chess or makromachy`, for help and error messages.
    pub fn names() -> String {
        let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        names.join(" or ")
    }

    /// Every game as `corvid --help` describes it: `orthodox chess, Chess960, Makromachy`.
    pub fn titles() -> String {
        let titles: Vec<&str> = GameKind::ALL
            .iter()
            .map(|&k| for_game!(k, V => V::TITLE))
            .collect();
        titles.join(", ")
    }

    /// `corvid play --help` on `--variant`: the names, then what each game says of its moves.
    pub fn play_help() -> String {
        let notes: Vec<&str> = GameKind::ALL
            .iter()
            .filter_map(|&k| for_game!(k, V => <V as crate::game::PlayHooks>::MOVES_HELP))
            .collect();
        if notes.is_empty() {
            GameKind::names()
        } else {
            format!("{} ({})", GameKind::names(), notes.join("; "))
        }
    }

    /// The game a PGN `Variant` tag names (`None`: no game claims it) and the castling notation it
    /// implies, each game reading the tag itself ([`Variant::reads_pgn_variant`]).
    pub fn from_pgn_variant(tag: &str) -> (Option<GameKind>, bool) {
        let tag = tag.to_ascii_lowercase();
        let claims: Vec<(GameKind, bool)> = GameKind::ALL
            .into_iter()
            .filter_map(|k| for_game!(k, V => V::reads_pgn_variant(&tag)).map(|c| (k, c)))
            .collect();
        (claims.first().map(|c| c.0), claims.iter().any(|c| c.1))
    }

    /// The game and the [`CecpVariant`] CECP's `variant NAME` chooses.
    pub fn from_cecp_variant(name: &str) -> Option<(GameKind, CecpVariant)> {
        GameKind::ALL.into_iter().find_map(|k| {
            let names = for_game!(k, V => <V as Cecp>::CECP_VARIANTS);
            names.iter().find(|v| v.name == name).map(|&v| (k, v))
        })
    }

    /// The CECP variants of every game, in the order of the `variants` feature (`normal,fischerandom,...`).
    pub fn cecp_variants() -> Vec<&'static str> {
        GameKind::ALL
            .iter()
            .flat_map(|&k| for_game!(k, V => <V as Cecp>::CECP_VARIANTS))
            .map(|v| v.name)
            .collect()
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no [`GameKind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown variant '{}' ({})", self.0, GameKind::names())
    }
}

impl std::error::Error for UnknownGame {}

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<GameKind, UnknownGame> {
        GameKind::from_name(s).ok_or_else(|| UnknownGame(s.to_string()))
    }
}

macro_rules! registered {
    ($arm:ident) => {
        impl Registered for $arm {
            fn any_move(m: Self::Move) -> AnyMove {
                AnyMove::$arm(m)
            }
            fn from_any_move(m: AnyMove) -> Option<Self::Move> {
                match m {
                    AnyMove::$arm(m) => Some(m),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
            fn into_any<F: PerGame>(v: F::Of<Self>) -> AnyGame<F> {
                AnyGame::$arm(v)
            }
            fn from_any<F: PerGame>(b: &AnyGame<F>) -> Option<&F::Of<Self>> {
                match b {
                    AnyGame::$arm(v) => Some(v),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
            fn from_any_mut<F: PerGame>(b: &mut AnyGame<F>) -> Option<&mut F::Of<Self>> {
                match b {
                    AnyGame::$arm(v) => Some(v),
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        }
    };
}

games!(@list any);

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    /// Every game's text round trip, generically: start FEN parses back, every legal move's text parses back to
    /// the same move, and perft 1 counts the legal moves.
    fn round_trip<V: Registered>() {
        let start = V::start_position(false);
        let fen = V::to_fen(&start);
        let again = V::from_fen(&fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(V::to_fen(&again), fen);
        let legal = V::legal_moves(&start);
        assert!(!legal.is_empty());
        assert_eq!(V::perft(&start, 1), legal.len() as u64);
        for &m in &legal {
            let text = V::move_text(&start, m);
            assert_eq!(V::parse_move(&start, &text), Ok(m), "{text}");
            assert!(V::is_legal(&start, m));
            assert_eq!(V::from_any_move(V::any_move(m)), Some(m));
        }
        assert!(V::parse_move(&start, "zz").is_err());
        assert!(V::from_fen("not a fen", false).is_err());
        assert!(V::display(&start).contains(&format!("Fen: {fen}")));
        let eval = V::eval_setting(crate::eval::nnue::default_network().as_ref());
        assert!(!V::eval_trace(&start, &eval).is_empty());
        // The search state after a move is the position after it.
        let mut after = start.clone();
        V::play(&mut after, legal[0]);
        assert_ne!(V::side_to_move(&after), V::side_to_move(&start));
        let state = V::search_state(&start, &legal[..1], &eval);
        assert_eq!(
            crate::game::Game::side_to_move(&state),
            V::side_to_move(&after).index()
        );
    }

    #[test]
    fn every_game_round_trips_its_text() {
        for kind in GameKind::ALL {
            for_game!(kind, V => round_trip::<V>());
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
        }
        assert!("shogi".parse::<GameKind>().is_err());
    }

    #[test]
    fn moves_of_one_game_are_not_another_games() {
        let c = crate::variants::Chess::legal_moves(&Chess::start_position(false))[0];
        assert_eq!(Makromachy::from_any_move(Chess::any_move(c)), None);
    }
}
