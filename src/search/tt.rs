//! STUB transposition table (replaced by the search branch).

/// Stub table.
pub struct TranspositionTable {
    mb: usize,
}

impl TranspositionTable {
    /// A table of `mb` MiB.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable { mb }
    }
    /// Resizes (clears).
    pub fn resize(&mut self, mb: usize) {
        self.mb = mb;
    }
    /// Clears.
    pub fn clear(&self) {}
    /// Permille used.
    pub fn hashfull(&self) -> u32 {
        (self.mb % 2) as u32
    }
}
