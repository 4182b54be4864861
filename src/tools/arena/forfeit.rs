//! How an engine loses a game outside the rules of chess: the referee rules it, the engine process detects
//! most of them (a crash, a hang), and the report counts them.

/// Why a side lost by forfeit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forfeit {
    Time,
    /// An illegal or unreadable move (or no move where there are legal ones).
    Illegal,
    /// The engine exited, closed its output or could not be started.
    Crash,
    /// No answer long after its time.
    Hang,
}

impl Forfeit {
    pub const ALL: [Forfeit; 4] = [
        Forfeit::Time,
        Forfeit::Illegal,
        Forfeit::Crash,
        Forfeit::Hang,
    ];

    pub(super) fn name(self) -> &'static str {
        match self {
            Forfeit::Time => "time",
            Forfeit::Illegal => "illegal",
            Forfeit::Crash => "crash",
            Forfeit::Hang => "hang",
        }
    }
}
