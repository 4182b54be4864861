//! The contract between a game and everything generic (the search first of all).
//!
//! The search is monomorphised over [`Game`], so it knows nothing about pieces or boards: it asks the game for
//! legal moves, plays and takes them back, and asks a handful of questions used for pruning and move ordering.
//! Orthodox chess implements it in `ChessGameWith` (`variants/chess/search.rs`) and Makromachy in `MakroGameWith`
//! (`variants/makro/search.rs`), each generic over its evaluator; `variants` names the concrete games the search
//! plays.

use std::fmt::Debug;

/// Which legal moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    /// Every legal move.
    All,
    /// Captures and promotions: the moves quiescence search looks at.
    Noisy,
    /// Everything that is not noisy.
    Quiet,
}

/// A move with an ordering score, as the move picker keeps them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ScoredMove<M> {
    /// The move.
    pub mv: M,
    /// Ordering score (higher is tried first); zero when generated.
    pub score: i32,
}

/// A fixed-capacity list of scored moves on the stack, so generation in the search never allocates.
/// `N` is the game's bound on the number of legal moves in a position.
pub type MoveBuf<M, const N: usize> = crate::types::ArrayVec<ScoredMove<M>, N>;

/// The list type a game generates into: `MoveBuf` with the game's capacity.
pub trait MoveBuffer<M: Copy>: Default {
    /// Appends a move (score 0).
    fn push(&mut self, mv: M);
    /// Forgets every move.
    fn clear(&mut self);
    /// The moves.
    fn as_slice(&self) -> &[ScoredMove<M>];
    /// The moves, mutable.
    fn as_mut_slice(&mut self) -> &mut [ScoredMove<M>];
}

impl<M: Copy, const N: usize> MoveBuffer<M> for MoveBuf<M, N> {
    #[inline(always)]
    fn push(&mut self, mv: M) {
        crate::types::ArrayVec::push(self, ScoredMove { mv, score: 0 })
    }
    #[inline(always)]
    fn clear(&mut self) {
        crate::types::ArrayVec::clear(self)
    }
    #[inline(always)]
    fn as_slice(&self) -> &[ScoredMove<M>] {
        crate::types::ArrayVec::as_slice(self)
    }
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [ScoredMove<M>] {
        crate::types::ArrayVec::as_mut_slice(self)
    }
}

/// An endgame tablebase verdict, from the side to move's point of view. The 50-move rule splits wins and
/// losses: a *cursed* win is won over the board but drawn by that rule, a *blessed* loss the same seen from the
/// other side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// Lost, whatever the 50-move rule says.
    Loss = -2,
    /// Lost over the board, drawn by the 50-move rule.
    BlessedLoss = -1,
    /// Drawn.
    Draw = 0,
    /// Won over the board, drawn by the 50-move rule.
    CursedWin = 1,
    /// Won, whatever the 50-move rule says.
    Win = 2,
}

impl Wdl {
    /// The same verdict for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// What the tablebases say about one root move (see [`Game::rank_root_moves`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TbRootMove {
    /// Higher is better. Only the moves of the highest rank keep the best outcome the tables promise (and,
    /// late in the 50-move count or after a repetition, make the progress that keeps it).
    pub rank: i32,
    /// The outcome for the side to move at the root after this move, under the 50-move rule as configured
    /// (without it, cursed wins count as wins and blessed losses as losses).
    pub wdl: Wdl,
    /// Plies to the next capture or pawn move with best play after this move (0 for a draw).
    pub dtz: i32,
}

/// A two-player, perfect-information, zero-sum game the search can play.
///
/// The value is a game *state with history*: `make_move`/`unmake_move` push and pop, and the draw rules that
/// depend on history (repetition, move-count rules) are the game's business, answered by [`Game::is_draw`].
/// Scores are centipawn-like `i32`s from the side to move's point of view.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move. `Default` is "no move" and must never be legal.
    type Move: Copy + Eq + Default + Send + Sync + Debug + 'static;
    /// The list legal moves are generated into.
    type MoveList: MoveBuffer<Self::Move>;

    /// Number of distinct moved-piece indices (colour included), for history tables.
    const PIECE_INDICES: usize;
    /// Number of squares, for history tables.
    const SQUARES: usize;

    /// Quiescence plies after which only recaptures (on the last move's square) are searched; `u32::MAX` for
    /// none. A function, not a constant, so that a game's value can be a tunable ([`crate::tunables`]).
    #[inline(always)]
    fn qs_recapture_depth() -> u32 {
        u32::MAX
    }

    /// A compact, lossless encoding of a move for the transposition table; `0` must be "no move".
    fn move_to_bits(m: Self::Move) -> u32;
    /// Inverse of [`Game::move_to_bits`]. Bits from a hash collision may decode to any move, so callers check
    /// it with [`Game::is_legal`] before playing it.
    fn move_from_bits(bits: u32) -> Self::Move;

    /// Appends the moves of kind `kind` to `list`: legal for `All`; for `Noisy` and `Quiet` a game may
    /// append pseudo-legal moves, which the search then passes through [`Game::legal_generated`] before
    /// playing one (after its pruning: a pruned move is never tested).
    fn generate(&self, kind: GenKind, list: &mut Self::MoveList);
    /// Is `m`, from this state's `Noisy` or `Quiet` generation, legal? (Games that generate only legal moves
    /// keep the default.)
    #[inline(always)]
    fn legal_generated(&self, _m: Self::Move) -> bool {
        true
    }
    /// Is `m` legal here (for moves from the transposition table, killers, the GUI)?
    fn is_legal(&self, m: Self::Move) -> bool;
    /// Plays a legal move.
    fn make_move(&mut self, m: Self::Move);
    /// Takes back the last `make_move`.
    fn unmake_move(&mut self);
    /// Passes (null-move pruning). Never called when in check.
    fn make_null_move(&mut self);
    /// Takes back the last `make_null_move`.
    fn unmake_null_move(&mut self);

    /// Hash key of the current state (equal positions, equal keys).
    fn key(&self) -> u64;
    /// A guess at the key after the legal move `m`, for prefetching the transposition table before the move
    /// is made (a wrong guess only wastes the hint). By default the current key: no useful guess.
    #[inline(always)]
    fn key_after(&self, _m: Self::Move) -> u64 {
        self.key()
    }
    /// Does the search correct this game's static evaluation by what it learned of the position's parts
    /// ([`Game::correction_keys`])? Games without part keys keep `false`.
    const CORRECTION: bool = false;
    /// Keys of the position's parts the correction history learns from: the pawns, then White's and
    /// Black's other pieces. Read only when [`Game::CORRECTION`] is set.
    #[inline(always)]
    fn correction_keys(&self) -> [u64; 3] {
        [0; 3]
    }
    /// Is the side to move in check?
    fn in_check(&self) -> bool;
    /// Index (0 or 1) of the side to move, for side-specific tables.
    fn side_to_move(&self) -> usize;
    /// Static evaluation from the side to move's point of view. `&mut`: an evaluator may bring incremental
    /// state (NNUE accumulators) up to date only when asked.
    fn evaluate(&mut self) -> i32;
    /// Is a null move reasonable here (the side to move has pieces beyond the ones that zugzwang hurts)?
    fn null_move_ok(&self) -> bool;

    /// Does `m` capture something?
    fn is_capture(&self, m: Self::Move) -> bool;
    /// Is `m` a capture or a promotion (what `GenKind::Noisy` yields)?
    fn is_noisy(&self, m: Self::Move) -> bool;
    /// Value of what `m` captures (and gains by promotion), in the evaluation's units; 0 for quiet moves.
    fn capture_value(&self, m: Self::Move) -> i32;
    /// Index (`< PIECE_INDICES`) of the piece that moves.
    fn moved_piece(&self, m: Self::Move) -> usize;
    /// Destination square index (`< SQUARES`).
    fn to_square(m: Self::Move) -> usize;
    /// Does `m` give check? (Pruning spares checking moves; called only for moves about to be pruned.)
    fn gives_check(&self, m: Self::Move) -> bool;
    /// Static exchange evaluation: does `m` win at least `threshold` after the best recaptures?
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool;

    /// Marks the current state as the search root: repetitions strictly after it count as draws at once.
    fn set_root(&mut self);
    /// Is the current state a draw by rule: a repetition (twofold inside the search tree after the root,
    /// threefold counting the game history), the move-count rule (unless the side to move is mated) or a
    /// position where no mate is possible?
    fn is_draw(&self) -> bool;

    /// Has the side that just moved lost by a rule of the game? (Makromachy: repeating a position with a
    /// checking Eagle move.) The search scores such a node as a win for the side to move.
    fn lost_by_rule(&self) -> bool {
        false
    }

    /// The move as protocol text (UCI for chess).
    fn move_text(&self, m: Self::Move) -> String;

    /// Endgame tablebases (chess: Syzygy WDL tables), asked by the search inside the tree: the verdict for
    /// the current state when the tables cover it, which the game grants only when it has at most
    /// `max_pieces` pieces, the last move was a capture or a pawn move (so the 50-move count is zero, as the
    /// WDL tables assume) and no castling right is left. Default: no tablebases.
    #[inline(always)]
    fn probe_wdl(&self, _max_pieces: u32) -> Option<Wdl> {
        None
    }

    /// Endgame tablebases at the root (chess: Syzygy DTZ tables): one [`TbRootMove`] per move of `moves` (in
    /// that order) when the current state, with at most `max_pieces` pieces, is in the tables; `rule50` says
    /// whether the 50-move rule turns cursed wins and blessed losses into draws. Default: no tablebases.
    fn rank_root_moves(
        &self,
        _moves: &[Self::Move],
        _max_pieces: u32,
        _rule50: bool,
    ) -> Option<Vec<TbRootMove>> {
        None
    }
}

// `GameKind`: one name a game, built from the registry's list (`crate::variants`, the `games!` macro).
crate::games!(@list kinds);

impl GameKind {
    /// The game a session starts with and a front end plays unless told otherwise (`Default`, as a
    /// constant for static tables).
    pub const DEFAULT: GameKind = GameKind::ALL[0];
}

impl Default for GameKind {
    fn default() -> Self {
        GameKind::DEFAULT
    }
}

/// A game as the front ends see it: positions without history, moves as text, FEN, the board drawn, perft and
/// the evaluation explained — everything `engine`, `rules`, `play`, CECP and the tools need, so that none of
/// them names a game. Implemented once per game in `crate::variants`; the search's [`Game`] is the state with
/// history that a search runs on ([`Variant::Search`]).
pub trait Variant: Sized + Send + Sync + 'static {
    /// Which game this is.
    const KIND: GameKind;
    /// Its name on the command line and in the protocols (`chess`): what [`GameKind::name`] says.
    const NAME: &'static str;
    /// Other names a person may give it on the command line (`corvid play --variant normal`), in any case.
    const ALIASES: &'static [&'static str] = &[];
    /// The game as `corvid --help` lists it (`orthodox chess, Chess960`).
    const TITLE: &'static str;
    /// `corvid bench`'s positions, as FEN; a `960:` prefix asks for the Chess960 castling notation.
    const BENCH_POSITIONS: &'static [&'static str];
    /// `corvid bench`'s depth when none is given.
    const BENCH_DEPTH: u32;
    /// What an invalid FEN is called in messages (`FEN`, `Makromachy FEN`).
    const FEN_NAME: &'static str;

    /// A position without history (what FEN describes).
    type Position: Clone + std::fmt::Debug + Send + Sync + 'static;
    /// A move (`Default` is "no move").
    type Move: Copy + Eq + Default + Debug + Send + Sync + 'static;
    /// The game state the search runs on.
    type Search: Game<Move = Self::Move>;
    /// Why a FEN was refused.
    type FenError: std::error::Error + Clone + PartialEq + Send + Sync + 'static;
    /// What the evaluator of a search state is built with, handed in by whoever builds the state (chess: the
    /// network, or none for the hand-crafted evaluation; `()` for a game with one evaluation). Not a global:
    /// each engine session owns its choice, so two engines in one process may evaluate differently.
    type EvalSetting: Clone + Send + Sync + 'static;

    /// The standard start position (`chess960` chooses the castling notation where the game has one).
    fn start_position(chess960: bool) -> Self::Position;
    /// The position a FEN describes.
    fn from_fen(fen: &str, chess960: bool) -> Result<Self::Position, Self::FenError>;
    /// The position as FEN.
    fn to_fen(pos: &Self::Position) -> String;
    /// Does a PGN `Variant` tag (lower case) name this game? `Some(chess960)` when it does, with the castling
    /// notation it implies; a tag no game claims is the default game's, in the standard notation.
    fn reads_pgn_variant(_tag: &str) -> Option<bool> {
        None
    }
    /// Switches the castling notation (Chess960's king-takes-rook); a no-op for games without one.
    fn set_chess960(_pos: &mut Self::Position, _on: bool) {}
    /// Whose move it is.
    fn side_to_move(pos: &Self::Position) -> crate::types::Color;
    /// Every legal move, in generation order.
    fn legal_moves(pos: &Self::Position) -> Vec<Self::Move>;
    /// Is `m` legal in `pos`?
    fn is_legal(pos: &Self::Position, m: Self::Move) -> bool {
        Self::legal_moves(pos).contains(&m)
    }
    /// Plays a legal move.
    fn play(pos: &mut Self::Position, m: Self::Move);
    /// Reads a move in the protocol notation (UCI for chess); refuses malformed and illegal ones.
    fn parse_move(
        pos: &Self::Position,
        text: &str,
    ) -> Result<Self::Move, crate::types::MoveParseError>;
    /// The move in the protocol notation.
    fn move_text(pos: &Self::Position, m: Self::Move) -> String;
    /// The `d` dump: board, FEN, key, checks.
    fn display(pos: &Self::Position) -> String;
    /// The static evaluation of `pos`, from the side to move's point of view.
    fn evaluate(pos: &Self::Position) -> i32;
    /// The evaluation's breakdown of `pos`, with the evaluator `eval` sets up.
    fn eval_trace(pos: &Self::Position, eval: &Self::EvalSetting) -> String;
    /// Leaf nodes of the legal move tree `depth` plies below `pos`.
    fn perft(pos: &Self::Position, depth: u32) -> u64;
    /// The game's own values for the search parameters it overrides ([`Game::qs_recapture_depth`]...), as
    /// tunables: the `tunables` command lists them and a `tune` build offers them as options. None by default.
    fn tunables() -> Vec<crate::tunables::Tunable> {
        Vec::new()
    }
    /// Sets one of [`Variant::tunables`] (a `tune` build); false when it is not this game's, out of range or
    /// a constant (a normal build).
    fn set_tunable(_name: &str, _value: i64) -> bool {
        false
    }
    /// A line for the GUI when the engine switches to this game (Makromachy announces its board), if any.
    fn variant_note() -> Option<String> {
        None
    }
    /// The search state for a game played from `start` through `moves` (already checked legal), evaluated
    /// as `eval` sets up.
    fn search_state(
        start: &Self::Position,
        moves: &[Self::Move],
        eval: &Self::EvalSetting,
    ) -> Self::Search;
}

/// How `corvid play` draws a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    /// Unicode pieces on coloured squares (ANSI), the last move's squares highlighted.
    Color,
    /// Letters (upper case White, lower case Black, `.` empty), the last move's squares in brackets.
    Ascii,
}

/// What `corvid play` needs of a game beyond its rules: the board drawn, and moves as a person reads and
/// writes them. Implemented with each game in `crate::variants`; the play session loop is written once over it.
pub trait PlayHooks: Variant {
    /// The `help` text.
    const HELP: &'static str;
    /// What the greeting says before "you play White" (` Makromachy:`; empty for the default game).
    const GREETING: &'static str = "";
    /// What `corvid play --help` says of the game's moves, if anything (`14x14; moves as d4d7, ...`).
    const MOVES_HELP: Option<&'static str> = None;
    /// The board from `viewer`'s side, the squares of `last` highlighted.
    fn draw(
        pos: &Self::Position,
        last: Option<Self::Move>,
        viewer: crate::types::Color,
        style: BoardStyle,
    ) -> String;
    /// A move as the person is shown it.
    fn show_move(pos: &Self::Position, m: Self::Move) -> String;
    /// The legal move a person's `text` stands for (`Syntax` for text that is no move at all).
    fn read_human(
        pos: &Self::Position,
        text: &str,
    ) -> Result<Self::Move, crate::types::MoveParseError>;
    /// Is the side to move in check?
    fn in_check(pos: &Self::Position) -> bool;
}

/// What CECP (the xboard protocol) needs of a game beyond its rules: moves as XBoard writes and reads them, the
/// PV in the GUI's notation, and which root moves Corvid may play. Implemented with each game in
/// `crate::variants`; the CECP session is written once over it.
pub trait Cecp: Variant {
    /// The names CECP's `variant` command and the `variants` feature give this game, each with the castling
    /// notation it implies (chess: `normal` and `fischerandom`).
    const CECP_VARIANTS: &'static [CecpVariant];
    /// Does XBoard judge this game's endings by the same rules? XBoard checks an engine's claim of its own
    /// win or of a draw against its own reading of the rules; where that reading is not exact, Corvid
    /// announces endings in forms XBoard takes as they are (see `xboard::session`).
    const GUI_KNOWS_RULES: bool = true;
    /// The GUI's move text as this game reads it (Makromachy: lower case).
    fn gui_text(text: &str) -> String {
        text.to_string()
    }
    /// The legal move `text` (already through [`Cecp::gui_text`]) stands for, if any.
    fn read_gui_move(pos: &Self::Position, text: &str) -> Option<Self::Move>;
    /// Corvid's move as XBoard reads it.
    fn write_move(pos: &Self::Position, m: Self::Move) -> String;
    /// The search's PV (moves in the engine's text, from `root`) as the GUI shows it; it stops at the first
    /// move that does not parse.
    fn pv_text(root: &Self::Position, pv: &[String]) -> Vec<String>;
    /// The lines that tell XBoard the game when it is chosen (an engine-defined variant's `setup` and
    /// `piece` commands); none for a game XBoard knows.
    fn setup_lines() -> Vec<String> {
        Vec::new()
    }
    /// The start position of a CECP game: XBoard's record of it, which may differ from the rules' own
    /// (Makromachy: no castling rights unless `fast_castling`, as XBoard cannot show that castling).
    fn cecp_start(chess960: bool, _fast_castling: bool) -> Self::Position {
        Self::start_position(chess960)
    }
    /// The root moves Corvid may play, as text (empty: all of them).
    fn search_moves(_pos: &Self::Position, _fast_castling: bool) -> Vec<String> {
        Vec::new()
    }
}

/// One of a game's names under CECP (`variant NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CecpVariant {
    /// The name (`normal`, `fischerandom`, `makromachy`).
    pub name: &'static str,
    /// The castling notation it implies (Chess960's king-takes-rook).
    pub chess960: bool,
    /// Naming it starts a new game at its start position even when the same game is being played; else
    /// only another game is replaced (`variant normal` keeps a chess game going).
    pub restarts: bool,
}
