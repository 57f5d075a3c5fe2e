//! The direct sum (Bun–Nissim–Stemmer 2016, Observation 3.2): a single-concept learner
//! run once per label column, with the k runs composed.

use privpac_accounting::{
    CompositionRule, Guarantee, MAX_BOUNDED_RANGE_COMPOSITIONS, MAX_OPTIMAL_COMPOSITIONS, Privacy,
    advanced_composition, bounded_range_composition, bounded_range_concentration_composition,
    bounded_range_concentration_step_epsilon, bounded_range_step_epsilon, optimal_composition,
    optimal_step_epsilon,
};
use privpac_classes::ConceptClass;
use privpac_learners::{Learner, Predictor};
use privpac_mechanisms::{MIN_EPSILON, exponential_mechanism_range};
use rand::Rng;

use crate::error::{Error, Result};
use crate::learner::MultiLearner;
use crate::sample::{MultiLabeledSample, check_columns_and_domain};

/// A factory that builds the single-concept learner for a per-column budget.
pub type LearnerFactory<'a> = dyn Fn(Privacy) -> privpac_learners::Result<Box<dyn Learner>> + 'a;

/// The direct sum: learner `A` run on `S|_1, …, S|_k` independently, `h_j = A(S|_j)`.
///
/// # Privacy
/// Observation 3.2 of Bun–Nissim–Stemmer 2016: the k runs each read the whole sample, so
/// if `A` is (ε₀, δ₀)-DP the k-tuple is, by Theorem 2.16 (composition),
/// * **basic**: `(k·ε₀, k·δ₀)`-DP (the only rule for pure DP), and
/// * **advanced**: `(√(2k ln(1/δ'))·ε₀ + 2k·ε₀², k·δ₀ + δ')`-DP for any δ' ∈ (0, 1) (for
///   ε₀ > 1 the always-valid Dwork–Roth form `√(2k ln(1/δ'))·ε₀ + k·ε₀(e^{ε₀} − 1)`), and
/// * **optimal**: `(ε', 1 − (1 − δ₀)^k(1 − δ'))`-DP with the smallest ε' that k-fold
///   randomized response allows (Kairouz–Oh–Viswanath Theorem 3.3,
///   [`privpac_accounting::optimal_composition`]), never worse than the two above.
///
/// * **bounded range**: when the inner learner is w-bounded-range
///   ([`Learner::bounded_range`], e.g. the exponential mechanism of
///   `privpac_learners::GenericLearner`), `(ε', δ')`-DP with ε' the optimal non-adaptive
///   composition of k w-BR mechanisms (Dong–Durfee–Rogers 2020,
///   [`privpac_accounting::bounded_range_composition`]): the k runs read the same sample
///   but none depends on another's output, so the composition is non-adaptive. Above
///   k = [`EXACT_BOUNDED_RANGE_MAX_K`] the closed-form bound
///   [`privpac_accounting::bounded_range_concentration_composition`] (an upper bound on the
///   exact one) is used, for speed.
///
/// [`MultiLearner::guarantee`] composes the inner learner's reported guarantee under the
/// rule the direct sum was built with (`CompositionRule::Best` reports the smallest ε), and,
/// for a direct sum built with a bounded-range slack ([`Self::with_bounded_range`]) over a
/// bounded-range inner learner, reports the smaller ε of that and the bounded-range one;
/// floating-point results are rounded up. A per-prediction ε composes to `k·ε` for one
/// query of the k-tuple per model (basic composition); uniform stability β to `min(1, kβ)`.
///
/// [`DirectSum::for_total`] takes the total (ε, δ) the user wants and solves for the
/// per-column budget under the best of the rules (bounded range for a bounded-range inner
/// learner; see there); it checks the composed
/// report against the total and refuses inner learners whose guarantee is neither DP nor
/// per-prediction DP.
///
/// # Sample complexity
/// With an (α, β/k)-accurate inner learner the union bound makes the k-tuple
/// (α, β)-accurate (Observation 3.2 states `kβ` for per-column β). With the generic
/// learner this is Corollary 3.4 (`O(k log|C| + k log k)` pure, `O(√k log|C| + √k log k)`
/// approximate), with parities Example 3.5 (`O(kd + k log k)`); see
/// [`crate::bounds::direct_sum_generic_sample_size`].
///
/// # Running time
/// k runs of the inner learner, plus O(n·k) to split the columns.
///
/// # Errors
/// Construction: [`Error::NoLabelColumns`] for k = 0, [`Error::BudgetTooSmall`],
/// [`Error::Learner`] from the factory. Learning: [`Error::LabelCountMismatch`] unless the
/// data has k columns, [`Error::DomainMismatch`], [`Error::Learner`] from the inner learner.
///
/// # Example
/// ```
/// use privpac_classes::{Domain, Points};
/// use privpac_accounting::Privacy;
/// use privpac_learners::{GenericLearner, Learner};
/// use privpac_multi::{DirectSum, MultiLabeledSample, MultiLearner};
/// use rand::SeedableRng;
///
/// let class = Points::new(Domain::ordered(64)?);
/// let points: Vec<u64> = (0..3000).map(|i| i % 8).collect();
/// let sample = MultiLabeledSample::label_with(&class, points, &[1, 2, 3, 5])?;
/// let learner = DirectSum::for_total(Privacy::pure(4.0)?, 4, 3000, &|per_column| {
///     Ok(Box::new(GenericLearner::new(per_column)?) as Box<dyn Learner>)
/// })?;
/// assert_eq!(learner.per_column().epsilon(), 1.0);
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let hypotheses = learner.learn(&class, &sample, &mut rng)?;
/// assert_eq!(hypotheses.len(), 4);
/// assert_eq!(learner.guarantee(3000, 4).epsilon(), Some(4.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// M. Bun, K. Nissim, U. Stemmer, "Simultaneous private learning of multiple concepts",
/// ITCS 2016 / JMLR 2019, Observation 3.2, Corollaries 3.3–3.4, Example 3.5.
#[derive(Debug)]
pub struct DirectSum {
    inner: Box<dyn Learner>,
    k: usize,
    rule: CompositionRule,
    per_column: Privacy,
    bounded_range: Option<f64>,
}

impl DirectSum {
    /// The direct sum of `inner` over k columns, composed under `rule`. `per_column` is
    /// what [`Self::per_column`] reports (the budget `inner` was built with); the reported
    /// guarantee always composes `inner`'s own [`Learner::guarantee`].
    ///
    /// # Errors
    /// [`Error::NoLabelColumns`] for k = 0; [`Error::InvalidParameter`] for a δ' outside
    /// (0, 1).
    pub fn new(
        inner: Box<dyn Learner>,
        k: usize,
        rule: CompositionRule,
        per_column: Privacy,
    ) -> Result<Self> {
        if k == 0 {
            return Err(Error::NoLabelColumns);
        }
        if let CompositionRule::Advanced { delta_prime }
        | CompositionRule::Optimal { delta_prime }
        | CompositionRule::Pld { delta_prime }
        | CompositionRule::Best { delta_prime } = rule
            && !(delta_prime > 0.0 && delta_prime < 1.0)
        {
            return Err(Error::InvalidParameter {
                name: "delta_prime",
                requirement: "in (0, 1)",
                value: delta_prime,
            });
        }
        Ok(DirectSum {
            inner,
            k,
            rule,
            per_column,
            bounded_range: None,
        })
    }

    /// The same direct sum, also composing a bounded-range inner learner's k runs by
    /// optimal non-adaptive bounded-range composition with slack δ' (`None`: off). Has no
    /// effect unless the inner learner reports [`Learner::bounded_range`] and a pure
    /// guarantee.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a δ' outside (0, 1).
    pub fn with_bounded_range(mut self, delta_prime: Option<f64>) -> Result<Self> {
        if let Some(d) = delta_prime
            && !(d > 0.0 && d < 1.0)
        {
            return Err(Error::InvalidParameter {
                name: "delta_prime",
                requirement: "in (0, 1)",
                value: d,
            });
        }
        self.bounded_range = delta_prime;
        Ok(self)
    }

    /// The bounded-range slack δ', if the direct sum composes bounded-range runs.
    pub fn bounded_range_delta(&self) -> Option<f64> {
        self.bounded_range
    }

    /// The direct sum whose k-tuple is `total`-DP (or, for a per-prediction inner learner,
    /// whose k predictions, one per model, are `total.epsilon()`-DP) on samples of
    /// `examples` examples: solves for the per-column budget and builds the inner learner
    /// with `factory(per_column)`.
    ///
    /// * Pure total (δ = 0): basic composition, `ε₀ = ε/k`.
    /// * Approximate total: the larger ε₀ of basic (`ε₀ = ε/k`, `δ₀ = δ/k`) and advanced
    ///   composition with `δ' = δ/2`, `δ₀ = δ/(2k)` and ε₀ the positive root of
    ///   `2k·ε₀² + √(2k ln(2/δ))·ε₀ = ε` (valid as solved for ε₀ ≤ 1; larger roots are
    ///   checked against the Dwork–Roth form and rejected if they exceed ε).
    ///
    /// ε₀ and δ₀ are then each lowered (by a relative 10⁻¹², at least one float, per step)
    /// until the composition, computed as [`MultiLearner::guarantee`] computes it and
    /// rounded up, is within `total` in both coordinates: `fl(δ/k)` may round up, and `k`
    /// times it, rounded up, would then exceed δ. A pure inner learner ignores δ₀.
    ///
    /// * Approximate total and an inner learner that reports itself w-bounded-range
    ///   ([`Learner::bounded_range`], with a pure guarantee): if larger, the per-column
    ///   ε₀ whose k runs, each `(ε₀ + 4η)`-BR as privpac's exponential mechanism at ε₀ is
    ///   (η = `privpac_mechanisms::FLOAT_ERROR_BUDGET`), compose non-adaptively to
    ///   `(ε, δ)` ([`split_budget_bounded_range`]); the inner learner is rebuilt at
    ///   `(ε₀, 0)` and the direct sum reports the bounded-range composition of the width
    ///   the rebuilt learner reports.
    ///
    /// The inner learner's own report at `examples` is then composed as
    /// [`MultiLearner::guarantee`] composes it and checked against `total`; while it does
    /// not fit, ε₀ and δ₀ are lowered by a relative 10⁻¹² and the learner rebuilt (at most
    /// 64 times). A per-prediction inner learner is split by basic composition,
    /// `ε₀ = ε/k` (its k predictions, one query per model, compose to `k·ε₀`; δ is unused).
    ///
    /// # Errors
    /// [`Error::NoLabelColumns`] for k = 0; [`Error::BudgetTooSmall`] if ε₀ would fall below
    /// [`MIN_EPSILON`], if no split fits (δ/k below the smallest positive float, far
    /// outside any meaningful δ), or if the composed report stays above `total`;
    /// [`Error::InnerNotPrivate`] for an inner learner whose guarantee is neither DP nor
    /// per-prediction DP (uniform stability, none); [`Error::Learner`] from the factory.
    pub fn for_total(
        total: Privacy,
        k: usize,
        examples: usize,
        factory: &LearnerFactory<'_>,
    ) -> Result<Self> {
        let (mut per_column, mut rule) = split_budget(total, k)?;
        let mut per_prediction_split = false;
        // None: not tried yet; Some(None): not a bounded-range split; Some(Some(δ')): one.
        let mut bounded: Option<Option<f64>> = None;
        let too_small = |reason| Error::BudgetTooSmall {
            epsilon: total.epsilon(),
            delta: total.delta(),
            k,
            reason,
        };
        for _ in 0..64 {
            let inner = factory(per_column)?;
            match inner.guarantee(examples) {
                Guarantee::DifferentialPrivacy(p) => {
                    let is_br = p.is_pure() && inner.bounded_range(examples).is_some();
                    match bounded {
                        None => {
                            bounded = Some(None);
                            if is_br
                                && !total.is_pure()
                                && let Ok(br) = split_budget_bounded_range(total, k)
                                && br.epsilon() > per_column.epsilon()
                            {
                                bounded = Some(Some(total.delta()));
                                per_column = br;
                                continue;
                            }
                        }
                        Some(Some(_)) if !is_br => {
                            // The rebuilt learner no longer claims a bounded range.
                            bounded = Some(None);
                            (per_column, rule) = split_budget(total, k)?;
                            continue;
                        }
                        Some(_) => {}
                    }
                }
                Guarantee::PerPrediction { .. } => {
                    // Per-prediction guarantees compose by basic composition only.
                    if !per_prediction_split {
                        per_prediction_split = true;
                        let (pure, basic) = split_budget(Privacy::pure(total.epsilon())?, k)?;
                        if (pure, basic) != (per_column, rule) {
                            (per_column, rule) = (pure, basic);
                            continue;
                        }
                    }
                }
                other => {
                    return Err(Error::InnerNotPrivate {
                        learner: inner.name(),
                        guarantee: other.to_string(),
                    });
                }
            }
            let learner = DirectSum::new(inner, k, rule, per_column)?
                .with_bounded_range(bounded.flatten())?;
            let fits = match learner.guarantee(examples, k) {
                Guarantee::DifferentialPrivacy(p) => {
                    p.epsilon() <= total.epsilon() && p.delta() <= total.delta()
                }
                Guarantee::PerPrediction { epsilon } => epsilon <= total.epsilon(),
                _ => false,
            };
            if fits {
                return Ok(learner);
            }
            per_column = Privacy::new(
                per_column.epsilon() * (1.0 - 1e-12),
                per_column.delta() * (1.0 - 1e-12),
            )?;
            if per_column.epsilon() < MIN_EPSILON {
                break;
            }
        }
        Err(too_small(
            "the inner learner's reported guarantee, composed over the k columns, does not fit the total",
        ))
    }

    /// The per-column budget the inner learner was built with.
    pub fn per_column(&self) -> Privacy {
        self.per_column
    }

    /// The composition rule.
    pub fn rule(&self) -> CompositionRule {
        self.rule
    }

    /// The number of columns k.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The inner single-concept learner.
    pub fn inner(&self) -> &dyn Learner {
        self.inner.as_ref()
    }
}

/// The largest k for which a bounded-range direct sum is composed (and split) by the exact
/// Dong–Durfee–Rogers formula ([`bounded_range_composition`]). Above it the closed-form
/// concentration bound ([`bounded_range_concentration_composition`]: `kε²/8 +
/// ε·√(k·ln(1/δ')/2)`, valid even adaptively, hence an upper bound on the exact one) is used
/// instead: the exact formula costs O(k) binomial tails per evaluation and a split evaluates
/// it a few hundred times, about a second at k = 1024. At k = 256 and 1024 with total
/// (1, 10⁻⁶) the closed form gives a per-column ε about 20% below the exact one, and still
/// above optimal composition of the canonical pairs.
pub const EXACT_BOUNDED_RANGE_MAX_K: usize = 64;

/// The composed guarantee of k `width`-bounded-range runs with slack δ' (non-adaptive: the
/// direct sum's columns): exact up to [`EXACT_BOUNDED_RANGE_MAX_K`], the closed-form bound
/// above it; rounded up either way.
fn bounded_range_total(
    width: f64,
    k: usize,
    delta_prime: f64,
) -> privpac_accounting::Result<Privacy> {
    if k <= EXACT_BOUNDED_RANGE_MAX_K {
        bounded_range_composition(width, k as u64, delta_prime)
    } else {
        bounded_range_concentration_composition(width, k as u64, delta_prime)
    }
}

/// The per-column budget of [`DirectSum::for_total`] for a bounded-range inner learner
/// (privpac's exponential mechanism): the largest pure ε₀ whose k runs, each
/// `(ε₀ + 4η)`-bounded-range ([`exponential_mechanism_range`]), compose non-adaptively
/// (Dong–Durfee–Rogers 2020, [`bounded_range_composition`]) with slack δ' = δ to at most
/// ε; validated by that composition (rounded up), lowered until it fits. The whole δ goes
/// to δ' (the runs are pure).
///
/// # Errors
/// [`Error::NoLabelColumns`] for k = 0; [`Error::BudgetTooSmall`] for a pure total, k above
/// `MAX_BOUNDED_RANGE_COMPOSITIONS`, or an ε₀ below [`MIN_EPSILON`].
pub fn split_budget_bounded_range(total: Privacy, k: usize) -> Result<Privacy> {
    if k == 0 {
        return Err(Error::NoLabelColumns);
    }
    let too_small = |reason| Error::BudgetTooSmall {
        epsilon: total.epsilon(),
        delta: total.delta(),
        k,
        reason,
    };
    if total.is_pure() || k as u64 > MAX_BOUNDED_RANGE_COMPOSITIONS {
        return Err(too_small(
            "no bounded-range split (pure total, or k above the bounded-range limit)",
        ));
    }
    let width = if k <= EXACT_BOUNDED_RANGE_MAX_K {
        bounded_range_step_epsilon(total.epsilon(), k as u64, total.delta())?
    } else {
        bounded_range_concentration_step_epsilon(total.epsilon(), k as u64, total.delta())?
    };
    let mut epsilon = width - 4.0 * privpac_mechanisms::FLOAT_ERROR_BUDGET;
    for step in 0..160 {
        if epsilon.is_nan() || epsilon < MIN_EPSILON {
            break;
        }
        let composed = bounded_range_total(exponential_mechanism_range(epsilon), k, total.delta())?;
        if composed.epsilon() <= total.epsilon() && composed.delta() <= total.delta() {
            return Ok(Privacy::pure(epsilon)?);
        }
        epsilon = if step < 32 {
            epsilon.next_down()
        } else {
            (epsilon * (1.0 - 1e-12)).min(epsilon.next_down())
        };
    }
    Err(too_small("the per-column epsilon would be below 1e-9"))
}

/// The per-column budget and rule of [`DirectSum::for_total`].
///
/// # Errors
/// As for [`DirectSum::for_total`] (without the factory's).
pub fn split_budget(total: Privacy, k: usize) -> Result<(Privacy, CompositionRule)> {
    split_budget_among(total, k, &|_| true)
}

/// [`split_budget`] restricted to the rules `allowed` accepts (for comparisons: the
/// advanced-composition split of earlier releases is `|rule| !matches!(rule,
/// CompositionRule::Optimal { .. })`).
///
/// # Errors
/// As for [`split_budget`], and [`Error::BudgetTooSmall`] when no allowed rule fits.
pub fn split_budget_among(
    total: Privacy,
    k: usize,
    allowed: &dyn Fn(&CompositionRule) -> bool,
) -> Result<(Privacy, CompositionRule)> {
    if k == 0 {
        return Err(Error::NoLabelColumns);
    }
    let too_small = |reason| Error::BudgetTooSmall {
        epsilon: total.epsilon(),
        delta: total.delta(),
        k,
        reason,
    };
    let kf = k as f64;
    let basic = Privacy::new(total.epsilon() / kf, total.delta() / kf);
    let mut candidates: Vec<(Privacy, CompositionRule)> = Vec::new();
    if let Ok(p) = basic
        && (total.is_pure() || p.delta() > 0.0)
    {
        candidates.push((p, CompositionRule::Basic));
    }
    if !total.is_pure() {
        let delta_prime = total.delta() / 2.0;
        let delta0 = total.delta() / (2.0 * kf);
        let a = (2.0 * kf * (1.0 / delta_prime).ln()).sqrt();
        let root = (-a + (a * a + 8.0 * kf * total.epsilon()).sqrt()) / (4.0 * kf);
        if delta0 > 0.0
            && let Ok(p) = Privacy::new(root, delta0)
        {
            candidates.push((p, CompositionRule::Advanced { delta_prime }));
        }
        // Optimal composition: the same halves of δ, with a relative 10⁻⁵ of headroom for
        // the rounding margin of the exact region; ε₀ the largest step that fits.
        let delta0 = total.delta() * (1.0 - 1e-5) / (2.0 * kf);
        if delta0 > 0.0
            && k as u64 <= MAX_OPTIMAL_COMPOSITIONS
            && let Ok(step) = optimal_step_epsilon(total.epsilon(), k as u64, delta0, delta_prime)
            && let Ok(p) = Privacy::new(step, delta0)
        {
            candidates.push((p, CompositionRule::Optimal { delta_prime }));
        }
    }
    let mut best: Option<(Privacy, CompositionRule)> = None;
    for (candidate, rule) in candidates.into_iter().filter(|(_, rule)| allowed(rule)) {
        let Some(fitted) = fit(candidate, rule, total, k) else {
            continue;
        };
        if best.is_none_or(|(b, _)| fitted.epsilon() > b.epsilon()) {
            best = Some((fitted, rule));
        }
    }
    let (per_column, rule) = best.ok_or_else(|| {
        too_small(if total.is_pure() {
            "epsilon / k is not a valid epsilon"
        } else {
            "no per-column split composes to within the total"
        })
    })?;
    if per_column.epsilon() < MIN_EPSILON {
        return Err(too_small("the per-column epsilon would be below 1e-9"));
    }
    Ok((per_column, rule))
}

/// Lowers ε₀ and δ₀, each while its composed coordinate exceeds `total`'s, until the
/// composition under `rule` fits `total`; None if it never does.
fn fit(candidate: Privacy, rule: CompositionRule, total: Privacy, k: usize) -> Option<Privacy> {
    // One float at a time first (the excess is usually a rounding of a few ulps), then
    // relative steps of 10⁻¹² for the larger excess of an inexact closed-form root.
    let (mut epsilon, mut delta) = (candidate.epsilon(), candidate.delta());
    for step in 0..160 {
        let shrink = |x: f64| {
            let next = if step < 32 {
                x.next_down()
            } else {
                (x * (1.0 - 1e-12)).min(x.next_down())
            };
            next.max(0.0)
        };
        let p = Privacy::new(epsilon, delta).ok()?;
        let composed = compose_privacy(p, k, rule).ok()?;
        let epsilon_fits = composed.epsilon() <= total.epsilon();
        let delta_fits = composed.delta() <= total.delta();
        if epsilon_fits && delta_fits {
            return Some(p);
        }
        if !epsilon_fits {
            epsilon = shrink(epsilon);
        }
        if !delta_fits {
            delta = shrink(delta);
            if delta == 0.0 {
                return None;
            }
        }
    }
    None
}

/// `k·x` rounded up (never below the exact product).
fn mul_up_by(x: f64, k: usize) -> f64 {
    privpac_accounting::rounding::mul_up(x, k as f64)
}

/// Composes k runs of a `per_run`-DP mechanism under `rule` (rounded up).
///
/// # Errors
/// [`Error::Accounting`] for a vacuous composition (δ ≥ 1) or an invalid δ'.
pub fn compose_privacy(per_run: Privacy, k: usize, rule: CompositionRule) -> Result<Privacy> {
    let basic = || -> Result<Privacy> {
        let delta = mul_up_by(per_run.delta(), k);
        if delta >= 1.0 {
            return Err(privpac_accounting::Error::VacuousGuarantee {
                reason: "basic composition gives delta >= 1",
            }
            .into());
        }
        Ok(Privacy::new(mul_up_by(per_run.epsilon(), k), delta)?)
    };
    match rule {
        CompositionRule::Basic => basic(),
        CompositionRule::Advanced { delta_prime } => {
            Ok(advanced_composition(per_run, k as u64, delta_prime)?)
        }
        CompositionRule::Optimal { delta_prime } => {
            Ok(optimal_composition(per_run, k as u64, delta_prime)?)
        }
        CompositionRule::Pld { delta_prime } => Ok(privpac_accounting::pld_composition(
            &vec![per_run; k],
            delta_prime,
            privpac_accounting::PLD_INTERVAL,
        )?),
        CompositionRule::Best { delta_prime } => {
            let candidates = [
                basic(),
                advanced_composition(per_run, k as u64, delta_prime).map_err(Into::into),
                optimal_composition(per_run, k as u64, delta_prime).map_err(Into::into),
            ];
            let mut best: Option<Privacy> = None;
            let mut first_error = None;
            for candidate in candidates {
                match candidate {
                    Ok(p) if best.is_none_or(|b| p.epsilon() < b.epsilon()) => best = Some(p),
                    Ok(_) => {}
                    Err(e) => {
                        first_error.get_or_insert(e);
                    }
                }
            }
            best.ok_or_else(|| first_error.unwrap_or(Error::NoLabelColumns))
        }
    }
}

impl MultiLearner for DirectSum {
    fn learn(
        &self,
        class: &dyn ConceptClass,
        sample: &MultiLabeledSample,
        rng: &mut dyn Rng,
    ) -> Result<Vec<Predictor>> {
        check_columns_and_domain(class, sample, self.k)?;
        (0..self.k)
            .map(|j| Ok(self.inner.learn(class, &sample.column(j)?, rng)?))
            .collect()
    }

    fn guarantee(&self, examples: usize, k: usize) -> Guarantee {
        match self.inner.guarantee(examples) {
            Guarantee::DifferentialPrivacy(p) => {
                let by_rule = compose_privacy(p, k, self.rule).ok();
                let by_range = match (self.bounded_range, self.inner.bounded_range(examples)) {
                    (Some(delta_prime), Some(width)) if p.is_pure() => {
                        bounded_range_total(width, k, delta_prime).ok()
                    }
                    _ => None,
                };
                [by_rule, by_range]
                    .into_iter()
                    .flatten()
                    .reduce(|a, b| if b.epsilon() < a.epsilon() { b } else { a })
                    .map_or(Guarantee::None, Guarantee::DifferentialPrivacy)
            }
            Guarantee::PerPrediction { epsilon } => {
                Guarantee::per_prediction(mul_up_by(epsilon, k)).unwrap_or(Guarantee::None)
            }
            Guarantee::UniformStability { beta } => {
                Guarantee::uniform_stability(mul_up_by(beta, k).min(1.0)).unwrap_or(Guarantee::None)
            }
            _ => Guarantee::None,
        }
    }

    fn name(&self) -> String {
        format!("direct-sum({})", self.inner.name())
    }

    fn column_split(&self) -> Option<(Privacy, &'static str)> {
        let rule = if self.bounded_range.is_some() {
            "bounded-range"
        } else {
            self.rule.name()
        };
        Some((self.per_column, rule))
    }
}
