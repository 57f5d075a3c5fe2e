//! TreeLog's parameters, its guarantee (the composition of the module documentation), its
//! sample-size bound, and the sampler.

use rand::Rng;

use super::multiset::Multiset;
use crate::error::{Error, Result};
use crate::selection::{ChoosingMechanism, ExponentialMechanism, FLOAT_ERROR_BUDGET};
use privpac_accounting::{Privacy, Private};

/// The default base case: the exponential mechanism over at most `2^8` values.
pub const DEFAULT_BASE_BITS: u32 = 8;
/// Largest base accepted (the base case scores every value of its domain).
const MAX_BASE_BITS: u32 = 16;
/// Largest δ₀ the calibration uses.
const MAX_STEP_DELTA: f64 = 1e-3;

/// TreeLog's per-step parameters (module documentation, "The algorithm as implemented").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreeLogParameters {
    /// ε₀ of every step (path, choosing mechanism, exponential mechanisms).
    pub epsilon0: f64,
    /// δ₀ of the choosing mechanism and of the weak paths.
    pub delta0: f64,
    /// The trimming parameter t.
    pub trim: u64,
    /// The base case covers domains of at most `2^base_bits` values.
    pub base_bits: u32,
}

/// TreeLog for the interior point problem on `[0, 2^d)`, `1 ≤ d ≤ 64`, with a fixed
/// (public) sample size n.
///
/// # Privacy
/// (ε, δ)-differentially private for the replace-one relation on samples of size n: the
/// composition of the module documentation (Lemma 11 with explicit constants, group
/// privacy for replace-one), calibrated so that the guarantee is the target given to
/// [`TreeLog::new`]; see [`TreeLog::guarantee_of`].
///
/// # Utility
/// From [`TreeLog::min_sample_size`] points on, the output is an interior point of the
/// sample (at least one point `≤` it and one `≥` it) with probability at least
/// `1 − (2N + 1)δ₀` (Lemma 13 with explicit constants).
///
/// # Errors
/// Construction: [`Error::InvalidParameter`] for `d ∉ 1..=64` or a base outside `2..=16`,
/// [`Error::InvalidCount`] for n = 0, [`Error::InvalidDelta`] for δ = 0 when the domain
/// needs a recursive level. Running: [`Error::InvalidCount`] when the sample's size is not
/// n, [`Error::InvalidParameter`] for a point outside the domain.
///
/// # Example
/// ```
/// use privpac_mechanisms::{Privacy, TreeLog};
/// use rand::SeedableRng;
/// let privacy = Privacy::new(1.0, 1e-6)?;
/// let n = TreeLog::min_sample_size(privacy, 64, 0.05)?;
/// let treelog = TreeLog::new(privacy, 64, n)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let sample: Vec<u64> = (0..n).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
/// let y = treelog.run(&sample, &mut rng)?;
/// assert!(sample.iter().any(|&x| x <= y) && sample.iter().any(|&x| x >= y));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreeLog {
    privacy: Privacy,
    domain_bits: u32,
    n: u64,
    parameters: TreeLogParameters,
    path: ExponentialMechanism,
    choosing: Option<ChoosingMechanism>,
    selection: ExponentialMechanism,
}

/// Bits of the padded domain of levels `{0, …, d}`.
pub(crate) fn level_bits(d: u32) -> u32 {
    u64::BITS - u64::from(d).leading_zeros()
}

/// The number N of recursive levels above the base case, and the base case's bits.
pub(crate) fn recursion(domain_bits: u32, base_bits: u32) -> (u32, u32) {
    let (mut levels, mut d) = (0, domain_bits);
    while d > base_bits {
        d = level_bits(d);
        levels += 1;
    }
    (levels, d)
}

/// K = ⌈log_{3/2} n⌉ + 1, the bound on near-tie steps of a path.
fn near_ties(n: u64) -> f64 {
    ((n.max(1) as f64).ln() / 1.5f64.ln()).ceil() + 1.0
}

fn validate_shape(domain_bits: u32, n: u64, base_bits: u32) -> Result<()> {
    if !(1..=64).contains(&domain_bits) {
        return Err(Error::InvalidParameter {
            name: "domain bits d",
            range: "1..=64",
            value: f64::from(domain_bits),
        });
    }
    if !(2..=MAX_BASE_BITS).contains(&base_bits) {
        return Err(Error::InvalidParameter {
            name: "base bits",
            range: "2..=16",
            value: f64::from(base_bits),
        });
    }
    if n == 0 || n >= 1 << 62 {
        return Err(Error::InvalidCount {
            name: "sample size n",
            requirement: "in 1..2^62",
            value: n,
        });
    }
    Ok(())
}

impl TreeLog {
    /// TreeLog on `[0, 2^domain_bits)` for samples of size n, with the target guarantee
    /// `privacy` and the default base ([`DEFAULT_BASE_BITS`]).
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new(privacy: Privacy, domain_bits: u32, n: u64) -> Result<Self> {
        TreeLog::with_base_bits(privacy, domain_bits, n, DEFAULT_BASE_BITS)
    }

    /// As [`TreeLog::new`] with a chosen base `2^base_bits` (2 ≤ `base_bits` ≤ 16).
    ///
    /// # Errors
    /// See the type documentation; [`Error::InvalidParameter`] if the calibration cannot
    /// meet the target (ε too small for the floating-point budget).
    pub fn with_base_bits(
        privacy: Privacy,
        domain_bits: u32,
        n: u64,
        base_bits: u32,
    ) -> Result<Self> {
        validate_shape(domain_bits, n, base_bits)?;
        let (levels, _) = recursion(domain_bits, base_bits);
        let (epsilon, delta) = (privacy.epsilon(), privacy.delta());
        if levels == 0 {
            // The base case alone: the exponential mechanism at ε (replace-one, Δ = 1).
            let parameters = TreeLogParameters {
                epsilon0: epsilon,
                delta0: 0.0,
                trim: 0,
                base_bits,
            };
            return TreeLog::build(privacy, domain_bits, n, parameters);
        }
        if privacy.is_pure() {
            return Err(Error::InvalidDelta { value: 0.0 });
        }
        let per_level = near_ties(n) + 3.0;
        let epsilon0 = epsilon / (2.02 * (1.0 + f64::from(levels) * per_level));
        let cap = (epsilon0 / (4.0 * n as f64)).min(MAX_STEP_DELTA);
        let (_, delta_at_cap) = composed(epsilon0, cap, n, levels);
        let delta0 = if delta_at_cap <= delta {
            cap
        } else {
            cap * delta / delta_at_cap * (1.0 - 1e-9)
        };
        let trim = trim_for(epsilon0, delta0, n)?;
        let parameters = TreeLogParameters {
            epsilon0,
            delta0,
            trim,
            base_bits,
        };
        let (e, d) = composed(epsilon0, delta0, n, levels);
        if !(e <= epsilon && d <= delta) {
            return Err(Error::InvalidParameter {
                name: "epsilon (the calibration could not meet the target)",
                range: "large enough for the per-step budget",
                value: epsilon,
            });
        }
        TreeLog::build(privacy, domain_bits, n, parameters)
    }

    /// TreeLog with explicit per-step parameters (for audits and experiments); its
    /// guarantee is [`TreeLog::guarantee_of`] these parameters.
    ///
    /// # Errors
    /// As [`TreeLog::new`], and [`Error::InvalidParameter`] when `t < 3·ln(1/δ₀)/ε₀ + 1`
    /// or `e^{ε₀}δ₀ > 1/2` (the privacy proof needs both) or the guarantee is vacuous.
    pub fn from_parameters(
        parameters: TreeLogParameters,
        domain_bits: u32,
        n: u64,
    ) -> Result<Self> {
        validate_shape(domain_bits, n, parameters.base_bits)?;
        let (epsilon, delta) = TreeLog::guarantee_of(parameters, domain_bits, n)?;
        let (levels, _) = recursion(domain_bits, parameters.base_bits);
        if levels > 0 {
            let l = (1.0 / parameters.delta0).ln() / parameters.epsilon0;
            if !((parameters.trim as f64) >= 3.0 * l + 1.0
                && parameters.epsilon0.exp() * parameters.delta0 <= 0.5)
            {
                return Err(Error::InvalidParameter {
                    name: "trim t",
                    range: "at least 3 ln(1/δ₀)/ε₀ + 1, with e^ε₀ δ₀ ≤ 1/2",
                    value: parameters.trim as f64,
                });
            }
        }
        TreeLog::build(Privacy::new(epsilon, delta)?, domain_bits, n, parameters)
    }

    fn build(
        privacy: Privacy,
        domain_bits: u32,
        n: u64,
        parameters: TreeLogParameters,
    ) -> Result<Self> {
        let (levels, _) = recursion(domain_bits, parameters.base_bits);
        let epsilon0 = parameters.epsilon0;
        let choosing = if levels > 0 {
            Some(ChoosingMechanism::new(
                Privacy::new(epsilon0, parameters.delta0)?,
                1,
            )?)
        } else {
            None
        };
        Ok(TreeLog {
            privacy,
            domain_bits,
            n,
            parameters,
            path: ExponentialMechanism::new(Privacy::pure(2.0 * epsilon0)?, 1.0)?,
            choosing,
            selection: ExponentialMechanism::new(Privacy::pure(epsilon0)?, 1.0)?,
        })
    }

    /// The replace-one guarantee of TreeLog with these per-step parameters on samples of
    /// size n: `(2E_N, (1 + e^{E_N})Δ_N)` of the module documentation, or `(ε₀, 0)` when the
    /// domain is a base case.
    ///
    /// # Errors
    /// [`Error::InvalidEpsilon`] / [`Error::InvalidDelta`] for invalid ε₀, δ₀ (δ₀ must be
    /// in (0, 1) when N > 0), [`Error::InvalidParameter`] for the shape.
    pub fn guarantee_of(
        parameters: TreeLogParameters,
        domain_bits: u32,
        n: u64,
    ) -> Result<(f64, f64)> {
        validate_shape(domain_bits, n, parameters.base_bits)?;
        let epsilon0 = parameters.epsilon0;
        if !(epsilon0.is_finite() && epsilon0 > 0.0) {
            return Err(Error::InvalidEpsilon { value: epsilon0 });
        }
        let (levels, _) = recursion(domain_bits, parameters.base_bits);
        if levels == 0 {
            return Ok((epsilon0, 0.0));
        }
        let delta0 = parameters.delta0;
        if !(delta0 > 0.0 && delta0 < 1.0) {
            return Err(Error::InvalidDelta { value: delta0 });
        }
        Ok(composed(epsilon0, delta0, n, levels))
    }

    /// The smallest sample size from which the utility proof (module documentation) gives
    /// an interior point with probability at least `1 − β`, for the target `privacy` on
    /// `[0, 2^domain_bits)` with the default base.
    ///
    /// # Errors
    /// As [`TreeLog::new`]; [`Error::InvalidProbability`] unless `0 < β < 1`, or when
    /// `(2N + 1)δ₀ > β`.
    pub fn min_sample_size(privacy: Privacy, domain_bits: u32, beta: f64) -> Result<u64> {
        TreeLog::min_sample_size_with_base(privacy, domain_bits, DEFAULT_BASE_BITS, beta)
    }

    /// [`TreeLog::min_sample_size`] for a chosen base.
    ///
    /// # Errors
    /// As [`TreeLog::min_sample_size`].
    pub fn min_sample_size_with_base(
        privacy: Privacy,
        domain_bits: u32,
        base_bits: u32,
        beta: f64,
    ) -> Result<u64> {
        if !(beta > 0.0 && beta < 1.0) {
            return Err(Error::InvalidProbability {
                name: "beta",
                range: "(0, 1)",
                value: beta,
            });
        }
        let mut n = 2u64;
        for _ in 0..200 {
            let treelog = TreeLog::with_base_bits(privacy, domain_bits, n, base_bits)?;
            let need = treelog.sample_size_needed(beta)?;
            if need <= n {
                return Ok(n);
            }
            n = need;
        }
        Err(Error::InvalidCount {
            name: "sample size n (the fixed point did not converge)",
            requirement: "below 2^62",
            value: n,
        })
    }

    /// Whether the utility proof (module documentation) covers this instance's sample size
    /// at failure probability β.
    ///
    /// # Errors
    /// As [`TreeLog::min_sample_size`].
    pub fn utility_holds(&self, beta: f64) -> Result<bool> {
        if !(beta > 0.0 && beta < 1.0) {
            return Err(Error::InvalidProbability {
                name: "beta",
                range: "(0, 1)",
                value: beta,
            });
        }
        Ok(self.sample_size_needed(beta)? <= self.n)
    }

    /// The n the utility proof needs with this instance's parameters.
    fn sample_size_needed(&self, beta: f64) -> Result<u64> {
        let (levels, base) = recursion(self.domain_bits, self.parameters.base_bits);
        let epsilon0 = self.parameters.epsilon0;
        let base_values = 2f64.powi(base as i32);
        let need = if levels == 0 {
            // (n/2) − (2/ε)·ln(2^d/β) ≥ 1 (Lemma 4 at confidence β).
            2.0 * ((2.0 / epsilon0) * (base_values / beta).ln() + 1.0)
        } else {
            let delta0 = self.parameters.delta0;
            if (2.0 * f64::from(levels) + 1.0) * delta0 > beta {
                return Err(Error::InvalidProbability {
                    name: "beta (below the failure probability (2N + 1)δ₀)",
                    range: "(0, 1)",
                    value: beta,
                });
            }
            let tau = self.choosing_loss()?;
            3.0 * self.parameters.trim as f64 * f64::from(levels)
                + 2.0 * (tau + (2.0 / epsilon0) * (base_values / delta0).ln() + 1.0)
        };
        if !(need.is_finite() && need < (1u64 << 61) as f64) {
            return Err(Error::InvalidCount {
                name: "sample size n",
                requirement: "below 2^61",
                value: u64::MAX,
            });
        }
        Ok(need.ceil() as u64 + 1)
    }

    fn choosing_loss(&self) -> Result<f64> {
        match self.choosing {
            Some(choosing) => choosing.utility_loss(self.n, self.parameters.delta0),
            None => Ok(0.0),
        }
    }

    /// The per-step parameters.
    pub fn parameters(&self) -> TreeLogParameters {
        self.parameters
    }

    /// The number N of recursive levels above the base case.
    pub fn levels(&self) -> u32 {
        recursion(self.domain_bits, self.parameters.base_bits).0
    }

    /// The domain's bits d.
    pub fn domain_bits(&self) -> u32 {
        self.domain_bits
    }

    /// The sample size n the guarantee is calibrated for.
    pub fn sample_size(&self) -> u64 {
        self.n
    }

    /// Runs TreeLog on a sample of exactly n points of `[0, 2^d)`.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn run<R: Rng + ?Sized>(&self, sample: &[u64], rng: &mut R) -> Result<u64> {
        self.validate_sample(sample)?;
        self.solve(&Multiset::from_points(sample), self.domain_bits, rng)
    }

    pub(crate) fn validate_sample(&self, sample: &[u64]) -> Result<()> {
        if sample.len() as u64 != self.n {
            return Err(Error::InvalidCount {
                name: "sample size",
                requirement: "equal to the n given at construction",
                value: sample.len() as u64,
            });
        }
        if self.domain_bits < 64
            && let Some(&x) = sample.iter().find(|&&x| x >> self.domain_bits != 0)
        {
            return Err(Error::InvalidParameter {
                name: "point",
                range: "[0, 2^d)",
                value: x as f64,
            });
        }
        Ok(())
    }

    pub(crate) fn path_mechanism(&self) -> ExponentialMechanism {
        self.path
    }

    pub(crate) fn selection_mechanism(&self) -> ExponentialMechanism {
        self.selection
    }

    pub(crate) fn choosing_mechanism(&self) -> Result<ChoosingMechanism> {
        self.choosing.ok_or(Error::InvalidParameter {
            name: "recursive level without a choosing mechanism",
            range: "N > 0",
            value: 0.0,
        })
    }

    /// Step 5: the database of levels as runs, from the path's steps (level, weight of the
    /// other child) and its last level, for a sample of `len` points.
    pub(crate) fn levels_database(
        &self,
        len: u64,
        steps: &[(u32, u64)],
        last: u32,
        d: u32,
    ) -> Vec<(u64, u64)> {
        let target = len.saturating_sub(3 * self.parameters.trim);
        let mut counts = vec![0u64; d as usize + 1];
        let mut filled = 0u64;
        for &(step_level, other) in steps {
            if filled >= target {
                break;
            }
            let add = other.min(target - filled);
            counts[step_level as usize] += add;
            filled += add;
        }
        if filled < target {
            counts[last as usize] += target - filled;
        }
        (0..=u64::from(d))
            .filter(|&l| counts[l as usize] > 0)
            .map(|l| (l, counts[l as usize]))
            .collect()
    }

    fn solve<R: Rng + ?Sized>(&self, set: &Multiset, d: u32, rng: &mut R) -> Result<u64> {
        if d <= self.parameters.base_bits {
            let scores: Vec<i64> = (0..1u128 << d)
                .map(|y| set.interior_quality(y) as i64)
                .collect();
            return Ok(self.selection.select_integer(&scores, rng)? as u64);
        }
        let t = self.parameters.trim;
        let hat = set.trimmed(t);
        let weight = |level: u32, prefix: u128| {
            let shift = d - level;
            hat.count_between(prefix << shift, ((prefix + 1) << shift) - 1)
        };
        // Step 4: the path, as (level, weight of the other child) per step, and its end.
        let mut steps: Vec<(u32, u64)> = Vec::new();
        let (mut level, mut prefix) = (0u32, 0u128);
        loop {
            if level == d || weight(level, prefix) <= t {
                break;
            }
            let (w0, w1) = (
                weight(level + 1, 2 * prefix),
                weight(level + 1, 2 * prefix + 1),
            );
            let bit = if w0 == 0 {
                1
            } else if w1 == 0 {
                0
            } else {
                self.path.select_integer(&[w0 as i64, w1 as i64], rng)?
            };
            steps.push((level, if bit == 0 { w1 } else { w0 }));
            level += 1;
            prefix = 2 * prefix + bit as u128;
        }
        // Step 5: the database of levels.
        let runs = self.levels_database(set.len(), &steps, level, d);
        // Step 6: recursion on the levels.
        let chosen_level = self
            .solve(&Multiset::from_runs(&runs), level_bits(d), rng)?
            .min(u64::from(d)) as u32;
        // Step 7: the choosing mechanism over the positive nodes of that level.
        let nodes = hat.nodes_at(d, chosen_level);
        let weights: Vec<u64> = nodes.iter().map(|&(_, w)| w).collect();
        let choosing = self.choosing_mechanism()?;
        let (node_level, node) = match choosing.choose(&weights, rng)? {
            Some(index) => (chosen_level, nodes[index].0),
            None => (0, 0),
        };
        // Steps 8–9: four candidates, the final exponential mechanism on S.
        let candidates = candidates(d, node_level, node);
        let scores: Vec<i64> = candidates
            .iter()
            .map(|&y| set.interior_quality(y) as i64)
            .collect();
        let index = self.selection.select_integer(&scores, rng)?;
        Ok(candidates[index] as u64)
    }
}

/// Step 8: v_left, v_inner-left, v_inner-right, v_right of the node `prefix` at `level`.
pub(crate) fn candidates(d: u32, level: u32, prefix: u128) -> [u128; 4] {
    let shift = d - level;
    let left = prefix << shift;
    if shift == 0 {
        return [left; 4];
    }
    let half = 1u128 << (shift - 1);
    [left, left + half - 1, left + half, left + 2 * half - 1]
}

/// `(2E_N, (1 + e^{E_N})Δ_N)` of the module documentation.
fn composed(epsilon0: f64, delta0: f64, n: u64, levels: u32) -> (f64, f64) {
    let path = epsilon0 * (near_ties(n) + 1.0)
        + 130.0 * epsilon0.exp() * delta0
        + 260.0 * FLOAT_ERROR_BUDGET;
    let (mut e, mut big_delta) = (epsilon0, 0.0);
    for _ in 0..levels {
        big_delta = (n as f64 + 1.0) * delta0 + path.exp() * (big_delta + delta0);
        e += path + 2.0 * epsilon0;
    }
    (2.0 * e, (1.0 + e.exp()) * big_delta)
}

/// `t = max(3L + 1, τ + (2/ε₀)·ln(4/δ₀))` rounded up, plus one.
fn trim_for(epsilon0: f64, delta0: f64, n: u64) -> Result<u64> {
    let l = (1.0 / delta0).ln() / epsilon0;
    let choosing = ChoosingMechanism::new(Privacy::new(epsilon0, delta0)?, 1)?;
    let tau = choosing.utility_loss(n, delta0)?;
    let t = (3.0 * l + 1.0).max(tau + (2.0 / epsilon0) * (4.0 / delta0).ln());
    if !(t.is_finite() && t < (1u64 << 60) as f64) {
        return Err(Error::UnrepresentableScale { value: t });
    }
    Ok(t.ceil() as u64 + 1)
}

impl Private for TreeLog {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
