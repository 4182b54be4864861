//! Slider attack table generation, shared by `build.rs` (which writes the table at build time, natively: as a
//! `const` evaluation it took half a minute of every build) and `attacks.rs` (entries and test references).
//! Plain integers only, so that the build script can include this file on its own.

pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Magic multipliers for builds without BMI2, found by our own random search (sparse random candidates, kept
/// when every occupancy maps without a harmful collision; `attacks::tests::magics_are_valid` re-checks them).
pub const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002C03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000A001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021D00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000A0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000A00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040A00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xC100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000A0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040A00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04C1002414824001,
    0x020020000B001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084C0007,
    0x0888221800813004,
    0x4000002840840112,
];
pub const BISHOP_MAGICS: [u64; 64] = [
    0xA010041108003100,
    0x006082020A002900,
    0x6810010619200000,
    0x08281A0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040A0210245280,
    0x000200210808A402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202C0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208B0542109008A2,
    0x0080084A08040204,
    0x0040E2A80811244C,
    0x2505022008008108,
    0x0430220100420040,
    0x010A040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000A62048043004,
    0x280120048A015004,
    0x006090002A020814,
    0x44042000240800D0,
    0x01102800040A4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500C05021,
    0x0088611002080200,
    0x0116080A00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002E00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221C0400,
    0x0422014022009020,
    0x0210046102100C00,
    0xC004008082029102,
    0x00AA461801101200,
    0x0404080080201108,
    0x020542108C205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400C0,
    0x0200100410A42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800C262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012A02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

pub const ROOK_TABLE: usize = 102_400;
pub const BISHOP_TABLE: usize = 5_248;

/// One slider square's lookup data: relevant-occupancy mask, magic and shift (unused with PEXT), and the
/// offset of the square's slice in the shared attack table.
#[derive(Clone, Copy)]
pub struct SliderEntry {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: u32,
}

impl SliderEntry {
    /// The table index of occupancy `occ`: PEXT order when `pext` (computed in software here, since the build
    /// script may run on another CPU than the target), magic order otherwise.
    pub const fn index(&self, occ: u64, pext: bool) -> usize {
        if pext {
            let mut result = 0u64;
            let mut mask = self.mask;
            let mut bit = 0;
            while mask != 0 {
                let low = mask & mask.wrapping_neg();
                if occ & low != 0 {
                    result |= 1 << bit;
                }
                bit += 1;
                mask &= mask - 1;
            }
            self.offset as usize + result as usize
        } else {
            self.offset as usize
                + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
        }
    }
}

pub const fn offset_square(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq % 8) as i8 + df;
    let r = (sq / 8) as i8 + dr;
    if f >= 0 && f < 8 && r >= 0 && r < 8 {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}

/// Slider attacks by walking rays (table construction, and the tests' reference).
pub const fn ray_attacks(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut bb = 0;
    let mut d = 0;
    while d < 4 {
        let mut cur = sq;
        while let Some(next) = offset_square(cur, dirs[d].0, dirs[d].1) {
            bb |= 1 << next;
            if occ & (1 << next) != 0 {
                break;
            }
            cur = next;
        }
        d += 1;
    }
    bb
}

/// Relevant occupancy: the rays without their last square (a piece on the edge never changes the attacks).
pub const fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut bb = 0;
    let mut d = 0;
    while d < 4 {
        let mut cur = sq;
        while let Some(next) = offset_square(cur, dirs[d].0, dirs[d].1) {
            if offset_square(next, dirs[d].0, dirs[d].1).is_none() {
                break;
            }
            bb |= 1 << next;
            cur = next;
        }
        d += 1;
    }
    bb
}

pub const fn slider_entries(
    dirs: &[(i8, i8); 4],
    magics: &[u64; 64],
    base: usize,
) -> [SliderEntry; 64] {
    let mut e = [SliderEntry {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = base;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        e[sq] = SliderEntry {
            mask,
            magic: magics[sq],
            shift: 64 - bits,
            offset: offset as u32,
        };
        offset += 1 << bits;
        sq += 1;
    }
    e
}

pub fn fill(table: &mut [u64], entries: &[SliderEntry; 64], dirs: &[(i8, i8); 4], pext: bool) {
    let mut sq = 0;
    while sq < 64 {
        let mask = entries[sq].mask;
        // Every subset of the mask (Carry-Rippler enumeration).
        let mut occ: u64 = 0;
        loop {
            table[entries[sq].index(occ, pext)] = ray_attacks(sq, occ, dirs);
            occ = occ.wrapping_sub(mask) & mask;
            if occ == 0 {
                break;
            }
        }
        sq += 1;
    }
}
