//! Makromachy's own values for the search parameters a game may override ([`crate::game::Game`]), as
//! tunables (see [`crate::tunables`]): constants in a normal build, UCI options in a `tune` build.

use crate::tunables::tunables;

tunables! {
    /// Quiescence plies after which only recaptures are searched. Without a cap, a crowded position's capture
    /// sequences ran to millions of quiescence nodes at depth 1.
    makro_qs_recapture_depth: u32 = 4, 2, 8;
}

#[cfg(test)]
#[allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn the_recapture_depth_is_a_tunable_in_its_range() {
        let all = all();
        assert_eq!(all.len(), 1);
        let t = all[0];
        assert_eq!(t.name, "makro_qs_recapture_depth");
        assert_eq!((t.default, t.min, t.max), (4, 2, 8));
        assert_eq!(
            t.spsa_line(),
            "makro_qs_recapture_depth, int, 4.0, 2.0, 8.0, 0.50, 0.002"
        );
        assert_eq!(makro_qs_recapture_depth(), 4);
        assert!(!set("makro_qs_recapture_depth", 9), "out of range");
        #[cfg(not(feature = "tune"))]
        assert!(!set("makro_qs_recapture_depth", 3), "a constant");
        #[cfg(feature = "tune")]
        {
            assert!(set("makro_qs_recapture_depth", 3));
            assert_eq!(makro_qs_recapture_depth(), 3);
            assert!(set("makro_qs_recapture_depth", 4));
        }
    }
}
