//! `corvid bench --variant makromachy`: the positions and the depth.

/// Depth when none is given (its positions have several times chess's moves).
pub(super) const DEPTH: u32 = 9;

/// Makromachy bench positions: the start, then positions from seeded random play (captures favoured) after
/// 8 to 62 plies.
pub(super) const POSITIONS: &[&str] = &[
    "djivcgulkcvijd/wwwzrftqfrzwww/bhnmeossoeanhb/pppppppppppppp/14/14/14/14/14/14/PPPPPPPPPPPPPP/BHNMEOSSOEANHB/WWWZRFTQFRZWWW/DJIVCGULKCVIJD w KQkq - 0 1",
    "djivcgulkcvijd/Awwzrftqfrzwww/b1n1eossoea1hb/pp1pppmpZppppp/10n3/2p11/14/3P10/14/7P6/PPP1PPP1P1EPPP/BHNMEOSSO2NHB/WWWZRFTQFR1WWW/DJIVCGULKCVIJD w KQkq - 1 8",
    "djivcgulkcvijd/www1r1tqfrzwww/1hnme1sso1anhb/p1poMpp1pp1pp1/1z12/8T5/3p9p/10P3/14/1P12/P1PePPPP1P1PPP/BHN1EOS1OEANHB/WWWZRF1QFRZWWW/DJIVCGU1KCVIJD w KQkq - 0 11",
    "4Mgulkcvijd/wwwzrftqfrzwww/ihnmeos1o2nhb/pp2ppp2pp1pp/3p7p2/14/7p6/5P6sP/14/6P7/PPPPP2PPaPPP1/BHN1EOSS1EANHB/WWWZRFT1KRZWWW/DJIVCGeLQCVIJD w k - 0 14",
    "djivcgulkcvi1w/www1r1tq1rz1ww/bhnme4eanh1/1pp2pppop1ppj/3pp2o6/3z6p3/14/14/s3P2P6/14/1PPP1PP1PPPPPP/BHNMEVS2E1NHB/WWWZRFTQSRZWWW/DJI1CGU1DKCIJ1 w q - 0 17",
    "djivcgulkcvi2/www1rftqfrzww1/1h1me1osoe1n2/2pppn2pppj2/3A7a2/6pp5d/2S8ppp/5L3P3N/14/14/1PPP1MPPP1PPPP/BHN1E1S1OE1IHB/WWWZR2QFRZWWW/1JIVC1UKDCV1JD w q - 3 20",
    "1jivcguldcvik1/dwwzrf1q2r1ww/2n1e1s1oe1nhb/7p2pjp1/6p7/3p10/2p11/9P4/8P5/7PZ5/PPP2PP3PPPP/BH1MO3OEANHB/WWWZR2QFR1WW1/DaIVCGU1KCVWJD w KQ - 0 23",
    "1jivc1u1dcv1jd/www1rftkfrzwww/1h2eo3e1ihb/1bp1p1pp1p1ppp/14/1p4o3p3/p13/8O5/6P2PU3/2P6n4/P1P1PPZZ2PP1P/BHN1ROS2EA1H1/WWWG1F1Q1N1WWW/DJIVCT1KC1VIJD w - - 0 26",
    "1jivcg2dck1j1/www1rf2q2www/bh1meos2i2hb/1pp2pp3Spp1/1z1p6p3/10n2p/14/14/11P2/4u2O6/3P1PP1PPP1PP/4E4OAN1B/W1WZRMTQ1RZ3/1NIWCGUKDCVWJD w - - 0 32",
    "1div2ulkcvijw/w6qfrz1ww/H4o1s1e1nTb/3p1tppp1p3/4g1e2p2p1/p10r2/1p9p2/11s2/8P1P3/4M2O1P2P1/P1J3PP5P/BH5SOE1N1B/WWWF3Q1RZIWW/D1IVCGULDCVKJ1 w - - 0 35",
    "2kvigu1d1vi1d/wwwzjf1q1fzwww/5os6b/4tp1pp1pjp1/6p3o3/3p10/5O8/14/3P5P4/4P1O5N1/JP4PPP1PP1P/B8E2H1/WWWZR4TZIWW/D1I1CGCK2V1JD w - - 2 38",
];
