//! Progress bars for the long command-line jobs (`corvid perft`, `match`, `datagen`), set up in one place so
//! they look alike. A bar is drawn on stderr only when stderr is a terminal; otherwise [`bar`] gives a hidden
//! one (every call on it does nothing) and each job keeps its plain output, which logs and scripts read.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// The layout of a bar with a known total.
const WITH_TOTAL: &str = "{prefix} {wide_bar} {human_pos}/{human_len} {msg} [{elapsed}, eta {eta}]";
/// The layout of an open-ended count.
const OPEN_ENDED: &str = "{prefix} {human_pos} {msg} [{elapsed}]";

/// A bar labelled `prefix` counting to `total` (None: an open-ended count shown as a number), with the job's
/// message after the count; redrawn every second even when nothing advances, so the clock keeps moving.
/// Hidden ([`ProgressBar::is_hidden`]) when stderr is not a terminal.
pub fn bar(prefix: &'static str, total: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match total {
        Some(n) => (ProgressBar::new(n), WITH_TOTAL),
        None => (ProgressBar::no_length(), OPEN_ENDED),
    };
    // The templates are fixed: a bad one is a programming error that the tests below catch.
    let style =
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
    let bar = bar.with_style(style).with_prefix(prefix);
    bar.enable_steady_tick(Duration::from_secs(1));
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_are_valid() {
        for t in [WITH_TOTAL, OPEN_ENDED] {
            assert!(ProgressStyle::with_template(t).is_ok(), "{t}");
        }
    }
}
