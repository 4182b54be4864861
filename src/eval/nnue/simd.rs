//! The network's two hot loops, in AVX2 (`std::arch`, compiled in when the build targets AVX2, as the
//! repository's `target-cpu=x86-64-v3` does) and in plain Rust. Both give bit-identical results: the
//! accumulator arithmetic wraps in i16 in both, and the output sums wrap in i32, so the order of additions
//! does not matter. `scalar` is always compiled, so tests can hold the two against each other.

use super::format::HIDDEN;

/// One perspective's hidden lanes (an accumulator, a feature's weights, or half the output weights).
pub type Lanes = [i16; HIDDEN];

/// The largest output weight magnitude for which [`output_sum`]'s fast path is exact: `clamp(x) * w` must
/// fit in i16, with `clamp(x) <= 255`.
pub const FAST_OUTPUT_WEIGHT: i16 = 128;

// `add_sub(dst, src, adds, subs)`: `dst = src + sum(adds) - sum(subs)`, lane by lane (wrapping), in the form
// the build targets.
#[cfg(target_feature = "avx2")]
pub use avx2::add_sub;
#[cfg(not(target_feature = "avx2"))]
pub use scalar::add_sub;

/// `dst += row`, lane by lane (wrapping). A plain loop: the compiler vectorises it for the target (it is
/// used only for refreshes, which are rare).
#[inline]
pub fn add_assign(dst: &mut Lanes, row: &Lanes) {
    for (d, r) in dst.iter_mut().zip(row) {
        *d = d.wrapping_add(*r);
    }
}

/// `dst -= row`, lane by lane (wrapping).
#[inline]
pub fn sub_assign(dst: &mut Lanes, row: &Lanes) {
    for (d, r) in dst.iter_mut().zip(row) {
        *d = d.wrapping_sub(*r);
    }
}

/// `sum_i screlu(stm[i]) * w_stm[i] + sum_i screlu(opp[i]) * w_opp[i]` with `screlu(x) = clamp(x, 0, 255)^2`,
/// summed in wrapping i32. Exact for any weights in the scalar form; the AVX2 form needs every weight within
/// `±FAST_OUTPUT_WEIGHT`, so callers pass `fast = false` for networks with larger ones.
#[inline(always)]
pub fn output_sum(stm: &Lanes, opp: &Lanes, w_stm: &Lanes, w_opp: &Lanes, fast: bool) -> i32 {
    #[cfg(target_feature = "avx2")]
    if fast {
        return avx2::output_sum(stm, opp, w_stm, w_opp);
    }
    #[cfg(not(target_feature = "avx2"))]
    let _ = fast;
    scalar::output_sum(stm, opp, w_stm, w_opp)
}

/// The portable forms, the reference for the SIMD ones.
pub mod scalar {
    use super::{Lanes, HIDDEN};
    use crate::eval::nnue::format::QA;

    /// `dst = src + sum(adds) - sum(subs)` (wrapping i16).
    #[inline(always)]
    pub fn add_sub<const A: usize, const S: usize>(
        dst: &mut Lanes,
        src: &Lanes,
        adds: [&Lanes; A],
        subs: [&Lanes; S],
    ) {
        for i in 0..HIDDEN {
            let mut v = src[i];
            for a in adds {
                v = v.wrapping_add(a[i]);
            }
            for s in subs {
                v = v.wrapping_sub(s[i]);
            }
            dst[i] = v;
        }
    }

    /// The SCReLU output sum (wrapping i32), exact for every weight.
    #[inline]
    pub fn output_sum(stm: &Lanes, opp: &Lanes, w_stm: &Lanes, w_opp: &Lanes) -> i32 {
        let mut sum = 0i32;
        for (acc, w) in [(stm, w_stm), (opp, w_opp)] {
            for i in 0..HIDDEN {
                let c = (acc[i] as i32).clamp(0, QA);
                // c * c * w fits i32 (65025 * 32768 < 2^31); only the sum may wrap.
                sum = sum.wrapping_add(c * c * w[i] as i32);
            }
        }
        sum
    }
}

/// The AVX2 forms: 16 lanes per instruction.
#[cfg(target_feature = "avx2")]
pub mod avx2 {
    use super::{Lanes, HIDDEN};
    use crate::eval::nnue::format::QA;
    use std::arch::x86_64::*;

    const STEP: usize = 16;
    const _: () = assert!(HIDDEN.is_multiple_of(2 * STEP));

    #[inline(always)]
    fn load(a: &Lanes, i: usize) -> __m256i {
        debug_assert!(i + STEP <= HIDDEN);
        // SAFETY: `i + 16 <= HIDDEN` at every call (the loops step through whole chunks), so the 32 bytes
        // read lie inside `a`; the unaligned load has no alignment requirement.
        unsafe { _mm256_loadu_si256(a.as_ptr().add(i) as *const __m256i) }
    }

    #[inline(always)]
    fn store(a: &mut Lanes, i: usize, v: __m256i) {
        debug_assert!(i + STEP <= HIDDEN);
        // SAFETY: as for `load`, the 32 bytes written lie inside `a`, which is borrowed mutably.
        unsafe { _mm256_storeu_si256(a.as_mut_ptr().add(i) as *mut __m256i, v) }
    }

    /// `dst = src + sum(adds) - sum(subs)` (wrapping i16).
    #[inline(always)]
    pub fn add_sub<const A: usize, const S: usize>(
        dst: &mut Lanes,
        src: &Lanes,
        adds: [&Lanes; A],
        subs: [&Lanes; S],
    ) {
        let mut i = 0;
        while i < HIDDEN {
            let mut v = load(src, i);
            // SAFETY (each block below): this module exists only when the build targets AVX2.
            for a in adds {
                v = unsafe { _mm256_add_epi16(v, load(a, i)) };
            }
            for s in subs {
                v = unsafe { _mm256_sub_epi16(v, load(s, i)) };
            }
            store(dst, i, v);
            i += STEP;
        }
    }

    /// `clamp(x) * w` in i16 (exact for |w| <= 128), then `madd` with `clamp(x)`: the pairwise sums of
    /// `clamp(x)^2 * w` in i32, as bullet-style engines compute SCReLU.
    #[inline(always)]
    fn screlu_madd(acc: &Lanes, w: &Lanes, i: usize) -> __m256i {
        let (x, w) = (load(acc, i), load(w, i));
        // SAFETY: this module exists only when the build targets AVX2.
        unsafe {
            let c = _mm256_min_epi16(
                _mm256_max_epi16(x, _mm256_setzero_si256()),
                _mm256_set1_epi16(QA as i16),
            );
            _mm256_madd_epi16(_mm256_mullo_epi16(c, w), c)
        }
    }

    /// The SCReLU output sum (wrapping i32); equal to the scalar one when every weight is within ±128.
    #[inline]
    pub fn output_sum(stm: &Lanes, opp: &Lanes, w_stm: &Lanes, w_opp: &Lanes) -> i32 {
        // SAFETY: this module exists only when the build targets AVX2.
        unsafe {
            // Two chains of additions, so that they overlap in the pipeline.
            let mut a = _mm256_setzero_si256();
            let mut b = _mm256_setzero_si256();
            let mut i = 0;
            while i < HIDDEN {
                a = _mm256_add_epi32(a, screlu_madd(stm, w_stm, i));
                b = _mm256_add_epi32(b, screlu_madd(opp, w_opp, i));
                i += STEP;
            }
            let v = _mm256_add_epi32(a, b);
            let v = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            let v = _mm_add_epi32(v, _mm_shuffle_epi32::<0b01_00_11_10>(v));
            let v = _mm_add_epi32(v, _mm_shuffle_epi32::<0b10_11_00_01>(v));
            _mm_cvtsi128_si32(v)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rng::Rng;

    /// Lanes uniform in lo..=hi, from a seeded generator so the cases are the same on every run.
    fn lanes(rng: &mut Rng, lo: i32, hi: i32) -> Box<Lanes> {
        let mut l = Box::new([0i16; HIDDEN]);
        for v in l.iter_mut() {
            *v = (lo + rng.below((hi - lo + 1) as usize) as i32) as i16;
        }
        l
    }

    #[test]
    fn scalar_output_matches_a_direct_sum() {
        let mut rng = Rng::new(7);
        for _ in 0..50 {
            let (s, o) = (lanes(&mut rng, -300, 600), lanes(&mut rng, -300, 600));
            let (ws, wo) = (
                lanes(&mut rng, -32768, 32767),
                lanes(&mut rng, -32768, 32767),
            );
            let mut want: i64 = 0;
            for i in 0..HIDDEN {
                let (cs, co) = (s[i].clamp(0, 255) as i64, o[i].clamp(0, 255) as i64);
                want += cs * cs * ws[i] as i64 + co * co * wo[i] as i64;
            }
            // The i32 sum wraps: it equals the exact sum modulo 2^32.
            assert_eq!(scalar::output_sum(&s, &o, &ws, &wo), want as i32);
        }
    }

    #[cfg(target_feature = "avx2")]
    #[test]
    fn avx2_equals_scalar_on_random_lanes() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut clamped = [0usize; 2];
        for round in 0..500 {
            // Wide ranges on odd rounds: the i16 accumulator and the i32 sum wrap there.
            let (lo, hi) = if round % 2 == 0 {
                (-200, 400)
            } else {
                (-32768, 32767)
            };
            let (s, o) = (lanes(&mut rng, lo, hi), lanes(&mut rng, lo, hi));
            let m = FAST_OUTPUT_WEIGHT as i32;
            let (ws, wo) = (lanes(&mut rng, -m, m), lanes(&mut rng, -m, m));
            clamped[0] += s.iter().filter(|&&x| x < 0).count();
            clamped[1] += s.iter().filter(|&&x| x > 255).count();
            assert_eq!(
                avx2::output_sum(&s, &o, &ws, &wo),
                scalar::output_sum(&s, &o, &ws, &wo),
                "round {round}"
            );
            let (a, b, c, d) = (
                lanes(&mut rng, lo, hi),
                lanes(&mut rng, lo, hi),
                lanes(&mut rng, lo, hi),
                lanes(&mut rng, lo, hi),
            );
            let mut x = Box::new([0i16; HIDDEN]);
            let mut y = Box::new([0i16; HIDDEN]);
            avx2::add_sub(&mut x, &s, [&a, &b], [&c, &d]);
            scalar::add_sub(&mut y, &s, [&a, &b], [&c, &d]);
            assert_eq!(x[..], y[..]);
            avx2::add_sub(&mut x, &o, [&a], [&c, &d]);
            scalar::add_sub(&mut y, &o, [&a], [&c, &d]);
            assert_eq!(x[..], y[..]);
            avx2::add_sub(&mut x, &o, [&b], [&a]);
            scalar::add_sub(&mut y, &o, [&b], [&a]);
            assert_eq!(x[..], y[..]);
        }
        // Both ends of the clamp were exercised.
        assert!(clamped[0] > 1000 && clamped[1] > 1000, "{clamped:?}");
    }

    #[test]
    fn dispatch_falls_back_to_exact_arithmetic_for_large_weights() {
        let mut rng = Rng::new(99);
        let (s, o) = (lanes(&mut rng, 0, 255), lanes(&mut rng, 0, 255));
        let (ws, wo) = (
            lanes(&mut rng, -32768, 32767),
            lanes(&mut rng, -32768, 32767),
        );
        assert_eq!(
            output_sum(&s, &o, &ws, &wo, false),
            scalar::output_sum(&s, &o, &ws, &wo)
        );
    }
}
