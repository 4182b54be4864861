//! What every game shares: the colours and the errors of move text.
//!
//! Boards, rules and front ends of every game use these; they depend on nothing in the crate.

use std::fmt;

/// Side to move / owner of a piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Color {
    /// Moves first.
    White = 0,
    /// Moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: the index of per-colour tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// Why a move text was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not of the form `e2e4` / `e7e8q`.
    Syntax(String),
    /// Well formed but not a legal move in the position.
    Illegal(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Syntax(s) => {
                write!(f, "malformed move '{s}' (expected e.g. e2e4 or e7e8q)")
            }
            MoveParseError::Illegal(s) => write!(f, "illegal move '{s}'"),
        }
    }
}

impl std::error::Error for MoveParseError {}

/// A fixed-capacity list on the stack for plain data: move generation allocates nothing, and the storage is
/// left uninitialised (zeroing 512 bytes per node measurably slowed perft). Every game's move lists are one.
pub struct ArrayVec<T: Copy, const N: usize> {
    items: [std::mem::MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> ArrayVec<T, N> {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        ArrayVec {
            items: [std::mem::MaybeUninit::uninit(); N],
            len: 0,
        }
    }

    /// Appends `x`. Panics when full, which a correct capacity (a game's bound on legal moves) makes
    /// impossible.
    #[inline(always)]
    pub fn push(&mut self, x: T) {
        self.items[self.len] = std::mem::MaybeUninit::new(x);
        self.len += 1;
    }

    /// Number of items.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// No items?
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets every item.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The items as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` items were written by `push`; T is Copy, so plain data.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const T, self.len) }
    }

    /// The items as a mutable slice (for scoring and sorting).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as for `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr() as *mut T, self.len) }
    }

    /// Removes item `i`, replacing it with the last one (order is not kept).
    pub fn swap_remove(&mut self, i: usize) -> T {
        let x = self.as_slice()[i];
        self.len -= 1;
        self.items[i] = self.items[self.len];
        x
    }
}

impl<T: Copy, const N: usize> Default for ArrayVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> Clone for ArrayVec<T, N> {
    fn clone(&self) -> Self {
        // Only the written items are read: the rest stays uninitialised.
        let mut out = Self::new();
        for &x in self.as_slice() {
            out.push(x);
        }
        out
    }
}

impl<T: Copy, const N: usize> std::ops::Deref for ArrayVec<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy, const N: usize> std::ops::DerefMut for ArrayVec<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a ArrayVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<T: Copy + fmt::Debug, const N: usize> fmt::Debug for ArrayVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// A leap as (files, ranks).
pub type Leap = (i8, i8);

/// The eight leaps of an (a, b) leaper (the Knight is (1, 2)), clockwise from (a, b): the order both boards'
/// tables list them in.
pub const fn leaps(a: i8, b: i8) -> [Leap; 8] {
    [
        (a, b),
        (b, a),
        (b, -a),
        (a, -b),
        (-a, -b),
        (-b, -a),
        (-b, a),
        (-a, b),
    ]
}

/// Every leap of `dirs` taken `k` times (the second square along each line).
pub const fn scaled<const N: usize>(dirs: [Leap; N], k: i8) -> [Leap; N] {
    let mut out = dirs;
    let mut i = 0;
    while i < N {
        out[i] = (dirs[i].0 * k, dirs[i].1 * k);
        i += 1;
    }
    out
}

/// `a` then `b`; `N` must be their lengths' sum (checked when the constant is built).
pub const fn joined<const A: usize, const B: usize, const N: usize>(
    a: [Leap; A],
    b: [Leap; B],
) -> [Leap; N] {
    assert!(A + B == N, "joined: N must be A + B");
    let mut out = [(0, 0); N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}
