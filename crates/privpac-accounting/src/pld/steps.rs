//! Mechanism runs as the PLD accountant sees them: dominating pairs of (ε, δ) guarantees and
//! of the discrete Laplace mechanism, their Poisson-subsampled pairs, and the composition of
//! a list of such steps in both directions of the add/remove relation.
//!
//! *Subsampling.* Run a mechanism with dominating pair (P, Q) (P the output distribution
//! with the extra row) on a Poisson subsample that keeps each row with probability q. For
//! neighbours that differ by removing a row the pair `(qP + (1 − q)Q, Q)` dominates the
//! subsampled mechanism, and for adding a row, `(Q, qP + (1 − q)Q)` (Zhu, Dong and Wang,
//! "Optimal accounting of differential privacy via characteristic function", AISTATS 2022;
//! the same pairs are documented in Google's `dp_accounting` for its subsampled
//! mechanisms). The two directions have different loss distributions, so a list with a
//! subsampled step is composed twice, once per direction, and reports the larger δ(ε) (every
//! step of one adaptive run sees the same ordered pair of datasets).
//!
//! With the base loss `L = ln(P/Q)` of an outcome group, the subsampled losses are
//! `ln(1 + q(e^L − 1))` (removal, probability `qP + (1 − q)Q`) and `−ln(1 + q(e^L − 1))`
//! (addition, probability `Q`); a group with `Q = 0` keeps loss +∞ with probability `qP`
//! under removal, and a group with `P = 0` gets the finite loss `ln(1 − q)` and `−ln(1 − q)`.

use crate::error::{Error, Result};
use crate::pld::PrivacyLossDistribution;
use crate::privacy::Privacy;
use crate::rounding::{div_up, to_f64_up};
use crate::{Subsampling, amplification_by_subsampling};

/// What a [`PldStep`] runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PldMechanism {
    /// Any (ε, δ)-DP mechanism, through the canonical pair that dominates all of them.
    Private(Privacy),
    /// An ε-bounded-range mechanism: at every pair of neighbouring inputs its privacy loss
    /// lies in an interval of width ε (Durfee and Rogers, NeurIPS 2019). The exponential
    /// mechanism at privacy ε is one (its loss is `ε(q(D, y) − q(D′, y))/(2Δ)` plus a
    /// constant, and the score difference spans at most 2Δ). See
    /// [`PldStep::bounded_range`] for the pair the accountant uses.
    BoundedRange {
        /// The range width ε.
        epsilon: f64,
    },
    /// The discrete Laplace mechanism with scale b on an integer query of sensitivity Δ.
    DiscreteLaplace {
        /// The scale b.
        scale: f64,
        /// The sensitivity Δ (1 to 2^20).
        sensitivity: u64,
    },
}

/// One mechanism run for [`pld_steps_composition`](crate::pld_steps_composition): a mechanism, possibly run on a Poisson
/// subsample.
///
/// # Example
/// ```
/// use privpac_accounting::{PldStep, Privacy, pld_steps_composition};
/// // 1000 runs of a 1-DP mechanism, each on a Poisson subsample of rate 1%.
/// let step = PldStep::private(Privacy::pure(1.0)?).poisson_subsampled(0.01)?;
/// let total = pld_steps_composition(&vec![step; 1000], 1e-6, 1e-4)?;
/// // Amplifying each step first (ε = ln(1 + 0.01(e − 1)) ≈ 0.017) and composing optimally
/// // gives 2.44; the subsampled pairs give 1.51.
/// assert!(total.epsilon() < 1.6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PldStep {
    mechanism: PldMechanism,
    /// Poisson sampling rate q ∈ (0, 1]; 1 when not subsampled.
    rate: f64,
}

impl PldStep {
    /// A run of an (ε, δ)-DP mechanism.
    pub fn private(privacy: Privacy) -> Self {
        PldStep {
            mechanism: PldMechanism::Private(privacy),
            rate: 1.0,
        }
    }

    /// A run of the discrete Laplace mechanism with scale b on a query of sensitivity Δ.
    ///
    /// # Errors
    /// [`Error::InvalidScale`] unless b is finite and positive; [`Error::InvalidSensitivity`]
    /// for Δ = 0; [`Error::InvalidParameter`] for Δ > 2^20.
    pub fn discrete_laplace(scale: f64, sensitivity: u64) -> Result<Self> {
        validate_discrete_laplace(scale, sensitivity)?;
        Ok(PldStep {
            mechanism: PldMechanism::DiscreteLaplace { scale, sensitivity },
            rate: 1.0,
        })
    }

    /// A run of an ε-bounded-range mechanism (ε-BR; for instance the exponential mechanism
    /// at privacy ε, whose `privpac_mechanisms::ExponentialMechanism::pld_step` builds this step).
    ///
    /// *The pair.* With `t` the largest loss at a given pair of inputs, the losses lie in
    /// `[t − ε, t]` with `0 ≤ t ≤ ε`. The hockey-stick divergence `E_Q[(e^L − α)₊]` is
    /// convex in `e^L`, and `E_Q[e^L] = 1`, so for each `t` it is largest for the two-point
    /// pair with losses `t` and `t − ε` (generalized randomized response, the reduction of
    /// Dong, Durfee and Rogers, ICML 2020). The largest over `t`, worked out here, is
    /// `H(α) = 1 − α` for `α ≤ e^{−ε}`, `(e^{ε/2} − √α)²/(e^ε − 1)` for `e^{−ε} ≤ α ≤ e^ε`
    /// (at `t = (ε + ln α)/2`) and 0 above: a convex curve, so it is the hockey-stick curve
    /// of a pair, whose loss under P has the density `e^{ε/2}e^{l/2}/(2(e^ε − 1))` on
    /// `[−ε, ε]` (the second derivative of H gives the law of `e^L` under Q). That pair
    /// dominates every ε-BR mechanism at every pair of inputs, in both orders (swapping
    /// exchanges `t` and `ε − t`), so it composes adaptively (Zhu, Dong and Wang). Its PLD is
    /// discretized pessimistically: each grid cell's P-mass goes to the cell's top loss, and
    /// Q gets the mass this removes at loss −∞ (which only raises every hockey stick).
    /// Against the canonical ε-DP pair (randomized response) its losses are spread over
    /// `[−ε, ε]` instead of sitting at ±ε: k steps compose to roughly half the ε.
    ///
    /// # Errors
    /// [`Error::InvalidEpsilon`] unless ε is finite and positive.
    pub fn bounded_range(epsilon: f64) -> Result<Self> {
        let epsilon = crate::privacy::validate_epsilon(epsilon)?;
        Ok(PldStep {
            mechanism: PldMechanism::BoundedRange { epsilon },
            rate: 1.0,
        })
    }

    /// The same run on a Poisson subsample of rate q (neighbours: add or remove one row).
    /// Subsampling a subsample multiplies the rates.
    ///
    /// # Errors
    /// [`Error::InvalidProbability`] for a rate outside (0, 1].
    pub fn poisson_subsampled(self, rate: f64) -> Result<Self> {
        if !(rate > 0.0 && rate <= 1.0) {
            return Err(Error::InvalidProbability {
                name: "sampling rate",
                range: "(0, 1]",
                value: rate,
            });
        }
        Ok(PldStep {
            rate: self.rate * rate,
            ..self
        })
    }

    /// The same run on the whole dataset (rate 1).
    pub(super) fn unsubsampled(self) -> Self {
        PldStep { rate: 1.0, ..self }
    }

    /// The mechanism.
    pub fn mechanism(&self) -> PldMechanism {
        self.mechanism
    }

    /// The Poisson sampling rate (1 when not subsampled).
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The step's own δ, the mass its pair puts at loss +∞ under removal: `q·δ` (0 for the
    /// discrete Laplace mechanism).
    pub fn own_delta(&self) -> f64 {
        match self.mechanism {
            PldMechanism::Private(privacy) => self.rate * privacy.delta(),
            PldMechanism::BoundedRange { .. } | PldMechanism::DiscreteLaplace { .. } => 0.0,
        }
    }

    /// The step's (ε, δ) guarantee on its own: the mechanism's (ε = Δ/b, rounded up, for
    /// the discrete Laplace mechanism), amplified by subsampling when the rate is below 1
    /// ([`amplification_by_subsampling`], Balle–Barthe–Gaboardi Theorem 8). This is what
    /// the composition rules other than the PLD see.
    ///
    /// # Errors
    /// [`Error::InvalidEpsilon`] if Δ/b is not a valid ε (above the largest supported).
    pub fn privacy(&self) -> Result<Privacy> {
        let base = match self.mechanism {
            PldMechanism::Private(privacy) => privacy,
            // The largest loss is at least 0 and the smallest at most 0, so a range of
            // width ε keeps |L| ≤ ε.
            PldMechanism::BoundedRange { epsilon } => Privacy::pure(epsilon)?,
            PldMechanism::DiscreteLaplace { scale, sensitivity } => {
                Privacy::pure(div_up(to_f64_up(sensitivity), scale))?
            }
        };
        if self.is_symmetric() {
            return Ok(base);
        }
        amplification_by_subsampling(base, Subsampling::Poisson { rate: self.rate })
    }

    pub(super) fn is_symmetric(&self) -> bool {
        self.rate == 1.0
    }

    /// The step's PLD for removal (`adding = false`) or addition of a row, discretized by
    /// rounding up on the grid (the direct representation the tests compare against).
    #[cfg(test)]
    fn pld(&self, adding: bool, interval: f64) -> Result<PrivacyLossDistribution> {
        let groups = self.groups(interval)?;
        let mut pld = if self.is_symmetric() {
            pld_of_groups(interval, &groups)?
        } else {
            let q = self.rate;
            let mut losses = Vec::new();
            let mut infinite = 0.0;
            for group in groups {
                match (group.loss, adding) {
                    (Loss::PlusInfinity, false) => infinite += q * group.p,
                    // Under addition the upper distribution is Q, which is 0 here.
                    (Loss::PlusInfinity, true) => {}
                    (Loss::MinusInfinity, false) => {
                        losses.push((pessimistic((-q).ln_1p()), (1.0 - q) * group.q))
                    }
                    (Loss::MinusInfinity, true) => {
                        losses.push((pessimistic(-(-q).ln_1p()), group.q))
                    }
                    (Loss::Finite(loss), false) => {
                        let mixed = mixed_loss(loss, q);
                        losses.push((pessimistic(mixed), q * group.p + (1.0 - q) * group.q));
                    }
                    (Loss::Finite(loss), true) => {
                        let mixed = -mixed_loss(loss, q);
                        losses.push((pessimistic(mixed), group.q));
                    }
                }
            }
            PrivacyLossDistribution::from_losses(interval, &losses, infinite)?
        };
        // Mixing and the bounded-range cells take a few more roundings than the closed-form
        // masses of the canonical and discrete Laplace pairs.
        if !self.is_symmetric() || matches!(self.mechanism, PldMechanism::BoundedRange { .. }) {
            pld.error += 16.0 * f64::EPSILON;
        }
        Ok(pld)
    }

    /// The outcome groups of the base pair (constant likelihood ratio in each); a
    /// bounded-range pair is discretized on the grid `interval`.
    pub(super) fn groups(&self, interval: f64) -> Result<Vec<Group>> {
        match self.mechanism {
            PldMechanism::BoundedRange { epsilon } => bounded_range_groups(epsilon, interval),
            PldMechanism::Private(privacy) => Ok(canonical_groups(privacy)),
            PldMechanism::DiscreteLaplace { scale, sensitivity } => {
                Ok(discrete_laplace_groups(scale, sensitivity))
            }
        }
    }
}

/// The PLD of a pair given by its groups (P's mass at each loss).
pub(super) fn pld_of_groups(interval: f64, groups: &[Group]) -> Result<PrivacyLossDistribution> {
    let mut losses = Vec::with_capacity(groups.len());
    let mut infinite = 0.0;
    for group in groups {
        match group.loss {
            Loss::Finite(loss) => losses.push((loss, group.p)),
            Loss::PlusInfinity => infinite += group.p,
            Loss::MinusInfinity => {}
        }
    }
    PrivacyLossDistribution::from_losses(interval, &losses, infinite)
}

/// The canonical pair that dominates every (ε, δ)-DP mechanism (randomized response for
/// δ = 0): loss +ε with probability `(1 − δ)e^ε/(1 + e^ε)`, −ε with probability
/// `(1 − δ)/(1 + e^ε)`, +∞ with probability δ (and −∞ with Q-probability δ).
pub(super) fn canonical_groups(privacy: Privacy) -> Vec<Group> {
    let (epsilon, delta) = (privacy.epsilon(), privacy.delta());
    let up = (1.0 - delta) / (1.0 + (-epsilon).exp());
    let down = (1.0 - delta) - up;
    vec![
        Group::new(Loss::PlusInfinity, delta, 0.0),
        Group::new(Loss::Finite(epsilon), up, down),
        Group::new(Loss::Finite(-epsilon), down, up),
        Group::new(Loss::MinusInfinity, 0.0, delta),
    ]
}

/// The discrete Laplace mechanism with scale b on a count of sensitivity Δ: P centred at 0,
/// Q at Δ, and the loss at y is `(|y − Δ| − |y|)/b`, constant for y ≤ 0 and for y ≥ Δ.
pub(super) fn discrete_laplace_groups(scale: f64, sensitivity: u64) -> Vec<Group> {
    let r = (-1.0 / scale).exp();
    let norm = (1.0 - r) / (1.0 + r);
    let d = sensitivity as i64;
    let top = d as f64 / scale;
    // Pr[Y ≤ 0] = norm/(1 − r) and Pr[Y ≥ Δ] = norm·r^Δ/(1 − r).
    let (near, far) = (norm / (1.0 - r), norm * r.powi(d as i32) / (1.0 - r));
    let mut groups = vec![
        Group::new(Loss::Finite(top), near, far),
        Group::new(Loss::Finite(-top), far, near),
    ];
    for y in 1..d {
        groups.push(Group::new(
            Loss::Finite((d - 2 * y) as f64 / scale),
            norm * r.powi(y as i32),
            norm * r.powi((d - y) as i32),
        ));
    }
    groups
}

/// A loss, possibly infinite.
#[derive(Debug, Clone, Copy)]
pub(super) enum Loss {
    PlusInfinity,
    MinusInfinity,
    Finite(f64),
}

/// Outcomes with one likelihood ratio: their loss and their masses under P and Q.
#[derive(Debug, Clone, Copy)]
pub(super) struct Group {
    pub(super) loss: Loss,
    pub(super) p: f64,
    pub(super) q: f64,
}

impl Group {
    fn new(loss: Loss, p: f64, q: f64) -> Self {
        Group { loss, p, q }
    }
}

/// The pessimistic discretization of the ε-BR envelope pair (see [`PldStep::bounded_range`]):
/// one group per grid cell `[b_{j−1}, b_j] ∩ [−ε, ε]` with `b_j = j·Δ`, carrying the cell's
/// P-mass at loss `b_j` and Q-mass `P·e^{−b_j}`, and one group at loss −∞ with the Q-mass
/// that this lowering removed (so Q still sums to 1). All masses are sums of non-negative
/// closed forms, with `2c = 1/(2 sinh(ε/2))`:
/// `P_j = 2c·e^{l/2}·expm1((u − l)/2)` over `[l, u]`, and the removed Q-mass
/// `2c·e^{−l/2}·expm1(−(u − l)/2)² + P_j·e^{−u}·(−expm1(−(b_j − u)))`.
fn bounded_range_groups(epsilon: f64, interval: f64) -> Result<Vec<Group>> {
    if !(interval > 0.0 && interval.is_finite()) {
        return Err(Error::InvalidParameter {
            name: "PLD discretization interval",
            range: "(0, ∞)",
            value: interval,
        });
    }
    let cells = 2.0 * epsilon / interval + 3.0;
    if !cells.is_finite() || cells >= super::MAX_PLD_CELLS as f64 {
        return Err(Error::InvalidCount {
            name: "PLD grid cells (loss range / interval)",
            requirement: "at most 2^22",
            value: if cells.is_finite() {
                cells as u64
            } else {
                u64::MAX
            },
        });
    }
    let boundary = |j: i64| j as f64 * interval;
    let mut low = (-epsilon / interval).ceil() as i64;
    while boundary(low) < -epsilon {
        low += 1;
    }
    let mut high = (epsilon / interval).ceil() as i64;
    while boundary(high) < epsilon {
        high += 1;
    }
    let two_c = 1.0 / (2.0 * (epsilon / 2.0).sinh());
    let mut groups = Vec::with_capacity((high - low + 2) as usize);
    let mut removed_q = 0.0;
    let mut lower = -epsilon;
    for j in low..=high {
        let top = boundary(j);
        let upper = top.min(epsilon);
        if upper > lower {
            let width = upper - lower;
            let p = two_c * (lower / 2.0).exp() * (width / 2.0).exp_m1();
            let q = p * (-top).exp();
            removed_q += two_c * (-lower / 2.0).exp() * (-width / 2.0).exp_m1().powi(2)
                + p * (-upper).exp() * (-(-(top - upper)).exp_m1());
            groups.push(Group::new(Loss::Finite(top), p, q));
        }
        lower = lower.max(upper);
    }
    groups.push(Group::new(Loss::MinusInfinity, 0.0, removed_q));
    Ok(groups)
}

/// `ln(1 + q(e^L − 1))`, the loss of the mixture `qP + (1 − q)Q` against Q:
/// `ln_1p(q·expm1(L))` up to L = 1 (a few ulps of the result), and
/// `L + ln(q + (1 − q)e^{−L})` above, where `e^L` could overflow (a few ulps of L, far more
/// than of a small result when q is small: the `pieces` module bounds the error).
pub(super) fn mixed_loss(loss: f64, q: f64) -> f64 {
    if loss <= 1.0 {
        (q * loss.exp_m1()).ln_1p()
    } else {
        loss + (q + (1.0 - q) * (-loss).exp()).ln()
    }
}

#[cfg(test)]
/// A computed loss nudged up past its rounding error (relative 10⁻¹², far above the few
/// ulps of `ln_1p(q·expm1(L))`), so that rounding it up to the grid never lands below the
/// exact loss's cell.
fn pessimistic(loss: f64) -> f64 {
    loss + loss.abs() * 1e-12 + f64::MIN_POSITIVE
}

pub(crate) fn validate_discrete_laplace(scale: f64, sensitivity: u64) -> Result<()> {
    if !(scale > 0.0 && scale.is_finite()) {
        return Err(Error::InvalidScale { value: scale });
    }
    if sensitivity == 0 {
        return Err(Error::InvalidSensitivity { value: 0.0 });
    }
    if sensitivity > 1 << 20 {
        return Err(Error::InvalidParameter {
            name: "discrete Laplace sensitivity in a PLD",
            range: "1 to 2^20",
            value: sensitivity as f64,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
