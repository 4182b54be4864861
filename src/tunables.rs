//! Tunables: constants that a tuner (SPSA) can set, declared through one macro, [`tunables!`], by every module
//! that has them (the search in `search/params.rs`; a game's own values for the search parameters it
//! overrides, such as `variants/makro/params.rs`). This module is at the bottom of the crate and imports nothing
//! from it, so a board module may declare tunables without reaching up into the search.
//!
//! A tunable is read as a function (`rfp_margin()`). In a normal build the function returns the constant
//! (inlined: the same code as a `const`); with the cargo feature `tune` it reads a value that the UCI option
//! of the same name sets (a float is offered in hundredths), and the `tunables` command prints every one in
//! OpenBench's SPSA input format.

/// A tunable as a tuner sees it: its name (the UCI option), and default and range in option units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// The UCI option name.
    pub name: &'static str,
    /// The default, in option units (hundredths for a float).
    pub default: i64,
    /// The smallest value a tuner may set.
    pub min: i64,
    /// The largest value a tuner may set.
    pub max: i64,
}

impl Tunable {
    /// The SPSA input line OpenBench reads: `name, int, default, min, max, c_end, r_end`, with the step at
    /// the end of the run a twentieth of the range (at least 0.5) and the usual learning rate 0.002.
    pub fn spsa_line(&self) -> String {
        let c_end = ((self.max - self.min) as f64 / 20.0).max(0.5);
        format!(
            "{}, int, {:.1}, {:.1}, {:.1}, {c_end:.2}, 0.002",
            self.name, self.default as f64, self.min as f64, self.max as f64
        )
    }
}

/// How a tunable's type maps to an integer option.
pub trait TuneValue: Copy {
    /// The value in option units.
    fn to_option(self) -> i64;
    /// The value of an option setting.
    fn from_option(v: i64) -> Self;
}

impl TuneValue for i32 {
    fn to_option(self) -> i64 {
        i64::from(self)
    }
    fn from_option(v: i64) -> i32 {
        v as i32
    }
}

impl TuneValue for u32 {
    fn to_option(self) -> i64 {
        i64::from(self)
    }
    fn from_option(v: i64) -> u32 {
        v.clamp(0, i64::from(u32::MAX)) as u32
    }
}

impl TuneValue for u64 {
    fn to_option(self) -> i64 {
        self as i64
    }
    fn from_option(v: i64) -> u64 {
        v.max(0) as u64
    }
}

/// Floats go to options in hundredths.
impl TuneValue for f64 {
    fn to_option(self) -> i64 {
        (self * 100.0).round() as i64
    }
    fn from_option(v: i64) -> f64 {
        v as f64 / 100.0
    }
}

/// Declares a module's tunables: `name: type = default, min, max;` each, with its doc comment. It defines a
/// function per tunable, `all()` (the module's list) and `set(name, value)` in the calling module.
macro_rules! tunables {
    ($( $(#[$doc:meta])* $name:ident: $ty:ty = $default:expr, $min:expr, $max:expr; )*) => {
        $(
            $(#[$doc])*
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub fn $name() -> $ty {
                $default
            }
        )*

        /// The values an SPSA run sets, one per tunable (in option units).
        #[cfg(feature = "tune")]
        mod live {
            use $crate::tunables::TuneValue;
            use std::sync::atomic::AtomicI64;
            use std::sync::LazyLock;
            $(
                #[allow(non_upper_case_globals)]
                pub static $name: LazyLock<AtomicI64> =
                    LazyLock::new(|| AtomicI64::new(TuneValue::to_option($default as $ty)));
            )*
        }

        $(
            $(#[$doc])*
            #[cfg(feature = "tune")]
            #[inline]
            pub fn $name() -> $ty {
                <$ty as $crate::tunables::TuneValue>::from_option(live::$name.load(std::sync::atomic::Ordering::Relaxed))
            }
        )*

        /// Every tunable, in declaration order.
        pub fn all() -> Vec<$crate::tunables::Tunable> {
            use $crate::tunables::TuneValue;
            vec![$($crate::tunables::Tunable {
                name: stringify!($name),
                default: TuneValue::to_option($default as $ty),
                min: TuneValue::to_option($min as $ty),
                max: TuneValue::to_option($max as $ty),
            }),*]
        }

        /// Sets the tunable `name` (in option units, within its range). False for an unknown name or a value
        /// out of range; in a normal build every tunable is a constant and nothing can be set.
        pub fn set(name: &str, value: i64) -> bool {
            let Some(t) = all().into_iter().find(|t| t.name.eq_ignore_ascii_case(name)) else {
                return false;
            };
            if !(t.min..=t.max).contains(&value) {
                return false;
            }
            set_live(t.name, value)
        }

        #[cfg(feature = "tune")]
        fn set_live(name: &str, value: i64) -> bool {
            $(
                if name == stringify!($name) {
                    live::$name.store(value, std::sync::atomic::Ordering::Relaxed);
                    return true;
                }
            )*
            false
        }

        #[cfg(not(feature = "tune"))]
        fn set_live(_name: &str, _value: i64) -> bool {
            false
        }
    };
}

pub(crate) use tunables;
