//! Multi-label scenarios and the empirical sample complexity of multi-learners as a
//! function of k (Bun–Nissim–Stemmer 2016, §3 and the §1.3 tables).
//!
//! A [`MultiScenario`] fixes a class, a distribution over points and k target concepts
//! (drawn from the class with a seed, or given), with optional independent label noise
//! per column (the agnostic setting). True errors are exact: sums over the distribution's
//! support, or, for the structured classes and distributions of [`crate::structured`]
//! (thresholds, points and intervals over an ordered domain, parities over the hypercube,
//! under the uniform, point-mass and Zipf distributions) over more than
//! [`MAX_LISTED_DOMAIN`] points, closed forms in time independent of |X|, with points drawn
//! without any table ([`MultiScenario::is_structured`]). [`MultiScenario::constant_baseline`]
//! says when the constant hypotheses already meet α, so that a k-curve reports such a
//! scenario as trivial instead of a meaningless sample complexity. [`run_multi_trials`] measures a multi-learner's success rate (every column
//! within α of the best concept) at one (k, n); [`empirical_multi_sample_complexity`]
//! searches n for one k; [`sample_complexity_curve`] does it for several k and fits
//! `log n = a + s·log k` ([`LogLogFit`], with a 95% confidence interval for the slope s).
//!
//! **Seeds.** Trial t at sample size n for k columns uses ChaCha8 seeded with a hash of
//! `(master seed, k, n)` on stream t ([`multi_trial_rng`]), so results depend neither on
//! the thread count nor on which other sizes the search tried.

use privpac_classes::{ConceptClass, Hypothesis, Point, check_concept};
use privpac_learners::Predictor;
use privpac_multi::{MultiLabeledSample, MultiLearner};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

use crate::distribution::ExampleDistribution;
use crate::error::{Error, Result};
use crate::limits::MAX_EXACT_DOMAIN;
use crate::limits::{MAX_SAMPLE_SIZE, MAX_TRIALS, check_count};
use crate::sample_complexity::{SampleComplexity, SearchConfig, search_observed};
use crate::scenario::{distribution_weights, uniform};
use crate::structured::Structure;
use crate::trials::{TrialOutcome, wilson_interval};

/// Domains up to this many points are listed (support table, exact sums); larger ones
/// use the closed forms of [`crate::structured`] when the class and distribution are
/// structured (and must be at most [`MAX_EXACT_DOMAIN`] otherwise). Listing is cheap at
/// this size and keeps the draws of small scenarios what they always were.
pub const MAX_LISTED_DOMAIN: u128 = 1 << 16;

/// The masses of [`MultiScenario::heavy_points`].
pub const HEAVY_MASSES: [f64; 5] = [0.4, 0.3, 0.2, 0.05, 0.05];

/// Most label columns k of a multi-label scenario (targets are stored; each sampled row
/// evaluates k concepts).
pub const MAX_COLUMNS: usize = 1 << 16;

/// The targets of a [`MultiScenario`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MultiTargets {
    /// k concept ids drawn uniformly from the class with ChaCha8 seeded with `seed`.
    Random {
        /// The number of targets k.
        k: usize,
        /// The seed.
        seed: u64,
    },
    /// These concept ids.
    Given {
        /// The targets.
        targets: Vec<u64>,
    },
}

/// A k-label learning problem: points from a distribution, column j labeled by target
/// `c_j` and flipped independently (across rows and columns) with probability η.
#[derive(Debug)]
pub struct MultiScenario {
    class: Box<dyn ConceptClass>,
    support: Vec<(Point, f64)>,
    cumulative: Vec<f64>,
    targets: Vec<u64>,
    label_noise: f64,
    /// Closed forms and table-free sampling (structured scenarios above
    /// [`MAX_LISTED_DOMAIN`]; `support` and `cumulative` are then empty).
    structure: Option<Structure>,
}

/// The best constant hypotheses of a scenario: per column the better of all-zeros and
/// all-ones, and the largest excess error over the columns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConstantBaseline {
    /// `all zeros`, `all ones`, or `all zeros or all ones (per column)`.
    pub hypothesis: String,
    /// The largest excess error over the columns of that choice (the multi-error).
    pub excess_error: f64,
}

impl MultiScenario {
    /// A scenario over the whole domain: listed when it has at most [`MAX_LISTED_DOMAIN`]
    /// points, in closed form above that for the structured classes and distributions,
    /// listed again (up to [`MAX_EXACT_DOMAIN`] points) for the others.
    ///
    /// # Errors
    /// [`Error::DomainTooLarge`] for an unstructured scenario above [`MAX_EXACT_DOMAIN`];
    /// the distribution's errors (as for [`crate::Scenario::new`]); as for
    /// [`Self::on_support`].
    pub fn new(
        class: Box<dyn ConceptClass>,
        distribution: &ExampleDistribution,
        targets: MultiTargets,
        label_noise: f64,
    ) -> Result<Self> {
        let size = class.domain().size();
        if size > MAX_LISTED_DOMAIN
            && let Some(structure) = Structure::recognize(class.as_ref(), distribution)
        {
            check_noise(label_noise)?;
            let targets = resolve_targets(class.as_ref(), targets)?;
            return Ok(MultiScenario {
                class,
                support: Vec::new(),
                cumulative: Vec::new(),
                targets,
                label_noise,
                structure: Some(structure),
            });
        }
        if size > MAX_EXACT_DOMAIN {
            return Err(Error::DomainTooLarge {
                size,
                limit: MAX_EXACT_DOMAIN,
            });
        }
        let domain = class.domain();
        let points: Vec<Point> = (0..size as u64)
            .map(|i| domain.point_at(i).unwrap_or(i))
            .collect();
        let weights = distribution_weights(distribution, &points)?;
        let support = points.into_iter().zip(weights).collect();
        Self::on_support(class, support, targets, label_noise)
    }

    /// A scenario whose distribution is given by its support: `(point, weight)` pairs
    /// (normalized here), for domains too large to list.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for an empty support, a negative or non-finite weight,
    /// a zero total, or label noise outside [0, 1/2); [`Error::TooLarge`] for more than
    /// [`MAX_COLUMNS`] targets (checked before they are drawn); [`Error::Multi`] for zero
    /// targets; [`Error::Class`] for a point outside the domain or a target outside the
    /// class.
    pub fn on_support(
        class: Box<dyn ConceptClass>,
        support: Vec<(Point, f64)>,
        targets: MultiTargets,
        label_noise: f64,
    ) -> Result<Self> {
        check_noise(label_noise)?;
        let targets = resolve_targets(class.as_ref(), targets)?;
        if support.is_empty() {
            return Err(Error::InvalidParameter {
                name: "support size",
                requirement: "at least 1",
                value: 0.0,
            });
        }
        for &(x, w) in &support {
            class.domain().check(x)?;
            if !(w.is_finite() && w >= 0.0) {
                return Err(Error::InvalidParameter {
                    name: "weight",
                    requirement: "finite and ≥ 0",
                    value: w,
                });
            }
        }
        let total: f64 = support.iter().map(|&(_, w)| w).sum();
        if !(total > 0.0 && total.is_finite()) {
            return Err(Error::InvalidParameter {
                name: "total weight",
                requirement: "positive and finite",
                value: total,
            });
        }
        let support: Vec<(Point, f64)> = support.into_iter().map(|(x, w)| (x, w / total)).collect();
        let mut running = 0.0;
        let cumulative = support
            .iter()
            .map(|&(_, p)| {
                running += p;
                running
            })
            .collect();
        Ok(MultiScenario {
            class,
            support,
            cumulative,
            targets,
            label_noise,
            structure: None,
        })
    }

    /// The default scenario for point functions with k targets: five points of the domain
    /// (fewer on a smaller domain) drawn with `seed`, with masses 0.4, 0.3, 0.2, 0.05, 0.05
    /// (renormalized if fewer), and target j the point function of point `j mod 5`: every
    /// column has positive mass on its target, so the constant hypotheses do not solve it
    /// for α below 0.4 (under the uniform distribution on a large domain they do). The
    /// support is listed, so everything takes time independent of |X|.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless the class is a `points` class; as for
    /// [`Self::on_support`].
    pub fn heavy_points(
        class: Box<dyn ConceptClass>,
        k: usize,
        seed: u64,
        label_noise: f64,
    ) -> Result<Self> {
        if !class.name().starts_with("points") {
            return Err(Error::InvalidParameter {
                name: "class of the heavy-point scenario",
                requirement: "a points class (point functions)",
                value: f64::NAN,
            });
        }
        check_count("k (targets)", k, MAX_COLUMNS)?;
        let len = u64::try_from(class.len()).unwrap_or(u64::MAX);
        let count = len.min(HEAVY_MASSES.len() as u64) as usize;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut ids: Vec<u64> = Vec::with_capacity(count);
        while ids.len() < count {
            let id = rng.random_range(0..len);
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        let domain = class.domain();
        let support = ids
            .iter()
            .zip(HEAVY_MASSES)
            .map(|(&id, mass)| (domain.point_at(id).unwrap_or(id), mass))
            .collect();
        let targets = (0..k).map(|j| ids[j % count]).collect();
        Self::on_support(class, support, MultiTargets::Given { targets }, label_noise)
    }

    /// Whether true errors and sampling take time independent of |X| (a structured class
    /// and distribution over more than [`MAX_LISTED_DOMAIN`] points).
    pub fn is_structured(&self) -> bool {
        self.structure.is_some()
    }

    /// The class.
    pub fn class(&self) -> &dyn ConceptClass {
        self.class.as_ref()
    }

    /// The targets `c_1, …, c_k`.
    pub fn targets(&self) -> &[u64] {
        &self.targets
    }

    /// k.
    pub fn k(&self) -> usize {
        self.targets.len()
    }

    /// The per-column label noise η.
    pub fn label_noise(&self) -> f64 {
        self.label_noise
    }

    /// The distribution's support with probabilities (empty for a structured scenario,
    /// whose distribution is never listed).
    pub fn support(&self) -> &[(Point, f64)] {
        &self.support
    }

    /// Draws n rows `(x, y_1, …, y_k)`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] above [`MAX_SAMPLE_SIZE`]; [`Error::Multi`] from the sample's
    /// constructor.
    pub fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Result<MultiLabeledSample> {
        check_count("sample size", n, MAX_SAMPLE_SIZE)?;
        if let Some(structure) = &self.structure {
            return self.sample_structured(structure, n, rng);
        }
        if self.label_noise == 0.0 && self.support.len() <= n {
            self.sample_clean(n, rng)
        } else {
            self.sample_general(n, rng)
        }
    }

    /// [`Self::sample`] for a structured scenario: each point drawn by the distribution's
    /// table-free sampler, each label evaluated and (with noise) flipped with probability η,
    /// packed straight into the bit matrix.
    fn sample_structured<R: Rng + ?Sized>(
        &self,
        structure: &Structure,
        n: usize,
        rng: &mut R,
    ) -> Result<MultiLabeledSample> {
        let words_per_column = n.div_ceil(64).max(1);
        let mut words = vec![0u64; self.k() * words_per_column];
        let mut points = Vec::with_capacity(n);
        for i in 0..n {
            let x = structure.sample_point(rng);
            points.push(x);
            for (j, &target) in self.targets.iter().enumerate() {
                let noisy = self.label_noise > 0.0 && uniform(rng) < self.label_noise;
                if self.class.eval(target, x) ^ noisy {
                    words[j * words_per_column + i / 64] |= 1 << (i % 64);
                }
            }
        }
        Ok(MultiLabeledSample::from_bit_columns(
            self.class.domain(),
            points,
            self.k(),
            words,
        )?)
    }

    /// [`Self::sample`] in general: row by row, each label evaluated (or looked up) and
    /// flipped with probability η.
    fn sample_general<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Result<MultiLabeledSample> {
        let last = self.support.len() - 1;
        let total = self.cumulative.last().copied().unwrap_or(1.0);
        let mut points = Vec::with_capacity(n);
        let mut columns = vec![Vec::with_capacity(n); self.k()];
        // The clean labels of every support point under every target, evaluated once when
        // the support is no larger than the sample (then the table costs no more than the
        // n·k evaluations it saves); the random draws are the same either way.
        let table: Option<Vec<Vec<bool>>> = (self.support.len() <= n).then(|| {
            self.support
                .iter()
                .map(|&(x, _)| {
                    self.targets
                        .iter()
                        .map(|&target| self.class.eval(target, x))
                        .collect()
                })
                .collect()
        });
        for _ in 0..n {
            let u = uniform(rng) * total;
            let index = self.cumulative.partition_point(|&c| c <= u).min(last);
            let x = self.support[index].0;
            points.push(x);
            let row = table.as_ref().and_then(|table| table.get(index));
            for (j, (column, &target)) in columns.iter_mut().zip(&self.targets).enumerate() {
                let noisy = self.label_noise > 0.0 && uniform(rng) < self.label_noise;
                let clean = match row {
                    Some(labels) => labels[j],
                    None => self.class.eval(target, x),
                };
                column.push(clean ^ noisy);
            }
        }
        Ok(MultiLabeledSample::from_columns(
            self.class.domain(),
            points,
            &columns,
        )?)
    }

    /// [`Self::sample`] without label noise and with a support no larger than n: the points
    /// are drawn exactly as in the general path (without noise no other draws happen, so the
    /// sample is the same), and each column's bits are set straight into the packed matrix
    /// from the support's clean labels under that column's target.
    fn sample_clean<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Result<MultiLabeledSample> {
        let last = self.support.len() - 1;
        let total = self.cumulative.last().copied().unwrap_or(1.0);
        let mut points = Vec::with_capacity(n);
        let mut indices = Vec::with_capacity(n);
        for _ in 0..n {
            let u = uniform(rng) * total;
            let index = self.cumulative.partition_point(|&c| c <= u).min(last);
            points.push(self.support[index].0);
            indices.push(index);
        }
        let words_per_column = n.div_ceil(64);
        let mut words = vec![0u64; self.k() * words_per_column];
        for (column, &target) in words.chunks_mut(words_per_column.max(1)).zip(&self.targets) {
            let labels: Vec<bool> = self
                .support
                .iter()
                .map(|&(x, _)| self.class.eval(target, x))
                .collect();
            for (i, &index) in indices.iter().enumerate() {
                if labels[index] {
                    column[i / 64] |= 1 << (i % 64);
                }
            }
        }
        Ok(MultiLabeledSample::from_bit_columns(
            self.class.domain(),
            points,
            self.k(),
            words,
        )?)
    }

    /// The exact excess error of each `h_j` over the best concept of column j:
    /// `err(h_j) − min_c err(c) = (1 − 2η)·Pr_x[h_j(x) ≠ c_j(x)]` (with independent noise η
    /// the target is the best concept; randomized hypotheses in expectation). In the
    /// realizable case (η = 0) this is the true error.
    ///
    /// # Errors
    /// [`Error::Multi`] (`HypothesisCount`) unless there are k hypotheses.
    pub fn excess_errors(&self, hypotheses: &[Predictor]) -> Result<Vec<f64>> {
        if hypotheses.len() != self.k() {
            return Err(privpac_multi::Error::HypothesisCount {
                expected: self.k(),
                found: hypotheses.len(),
            }
            .into());
        }
        let scale = 1.0 - 2.0 * self.label_noise;
        if let Some(structure) = &self.structure {
            return hypotheses
                .iter()
                .zip(&self.targets)
                .map(|(h, &target)| {
                    structure
                        .disagreement(self.class.as_ref(), target, h)
                        .map(|d| scale * d)
                        .ok_or(Error::DomainTooLarge {
                            size: self.class.domain().size(),
                            limit: MAX_EXACT_DOMAIN,
                        })
                })
                .collect();
        }
        Ok(hypotheses
            .iter()
            .zip(&self.targets)
            .map(|(h, &target)| {
                let disagreement: f64 = self
                    .support
                    .iter()
                    .map(|&(x, p)| {
                        let one = h.probability_of_one(self.class.as_ref(), x);
                        p * if self.class.eval(target, x) {
                            1.0 - one
                        } else {
                            one
                        }
                    })
                    .sum();
                scale * disagreement
            })
            .collect())
    }

    /// The best constant hypotheses: per column the better of all-zeros and all-ones (by
    /// excess error), and the largest excess error over the columns. When it is at most α
    /// the constant hypotheses already solve the scenario and a sample complexity measured
    /// on it means nothing (under the uniform distribution on `points:2^24` the all-zero
    /// hypothesis has error 2^-24).
    ///
    /// # Errors
    /// As for [`Self::excess_errors`].
    pub fn constant_baseline(&self) -> Result<ConstantBaseline> {
        let k = self.k();
        let zeros = self.excess_errors(&vec![Hypothesis::Constant { label: false }.into(); k])?;
        let ones = self.excess_errors(&vec![Hypothesis::Constant { label: true }.into(); k])?;
        let zeros_max = zeros.iter().copied().fold(0.0, f64::max);
        let ones_max = ones.iter().copied().fold(0.0, f64::max);
        let mixed_max = zeros
            .iter()
            .zip(&ones)
            .map(|(a, b)| a.min(*b))
            .fold(0.0, f64::max);
        Ok(if zeros_max <= mixed_max {
            ConstantBaseline {
                hypothesis: "all zeros".into(),
                excess_error: zeros_max,
            }
        } else if ones_max <= mixed_max {
            ConstantBaseline {
                hypothesis: "all ones".into(),
                excess_error: ones_max,
            }
        } else {
            ConstantBaseline {
                hypothesis: "all zeros or all ones (per column)".into(),
                excess_error: mixed_max,
            }
        })
    }

    /// The largest excess error over the columns (the (agnostic) multi-error of
    /// Definitions 2.3–2.4 relative to the best concepts).
    ///
    /// # Errors
    /// As for [`Self::excess_errors`].
    pub fn multi_error(&self, hypotheses: &[Predictor]) -> Result<f64> {
        Ok(self
            .excess_errors(hypotheses)?
            .into_iter()
            .fold(0.0, f64::max))
    }
}

fn check_noise(label_noise: f64) -> Result<()> {
    if !(0.0..0.5).contains(&label_noise) {
        return Err(Error::InvalidParameter {
            name: "label noise",
            requirement: "in [0, 1/2)",
            value: label_noise,
        });
    }
    Ok(())
}

/// The target ids: drawn (with the seed) or given, checked against the class.
fn resolve_targets(class: &dyn ConceptClass, targets: MultiTargets) -> Result<Vec<u64>> {
    let targets = match targets {
        MultiTargets::Random { k, seed } => {
            check_count("k (targets)", k, MAX_COLUMNS)?;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let len = u64::try_from(class.len()).unwrap_or(u64::MAX);
            (0..k).map(|_| rng.random_range(0..len)).collect()
        }
        MultiTargets::Given { targets } => {
            check_count("k (targets)", targets.len(), MAX_COLUMNS)?;
            targets
        }
    };
    if targets.is_empty() {
        return Err(privpac_multi::Error::NoLabelColumns.into());
    }
    for &t in &targets {
        check_concept(class, t)?;
    }
    Ok(targets)
}

/// The generator of trial `trial` at `(k, n)`: ChaCha8 seeded with a SplitMix64 hash of
/// `(master_seed, k, n)`, on stream `trial`.
pub fn multi_trial_rng(master_seed: u64, k: usize, n: usize, trial: u64) -> ChaCha8Rng {
    let mut h = splitmix(master_seed);
    h = splitmix(h ^ k as u64);
    h = splitmix(h ^ (n as u64).rotate_left(32));
    let mut rng = ChaCha8Rng::seed_from_u64(h);
    rng.set_stream(trial);
    rng
}

fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Runs `trials` independent trials of `learner` at sample size `n` in parallel; a trial
/// succeeds when every column's excess error is at most α.
///
/// # Errors
/// [`Error::InvalidParameter`] for zero trials or α outside (0, 1]; [`Error::TooLarge`]
/// for counts above the [`crate::limits`] (checked first); the first learner error in
/// trial order.
pub fn run_multi_trials(
    scenario: &MultiScenario,
    learner: &dyn MultiLearner,
    trials: usize,
    n: usize,
    alpha: f64,
    master_seed: u64,
) -> Result<TrialOutcome> {
    if trials == 0 {
        return Err(Error::InvalidParameter {
            name: "trials",
            requirement: "at least 1",
            value: 0.0,
        });
    }
    check_count("trials", trials, MAX_TRIALS)?;
    check_count("sample size", n, MAX_SAMPLE_SIZE)?;
    if !(alpha > 0.0 && alpha <= 1.0) {
        return Err(Error::InvalidParameter {
            name: "alpha",
            requirement: "in (0, 1]",
            value: alpha,
        });
    }
    let k = scenario.k();
    let errors: Vec<Result<f64>> = (0..trials)
        .into_par_iter()
        .map(|t| {
            let mut rng = multi_trial_rng(master_seed, k, n, t as u64);
            let sample = scenario.sample(n, &mut rng)?;
            let hypotheses = learner.learn(scenario.class(), &sample, &mut rng)?;
            scenario.multi_error(&hypotheses)
        })
        .collect();
    let errors: Vec<f64> = errors.into_iter().collect::<Result<_>>()?;
    let successes = errors.iter().filter(|&&e| e <= alpha).count();
    Ok(TrialOutcome {
        sample_size: n,
        trials,
        successes,
        success_rate: successes as f64 / trials as f64,
        interval: wilson_interval(successes, trials, 1.959_963_984_540_054),
        mean_error: errors.iter().sum::<f64>() / trials as f64,
    })
}

/// The smallest n (doubling from `config.start`, then binary search to a resolution of
/// n/64) at which `learner` reaches success rate 1 − β on `scenario` (see
/// [`crate::empirical_sample_complexity`]; the seeds here are per (k, n, trial)).
///
/// # Errors
/// As for [`crate::empirical_sample_complexity`] and [`run_multi_trials`].
pub fn empirical_multi_sample_complexity(
    scenario: &MultiScenario,
    learner: &dyn MultiLearner,
    config: SearchConfig,
    observe: &mut dyn FnMut(&TrialOutcome),
) -> Result<SampleComplexity> {
    search_observed(config, observe, |n| {
        run_multi_trials(
            scenario,
            learner,
            config.trials,
            n,
            config.alpha,
            config.master_seed,
        )
    })
}

/// One point of a [`KCurve`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KPoint {
    /// The number of columns.
    pub k: usize,
    /// The empirical sample complexity at this k.
    pub sample_size: usize,
    /// The learner's reported guarantee at that n and k.
    pub guarantee: privpac_accounting::Guarantee,
    /// The search's outcome at that n.
    pub outcome: TrialOutcome,
}

/// The least-squares fit of `ln n = intercept + slope·ln k`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LogLogFit {
    /// The fitted slope (the empirical exponent of k).
    pub slope: f64,
    /// The fitted intercept.
    pub intercept: f64,
    /// A 95% confidence interval for the slope (Student t with m − 2 degrees of freedom,
    /// from the residuals; `(slope, slope)` for a perfect fit, infinite for m = 2).
    pub slope_interval: (f64, f64),
    /// The number of points m.
    pub points: usize,
}

/// Fits `ln y = a + s·ln x` by ordinary least squares.
///
/// # Errors
/// [`Error::InvalidParameter`] for fewer than two points, non-positive values, or all x
/// equal.
///
/// # Example
/// ```
/// let fit = privpac_engine::fit_log_log(&[(1.0, 10.0), (4.0, 20.0), (16.0, 40.0)])?;
/// assert!((fit.slope - 0.5).abs() < 1e-12);
/// assert!((fit.slope_interval.0 - 0.5).abs() < 1e-9);
/// # Ok::<(), privpac_engine::Error>(())
/// ```
pub fn fit_log_log(points: &[(f64, f64)]) -> Result<LogLogFit> {
    if points.len() < 2 {
        return Err(Error::InvalidParameter {
            name: "points of the fit",
            requirement: "at least 2",
            value: points.len() as f64,
        });
    }
    if let Some(&(x, y)) = points.iter().find(|&&(x, y)| !(x > 0.0 && y > 0.0)) {
        return Err(Error::InvalidParameter {
            name: "value of the fit",
            requirement: "positive",
            value: if x > 0.0 { y } else { x },
        });
    }
    let m = points.len() as f64;
    let xs: Vec<f64> = points.iter().map(|p| p.0.ln()).collect();
    let ys: Vec<f64> = points.iter().map(|p| p.1.ln()).collect();
    let mx = xs.iter().sum::<f64>() / m;
    let my = ys.iter().sum::<f64>() / m;
    let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    if sxx <= 0.0 {
        return Err(Error::InvalidParameter {
            name: "spread of k in the fit",
            requirement: "positive (at least two distinct k)",
            value: 0.0,
        });
    }
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let interval = if points.len() == 2 {
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        let rss: f64 = xs
            .iter()
            .zip(&ys)
            .map(|(x, y)| (y - intercept - slope * x).powi(2))
            .sum();
        let se = (rss / (m - 2.0) / sxx).sqrt();
        let half = student_t_975(points.len() - 2) * se;
        (slope - half, slope + half)
    };
    Ok(LogLogFit {
        slope,
        intercept,
        slope_interval: interval,
        points: points.len(),
    })
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom (table to 30, then the
/// normal 1.96 rounded up to 2.0 as a conservative value).
fn student_t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    TABLE.get(df.wrapping_sub(1)).copied().unwrap_or(2.0)
}

/// A k at which the constant hypotheses already meet α: no sample complexity is measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrivialK {
    /// The number of columns.
    pub k: usize,
    /// The constant hypotheses and their multi-error (at most α).
    pub baseline: ConstantBaseline,
}

/// The empirical sample complexity of a multi-learner for several k, with the log–log fit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KCurve {
    /// The learner's name (at the largest k).
    pub learner: String,
    /// One point per measured k, in the order given.
    pub points: Vec<KPoint>,
    /// The k at which the constant hypotheses already meet α (not measured: any learner
    /// that outputs a constant succeeds with n = 0, so a sample complexity would mean
    /// nothing).
    pub trivial: Vec<TrivialK>,
    /// The fit of `ln n` against `ln k` (None for a single k).
    pub fit: Option<LogLogFit>,
}

/// [`empirical_multi_sample_complexity`] for each k in `ks`, with `scenario_for(k)` and
/// `learner_for(k)`, and the log–log fit of n against k. A k whose scenario the constant
/// hypotheses already solve ([`MultiScenario::constant_baseline`] at most α) is listed in
/// [`KCurve::trivial`] instead of being measured.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty list or k = 0; the builders' and searches'
/// errors.
pub fn sample_complexity_curve(
    ks: &[usize],
    scenario_for: &dyn Fn(usize) -> Result<MultiScenario>,
    learner_for: &dyn Fn(usize) -> Result<Box<dyn MultiLearner>>,
    config: SearchConfig,
    observe: &mut dyn FnMut(usize, &TrialOutcome),
) -> Result<KCurve> {
    if ks.is_empty() || ks.contains(&0) {
        return Err(Error::InvalidParameter {
            name: "k",
            requirement: "a non-empty list of values ≥ 1",
            value: 0.0,
        });
    }
    let mut points = Vec::with_capacity(ks.len());
    let mut trivial = Vec::new();
    let mut name = String::new();
    for &k in ks {
        check_count("k", k, MAX_COLUMNS)?;
        let scenario = scenario_for(k)?;
        let learner = learner_for(k)?;
        name = learner.name();
        let baseline = scenario.constant_baseline()?;
        if baseline.excess_error <= config.alpha {
            trivial.push(TrivialK { k, baseline });
            continue;
        }
        let found =
            empirical_multi_sample_complexity(&scenario, learner.as_ref(), config, &mut |o| {
                observe(k, o)
            })?;
        points.push(KPoint {
            k,
            sample_size: found.sample_size,
            guarantee: learner.guarantee(found.sample_size, k),
            outcome: found.outcome,
        });
    }
    let fit = if points.len() >= 2 {
        Some(fit_log_log(
            &points
                .iter()
                .map(|p| (p.k as f64, p.sample_size as f64))
                .collect::<Vec<_>>(),
        )?)
    } else {
        None
    };
    Ok(KCurve {
        learner: name,
        points,
        trivial,
        fit,
    })
}

#[cfg(test)]
mod tests {
    use privpac_classes::{Domain, Points, Thresholds};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Above [`MAX_LISTED_DOMAIN`] the structured classes and distributions take the closed
    /// forms: their excess errors (of concepts, constants and flipped hypotheses, with and
    /// without label noise) equal the exact sums over the listed domain, and their samples
    /// are labeled by the targets (without noise) inside the domain.
    #[test]
    fn structured_scenarios_match_the_listed_exact_errors() {
        use privpac_classes::{Intervals, Parities};
        let size = (MAX_LISTED_DOMAIN as u64) * 2;
        type Build = fn() -> Box<dyn ConceptClass>;
        let classes: [(Build, bool); 4] = [
            (
                || Box::new(Points::new(Domain::ordered(1 << 17).unwrap())),
                true,
            ),
            (|| Box::new(Thresholds::new(1 << 17).unwrap()), true),
            (|| Box::new(Intervals::new(1 << 17).unwrap()), true),
            (|| Box::new(Parities::new(17).unwrap()), false),
        ];
        assert_eq!(size, 1 << 17);
        for (class, ordered) in classes {
            let mut distributions = vec![
                ExampleDistribution::Uniform,
                ExampleDistribution::PointMass {
                    point: 4242,
                    mass: 0.3,
                },
            ];
            if ordered {
                distributions.push(ExampleDistribution::Zipf { exponent: 1.1 });
            }
            for distribution in &distributions {
                for noise in [0.0, 0.1] {
                    let targets = MultiTargets::Random { k: 6, seed: 3 };
                    let structured =
                        MultiScenario::new(class(), distribution, targets.clone(), noise).unwrap();
                    assert!(structured.is_structured(), "{distribution:?}");
                    let domain = class().domain().clone();
                    let points: Vec<Point> =
                        (0..size).map(|i| domain.point_at(i).unwrap_or(i)).collect();
                    let weights = distribution_weights(distribution, &points).unwrap();
                    let listed = MultiScenario::on_support(
                        class(),
                        points.into_iter().zip(weights).collect(),
                        targets,
                        noise,
                    )
                    .unwrap();
                    assert!(!listed.is_structured());
                    assert_eq!(structured.targets(), listed.targets());
                    let mut rng = ChaCha8Rng::seed_from_u64(11);
                    let len = u64::try_from(class().len()).unwrap_or(u64::MAX);
                    let mut hypotheses: Vec<Predictor> = (0..6)
                        .map(|_| {
                            Hypothesis::Concept {
                                id: rng.random_range(0..len),
                            }
                            .into()
                        })
                        .collect();
                    hypotheses[1] = Hypothesis::Constant { label: false }.into();
                    hypotheses[2] = Hypothesis::Constant { label: true }.into();
                    hypotheses[3] = Hypothesis::Concept {
                        id: structured.targets()[3],
                    }
                    .into();
                    hypotheses[4] = Predictor::Flipped {
                        base: Box::new(hypotheses[0].clone()),
                        flip_probability: 0.2,
                    };
                    let fast = structured.excess_errors(&hypotheses).unwrap();
                    let exact = listed.excess_errors(&hypotheses).unwrap();
                    for (f, e) in fast.iter().zip(&exact) {
                        assert!(
                            (f - e).abs() < 1e-9,
                            "{distribution:?}, η = {noise}: {fast:?} vs {exact:?}"
                        );
                    }
                    assert_eq!(
                        structured.constant_baseline().unwrap().hypothesis,
                        listed.constant_baseline().unwrap().hypothesis
                    );
                    if noise == 0.0 {
                        let sample = structured.sample(300, &mut rng).unwrap();
                        for i in 0..sample.len() {
                            let x = sample.points()[i];
                            assert!(structured.class().domain().contains(x));
                            for (j, &t) in structured.targets().iter().enumerate() {
                                assert_eq!(sample.label(i, j), structured.class().eval(t, x));
                            }
                        }
                    }
                }
            }
        }
    }

    /// Without noise, the packed fast path draws the same sample as the general row-by-row
    /// path, for sizes around a word boundary and for several k and classes.
    #[test]
    fn the_noise_free_fast_path_draws_the_general_paths_sample() {
        let classes: [fn() -> Box<dyn ConceptClass>; 2] = [
            || Box::new(Points::new(Domain::ordered(64).unwrap())),
            || Box::new(Thresholds::new(64).unwrap()),
        ];
        for class in classes {
            for k in [1, 3, 70] {
                let scenario = MultiScenario::on_support(
                    class(),
                    vec![(7, 0.4), (60, 0.3), (42, 0.2), (33, 0.05), (12, 0.05)],
                    MultiTargets::Random { k, seed: 5 },
                    0.0,
                )
                .unwrap();
                for n in [5, 63, 64, 65, 200] {
                    let fast = scenario
                        .sample_clean(n, &mut ChaCha8Rng::seed_from_u64(n as u64))
                        .unwrap();
                    let general = scenario
                        .sample_general(n, &mut ChaCha8Rng::seed_from_u64(n as u64))
                        .unwrap();
                    assert_eq!(fast, general, "k = {k}, n = {n}");
                    let public = scenario
                        .sample(n, &mut ChaCha8Rng::seed_from_u64(n as u64))
                        .unwrap();
                    assert_eq!(public, general, "k = {k}, n = {n}");
                }
            }
        }
    }
}
