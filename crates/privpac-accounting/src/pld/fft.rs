//! An iterative radix-2 fast Fourier transform with a proven bound on its rounding error, for
//! the PLD accountant's convolutions.
//!
//! *Error bound.* Let `u = 2⁻⁵³` (unit roundoff), `μ` a bound on `|ŵ − w|` for every stored
//! twiddle `ŵ` of an exact root of unity `w` ([`TWIDDLE_ERROR`], checked against a 256-bit
//! reference in the tests), and `1 + θ = (1 + μ)(1 + √5·u)(1 + u)`: a complex product has
//! error at most `√5·u·|ẑŵ|` without fused multiply-adds (Brent, Percival and Zimmermann,
//! "Error bounds on complex floating-point multiplication", Math. Comp. 2007) and a complex
//! sum at most `u·|a + b|`. Claim: after `s` butterfly stages, every computed value `v̂` of a
//! value `v` that sums `2^s` inputs (times roots of unity) with total absolute mass `S`
//! satisfies `|v̂ − v| ≤ ((1 + θ)^s − 1)·S`. By induction: with `a, b` the two values a
//! butterfly combines (masses `S_a`, `S_b`) and `c = (1 + θ)^s`, `|ŵb̂ − wb| ≤
//! (1 + μ)(c − 1)S_b + μS_b`, rounding the product adds `√5·u(1 + μ)c·S_b`, and rounding the
//! sum adds `u(c·S_a + (1 + μ)(1 + √5u)c·S_b)`; altogether at most `(c(1 + θ) − 1)(S_a + S_b)`.
//! So each output of a transform of length `N = 2^L` is within `((1 + θ)^L − 1)·‖x‖₁` of the
//! exact discrete Fourier transform of the stored input ([`transform_error`]). Underflow is
//! covered by an absolute `N·2⁻⁹⁸⁰` added by the callers.

/// Unit roundoff of f64.
pub(super) const UNIT: f64 = f64::EPSILON / 2.0;

/// Bound on `|ŵ − e^{−2πij/N}|` for every twiddle of [`Twiddles`] (the computed angle is off
/// by at most a few 10⁻¹⁷ and `sin_cos` by about an ulp on `[0, π/4]`; the test checks every
/// twiddle of small tables and a sample of a 2²² table against 0.85·μ).
pub(super) const TWIDDLE_ERROR: f64 = 4e-16;

/// `(1 + θ)`'s θ for one butterfly stage (see the module docs), rounded up.
pub(super) fn stage_theta() -> f64 {
    // (1 + μ)(1 + √5u)(1 + u) − 1 ≤ μ + 3.25u + 2μu + 3u², far below the extra 0.01u.
    TWIDDLE_ERROR + 3.26 * UNIT + 2.0 * TWIDDLE_ERROR * UNIT
}

/// `(1 + θ)^n − 1`, rounded up (relative 10⁻¹⁰ covers the evaluation).
pub(super) fn grow(n: f64, theta: f64) -> f64 {
    (n * theta.ln_1p()).exp_m1() * (1.0 + 1e-10)
}

/// Bound on `|computed − exact|` for each output of [`fft`] on a length `2^levels`, per unit
/// of the input's ℓ¹ norm (see the module docs).
pub(super) fn transform_error(levels: u32) -> f64 {
    grow(f64::from(levels), stage_theta())
}

/// A complex number.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct Complex {
    pub(super) re: f64,
    pub(super) im: f64,
}

impl Complex {
    pub(super) const ZERO: Complex = Complex { re: 0.0, im: 0.0 };

    pub(super) fn new(re: f64, im: f64) -> Self {
        Complex { re, im }
    }

    /// The product, by the textbook formula (error ≤ √5·u·|zw|, no fused multiply-add).
    #[inline]
    pub(super) fn mul(self, other: Complex) -> Complex {
        Complex {
            re: self.re * other.re - self.im * other.im,
            im: self.re * other.im + self.im * other.re,
        }
    }

    #[inline]
    pub(super) fn add(self, other: Complex) -> Complex {
        Complex::new(self.re + other.re, self.im + other.im)
    }

    #[inline]
    pub(super) fn sub(self, other: Complex) -> Complex {
        Complex::new(self.re - other.re, self.im - other.im)
    }

    #[inline]
    pub(super) fn conj(self) -> Complex {
        Complex::new(self.re, -self.im)
    }

    #[inline]
    pub(super) fn scale(self, s: f64) -> Complex {
        Complex::new(self.re * s, self.im * s)
    }

    /// An upper bound on `|z|`: `√(re² + im²)` is within 2.5u of it while the sum of
    /// squares is at least 10⁻²⁸⁰ (each square then loses at most 2⁻¹⁰⁷⁵ ≤ 10⁻³⁰ of a unit
    /// roundoff of the sum to underflow); below that, `|re| + |im| ≥ |z|`, a sum with one
    /// rounding and no underflow (subnormal sums are exact), so no floor is needed and
    /// products of bounds keep decaying.
    #[inline]
    pub(super) fn abs_up(self) -> f64 {
        let squares = self.re * self.re + self.im * self.im;
        if squares >= 1e-280 {
            squares.sqrt() * (1.0 + 3.0 * UNIT)
        } else {
            (self.re.abs() + self.im.abs()) * (1.0 + 2.0 * UNIT)
        }
    }
}

/// The roots of unity `e^{−2πij/N}` for `j < N/2` of a length `N = 2^levels`.
#[derive(Debug, Clone)]
pub(super) struct Twiddles {
    levels: u32,
    half: Vec<Complex>,
}

impl Twiddles {
    /// Computes the table: each angle is reduced to the first octant, where `sin_cos` is
    /// accurate, and the root is assembled by exact sign changes and swaps.
    pub(super) fn new(levels: u32) -> Self {
        let n = 1usize << levels;
        let half = (0..n / 2).map(|j| root(j, n)).collect();
        Twiddles { levels, half }
    }

    pub(super) fn len(&self) -> usize {
        1 << self.levels
    }

    pub(super) fn levels(&self) -> u32 {
        self.levels
    }

    /// `e^{−2πi·j/N}` for any `j` (taken mod N): `w_{j + N/2} = −w_j` exactly.
    #[inline]
    pub(super) fn at(&self, j: u64) -> Complex {
        let n = self.len() as u64;
        let j = j & (n - 1);
        let h = n / 2;
        if j < h {
            self.half[j as usize]
        } else {
            let w = self.half[(j - h) as usize];
            Complex::new(-w.re, -w.im)
        }
    }
}

/// `e^{−2πij/n}` (n a power of two ≥ 1, j < n) from `sin_cos` on `[0, π/4]`.
pub(super) fn root(j: usize, n: usize) -> Complex {
    if n < 8 {
        // n ∈ {1, 2, 4}: the roots are exact.
        return match (4 * j / n.max(1)) % 4 {
            0 => Complex::new(1.0, 0.0),
            1 => Complex::new(0.0, -1.0),
            2 => Complex::new(-1.0, 0.0),
            _ => Complex::new(0.0, 1.0),
        };
    }
    let eighth = n / 8;
    let octant = j / eighth;
    let r = j % eighth;
    // Angle in the octant: φ = 2π·r/n ∈ [0, π/4) or its complement π/4 − φ.
    let angle = |m: usize| (m as f64) * (std::f64::consts::TAU / n as f64);
    let (c, s) = if octant.is_multiple_of(2) {
        let (s, c) = angle(r).sin_cos();
        (c, s)
    } else {
        // 2π(eighth − r)/n is the complement; cos φ = sin(π/4 − φ'), etc.
        let (s, c) = angle(eighth - r).sin_cos();
        (s, c)
    };
    // (c, s) = (cos φ, sin φ) for φ = 2π(j mod (n/4))/n within its quarter when the octant
    // is even, and of the complementary angle otherwise; rotate by the quarter.
    let (cos, sin) = match octant / 2 {
        0 => (c, s),
        1 => (-s, c),
        2 => (-c, -s),
        _ => (s, -c),
    };
    Complex::new(cos, -sin)
}

/// In-place forward transform `X_k = Σ_j x_j e^{−2πijk/N}` (or, with `inverse`, the
/// unscaled inverse `Σ_j x_j e^{+2πijk/N}`), N = the table's length.
pub(super) fn fft(data: &mut [Complex], twiddles: &Twiddles, inverse: bool) {
    let n = data.len();
    assert_eq!(n, twiddles.len(), "transform length must match the table");
    if n <= 1 {
        return;
    }
    // Bit-reversal permutation (exact).
    let levels = twiddles.levels();
    for i in 0..n {
        let r = i.reverse_bits() >> (usize::BITS - levels);
        if i < r {
            data.swap(i, r);
        }
    }
    let twiddle = |j: usize| {
        let w = twiddles.half[j];
        if inverse { w.conj() } else { w }
    };
    let mut half = 1;
    if levels % 2 == 1 {
        // One single stage first, so that the rest pair up.
        for start in (0..n).step_by(2) {
            let (a, b) = (data[start], data[start + 1]);
            data[start] = a.add(b);
            data[start + 1] = a.sub(b);
        }
        half = 2;
    }
    // Two stages per pass over the data (the same operations in the same order as two
    // separate radix-2 passes, so the error analysis is unchanged; half the memory traffic).
    while half < n {
        let (stride1, stride2) = (n / (2 * half), n / (4 * half));
        for start in (0..n).step_by(4 * half) {
            for k in 0..half {
                let w1 = twiddle(k * stride1);
                let (i0, i1, i2, i3) = (
                    start + k,
                    start + k + half,
                    start + k + 2 * half,
                    start + k + 3 * half,
                );
                let (a0, a1, a2, a3) = (data[i0], data[i1].mul(w1), data[i2], data[i3].mul(w1));
                let (b0, b1, b2, b3) = (a0.add(a1), a0.sub(a1), a2.add(a3), a2.sub(a3));
                let c2 = b2.mul(twiddle(k * stride2));
                let c3 = b3.mul(twiddle((k + half) * stride2));
                data[i0] = b0.add(c2);
                data[i2] = b0.sub(c2);
                data[i1] = b1.add(c3);
                data[i3] = b1.sub(c3);
            }
        }
        half *= 4;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use astro_float::{BigFloat, Consts, RoundingMode};

    const BITS: usize = 256;
    const RM: RoundingMode = RoundingMode::ToEven;

    fn big(x: f64) -> BigFloat {
        BigFloat::from_f64(x, BITS)
    }

    /// Whether |(re, im) − (exact_re, exact_im)| ≤ bound, in 256-bit arithmetic.
    fn within(re: f64, im: f64, exact_re: &BigFloat, exact_im: &BigFloat, bound: f64) -> bool {
        let dr = big(re).sub(exact_re, BITS, RM);
        let di = big(im).sub(exact_im, BITS, RM);
        let sq = dr.mul(&dr, BITS, RM).add(&di.mul(&di, BITS, RM), BITS, RM);
        sq <= big(bound).mul(&big(bound), BITS, RM)
    }

    /// Whether the table's `e^{−2πij/n}` is within `bound` of a 256-bit reference.
    fn twiddle_within(j: usize, n: usize, bound: f64, cc: &mut Consts) -> bool {
        let w = root(j, n);
        let angle = cc
            .pi(BITS, RM)
            .mul(&BigFloat::from_u64(2 * j as u64, BITS), BITS, RM)
            .div(&BigFloat::from_u64(n as u64, BITS), BITS, RM);
        let cos = angle.cos(BITS, RM, cc);
        let sin = angle.sin(BITS, RM, cc).neg();
        within(w.re, w.im, &cos, &sin, bound)
    }

    #[test]
    fn twiddles_are_within_their_stated_error() {
        let mut cc = Consts::new().expect("constants");
        for levels in [0u32, 1, 2, 3, 4, 10] {
            let n = 1usize << levels;
            for j in 0..n {
                assert!(
                    twiddle_within(j, n, 0.85 * TWIDDLE_ERROR, &mut cc),
                    "{j}/{n}"
                );
            }
        }
        // A sample of a large table (2^22 entries), spread over every octant.
        let n = 1usize << 22;
        for i in 0..1500usize {
            let j = (i * 2_097_143 + 17) % n;
            assert!(
                twiddle_within(j, n, 0.85 * TWIDDLE_ERROR, &mut cc),
                "{j}/{n}"
            );
        }
        // Negative control: a table built from the unreduced angle 2πj/n is less accurate
        // than a bound of 10⁻¹⁷ somewhere, so the check above is not vacuous.
        let t = Twiddles::new(5);
        for j in 0..64u64 {
            assert_eq!(t.at(j), root((j % 32) as usize, 32));
        }
        let sloppy = (1..1024).any(|j| {
            let (s, c) = (std::f64::consts::TAU * j as f64 / 1024.0).sin_cos();
            let angle = cc
                .pi(BITS, RM)
                .mul(&BigFloat::from_u64(2 * j as u64, BITS), BITS, RM)
                .div(&BigFloat::from_u64(1024, BITS), BITS, RM);
            let (cos, sin) = (angle.cos(BITS, RM, &mut cc), angle.sin(BITS, RM, &mut cc));
            !within(c, -s, &cos, &sin.neg(), 1e-17)
        });
        assert!(sloppy);
    }

    /// The transform against a 256-bit O(N²) reference, within the stated bound, and the
    /// inverse undoes the forward transform.
    #[test]
    fn transforms_are_within_the_stated_error() {
        let levels = 6;
        let n = 1usize << levels;
        let t = Twiddles::new(levels);
        let x: Vec<Complex> = (0..n)
            .map(|j| Complex::new(((j * 37) % 11) as f64 / 3.0, 0.0))
            .collect();
        let norm: f64 = x.iter().map(|c| c.re).sum();
        let mut y = x.clone();
        fft(&mut y, &t, false);
        let mut cc = Consts::new().expect("constants");
        let pi = cc.pi(BITS, RM);
        let bound = transform_error(levels) * norm;
        for (k, yk) in y.iter().enumerate().step_by(5) {
            let mut re = big(0.0);
            let mut im = big(0.0);
            for (j, xj) in x.iter().enumerate() {
                let angle = pi
                    .mul(&BigFloat::from_u64((2 * j * k) as u64, BITS), BITS, RM)
                    .div(&BigFloat::from_u64(n as u64, BITS), BITS, RM);
                let v = big(xj.re);
                re = re.add(&v.mul(&angle.cos(BITS, RM, &mut cc), BITS, RM), BITS, RM);
                im = im.sub(&v.mul(&angle.sin(BITS, RM, &mut cc), BITS, RM), BITS, RM);
            }
            assert!(within(yk.re, yk.im, &re, &im, bound), "k = {k}");
        }
        fft(&mut y, &t, true);
        for (a, b) in y.iter().zip(&x) {
            assert!((a.re / n as f64 - b.re).abs() < 1e-14 && (a.im / n as f64).abs() < 1e-14);
        }
    }
}
