//! Scenarios: a class, a distribution over its (finite) domain, and a target concept with
//! optional label noise. True errors are computed exactly over the domain, not estimated
//! on test samples.

use privpac_classes::{ConceptClass, LabeledSample, Point, check_concept};
use privpac_learners::Predictor;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::distribution::ExampleDistribution;
use crate::error::{Error, Result};
use crate::limits::MAX_EXACT_DOMAIN;
use crate::structured::Structure;

/// Whether labels come from a concept of the class (realizable) or not (agnostic: label
/// noise, or a target outside the class).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScenarioKind {
    /// Labels are those of a concept in the class.
    Realizable,
    /// Labels may disagree with every concept; accuracy is measured against OPT.
    Agnostic,
}

/// The concept in the middle of the class's order.
pub fn middle_target(class: &dyn ConceptClass) -> u64 {
    (class.len() / 2) as u64
}

/// Points of the grid [`default_target`] measures balance on.
const BALANCE_GRID: u64 = 256;

/// The default target of a scenario: a concept that no constant hypothesis approximates
/// under the uniform distribution. The middle concept ([`middle_target`]) when at least a
/// quarter of a grid of 256 evenly spaced points (the whole domain when it is
/// smaller) takes each label, as for thresholds and parities; otherwise the most balanced
/// of 64 concepts evenly spaced in id order (ties keep the middle concept, then the
/// earlier candidate; on point functions, where every concept is equally unbalanced, the
/// middle one stays).
///
/// So on a class with a concept near balance (thresholds, intervals, both(…) and not(…)
/// of them, parities) a constant hypothesis errs on about a quarter of the domain or more
/// under the uniform distribution, and the default scenario is not solved by a constant
/// at α below that: for intervals over N points the interval covers about half of the
/// domain (the old middle id, [75, 97] of 256 points, covered 9%, which the all-zero
/// hypothesis solves at α = 0.1), and for both(thresholds:N) a threshold near N/2 (the old
/// middle id was the all-ones concept). On point functions every concept has mass 1/N
/// under the uniform distribution, so the front ends put mass 2α on the target instead.
pub fn default_target(class: &dyn ConceptClass) -> u64 {
    let domain = class.domain();
    let size = domain.size();
    // The i-th point of the domain in its order (a listed domain's i-th point).
    let point = |i: u64| match domain {
        privpac_classes::Domain::Explicit { points } => points[i as usize],
        _ => i,
    };
    let grid: Vec<Point> = if size <= u128::from(BALANCE_GRID) {
        (0..size as u64).map(point).collect()
    } else {
        (0..BALANCE_GRID)
            .map(|i| {
                point(((2 * u128::from(i) + 1) * size / (2 * u128::from(BALANCE_GRID))) as u64)
            })
            .collect()
    };
    // The smaller label count on the grid.
    let balance = |id: u64| {
        let ones = grid.iter().filter(|&&x| class.eval(id, x)).count();
        ones.min(grid.len() - ones)
    };
    let middle = middle_target(class);
    if class.is_empty() || 4 * balance(middle) >= grid.len() {
        return middle;
    }
    let len = class.len();
    let candidates = (0..64u128).map(|j| (len * j / 64) as u64).chain([middle]);
    let mut best = (balance(middle), middle);
    for id in candidates {
        let b = balance(id);
        // Strictly better only: ties keep the middle concept, then the earlier candidate.
        if b > best.0 {
            best = (b, id);
        }
    }
    best.1
}

/// A learning problem: `class`, points drawn from `distribution`, labels from concept
/// `target` flipped independently with probability `label_noise`.
#[derive(Debug)]
pub struct Scenario {
    class: Box<dyn ConceptClass>,
    points: Vec<Point>,
    probabilities: Vec<f64>,
    cumulative: Vec<f64>,
    /// A guide table into `cumulative` for the draws of [`Scenario::sample`].
    guide: Guide,
    target: u64,
    label_noise: f64,
    target_labels: Vec<bool>,
    /// Closed-form masses for the structured classes and distributions (fast true errors;
    /// sampling too above [`MAX_EXACT_DOMAIN`], where the vectors above stay empty).
    structure: Option<Structure>,
}

impl Scenario {
    /// Builds a scenario.
    ///
    /// # Errors
    /// [`Error::DomainTooLarge`] above [`MAX_EXACT_DOMAIN`] points unless the class and
    /// distribution are structured (see [`crate::structured`]); [`Error::Class`] for a
    /// target outside the class; [`Error::InvalidParameter`] for bad distribution weights
    /// or label noise outside [0, 1/2).
    pub fn new(
        class: Box<dyn ConceptClass>,
        distribution: ExampleDistribution,
        target: u64,
        label_noise: f64,
    ) -> Result<Self> {
        check_concept(class.as_ref(), target)?;
        let size = class.domain().size();
        if !(0.0..0.5).contains(&label_noise) {
            return Err(Error::InvalidParameter {
                name: "label noise",
                requirement: "in [0, 1/2)",
                value: label_noise,
            });
        }
        let structure = Structure::recognize(class.as_ref(), &distribution);
        if size > MAX_EXACT_DOMAIN {
            return match structure {
                Some(structure) => Ok(Scenario {
                    class,
                    points: Vec::new(),
                    probabilities: Vec::new(),
                    cumulative: Vec::new(),
                    guide: Guide::default(),
                    target,
                    label_noise,
                    target_labels: Vec::new(),
                    structure: Some(structure),
                }),
                None => Err(Error::DomainTooLarge {
                    size,
                    limit: MAX_EXACT_DOMAIN,
                }),
            };
        }
        let n = size as usize;
        let domain = class.domain();
        let points: Vec<Point> = (0..n as u64)
            .map(|i| domain.point_at(i).unwrap_or(i))
            .collect();
        let weights = distribution_weights(&distribution, &points)?;
        let total: f64 = weights.iter().sum();
        let probabilities: Vec<f64> = weights.iter().map(|w| w / total).collect();
        let mut cumulative = Vec::with_capacity(n);
        let mut running = 0.0;
        for p in &probabilities {
            running += p;
            cumulative.push(running);
        }
        let target_labels = points.iter().map(|&x| class.eval(target, x)).collect();
        let guide = Guide::new(&cumulative);
        Ok(Scenario {
            class,
            points,
            probabilities,
            guide,
            cumulative,
            target,
            label_noise,
            target_labels,
            structure,
        })
    }

    /// Whether true errors (of concepts, constants, tables and flipped hypotheses) take
    /// time independent of |X| here (see [`crate::structured`]).
    pub fn has_fast_true_errors(&self) -> bool {
        self.structure.is_some()
    }

    /// The class.
    pub fn class(&self) -> &dyn ConceptClass {
        self.class.as_ref()
    }

    /// The target concept id.
    pub fn target(&self) -> u64 {
        self.target
    }

    /// The probability that a label is flipped.
    pub fn label_noise(&self) -> f64 {
        self.label_noise
    }

    /// OPT, the smallest true error of a concept of the class, exactly: the label noise η.
    ///
    /// The target is a concept of the class and the labels are its labels flipped
    /// independently with probability η < 1/2, so a hypothesis h errs with probability
    /// `η + (1 − 2η)·Pr_x[h(x) ≠ t(x)] ≥ η`, with equality for h = t: no hypothesis, in the
    /// class or not, does better than the target, whose error is η. In the realizable case
    /// (η = 0) OPT is 0. Accuracy α in an agnostic scenario means excess error at most α:
    /// true error at most OPT + α ([`Scenario::try_excess_error`]).
    pub fn opt(&self) -> f64 {
        self.label_noise
    }

    /// Realizable without label noise, agnostic with it.
    pub fn kind(&self) -> ScenarioKind {
        if self.label_noise > 0.0 {
            ScenarioKind::Agnostic
        } else {
            ScenarioKind::Realizable
        }
    }

    /// Draws a labeled sample of size `n`.
    ///
    /// # Errors
    /// Only if the class's domain rejects its own points (never for valid classes).
    pub fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Result<LabeledSample> {
        let mut points = Vec::with_capacity(n);
        let mut labels = Vec::with_capacity(n);
        if let (true, Some(structure)) = (self.points.is_empty(), &self.structure) {
            for _ in 0..n {
                let x = structure.sample_point(rng);
                // No coin for the label without noise (this path has its own streams).
                let noisy = self.label_noise > 0.0 && uniform(rng) < self.label_noise;
                points.push(x);
                labels.push(self.class.eval(self.target, x) ^ noisy);
            }
            return Ok(LabeledSample::new(self.class.domain(), points, labels)?);
        }
        for _ in 0..n {
            let u = uniform(rng) * self.cumulative.last().copied().unwrap_or(1.0);
            let index = self
                .guide
                .partition_point(&self.cumulative, u)
                .min(self.points.len() - 1);
            let noisy = uniform(rng) < self.label_noise;
            points.push(self.points[index]);
            labels.push(self.target_labels[index] ^ noisy);
        }
        Ok(LabeledSample::new(self.class.domain(), points, labels)?)
    }

    /// The exact true error `Pr_{(x,y)}[h(x) ≠ y]` of a hypothesis (for randomized
    /// hypotheses, averaged over their coins): in closed form for the structured classes
    /// and distributions, otherwise [`Scenario::reference_true_error`]. NaN only when
    /// neither applies (a noisy vote on a domain above [`MAX_EXACT_DOMAIN`]); use
    /// [`Scenario::try_true_error`] for a typed error instead.
    pub fn true_error(&self, hypothesis: &Predictor) -> f64 {
        self.try_true_error(hypothesis).unwrap_or(f64::NAN)
    }

    /// [`Scenario::true_error`] with a typed error when it cannot be computed exactly.
    ///
    /// # Errors
    /// [`Error::DomainTooLarge`] for a hypothesis without a closed form (a noisy vote) on a
    /// domain that was not materialized.
    pub fn try_true_error(&self, hypothesis: &Predictor) -> Result<f64> {
        if let Some(d) = self
            .structure
            .as_ref()
            .and_then(|s| s.disagreement(self.class.as_ref(), self.target, hypothesis))
        {
            let eta = self.label_noise;
            return Ok(eta + (1.0 - 2.0 * eta) * d);
        }
        if self.points.is_empty() {
            return Err(Error::DomainTooLarge {
                size: self.class.domain().size(),
                limit: MAX_EXACT_DOMAIN,
            });
        }
        Ok(self.reference_true_error(hypothesis))
    }

    /// The exact excess error `err(h) − OPT = (1 − 2η)·Pr_x[h(x) ≠ t(x)]` of a hypothesis
    /// over the best concept of the class (see [`Scenario::opt`]; for randomized
    /// hypotheses, averaged over their coins): in closed form for the structured classes
    /// and distributions, otherwise [`Scenario::reference_excess_error`]. In the realizable
    /// case (η = 0) it is the true error, to the bit. This is what a trial's success is
    /// judged on ([`crate::run_trials`]): the agnostic bounds are for error at most
    /// OPT + α.
    ///
    /// # Errors
    /// As for [`Scenario::try_true_error`].
    pub fn try_excess_error(&self, hypothesis: &Predictor) -> Result<f64> {
        let scale = 1.0 - 2.0 * self.label_noise;
        if let Some(d) = self
            .structure
            .as_ref()
            .and_then(|s| s.disagreement(self.class.as_ref(), self.target, hypothesis))
        {
            return Ok(scale * d);
        }
        if self.points.is_empty() {
            return Err(Error::DomainTooLarge {
                size: self.class.domain().size(),
                limit: MAX_EXACT_DOMAIN,
            });
        }
        Ok(self.reference_excess_error(hypothesis))
    }

    /// The excess error by summation over the whole (materialized) domain, in O(|X|):
    /// `(1 − 2η)·Σ_x D(x)·Pr[h(x) ≠ t(x)]`, the reference the fast path is tested against.
    /// 0 on a domain that was not materialized.
    pub fn reference_excess_error(&self, hypothesis: &Predictor) -> f64 {
        let disagreement: f64 = self
            .points
            .iter()
            .zip(&self.probabilities)
            .zip(&self.target_labels)
            .map(|((&x, &p), &target)| {
                let one = hypothesis.probability_of_one(self.class.as_ref(), x);
                p * if target { 1.0 - one } else { one }
            })
            .sum();
        (1.0 - 2.0 * self.label_noise) * disagreement
    }

    /// The true error by summation over the whole (materialized) domain, in O(|X|): the
    /// reference the fast path is tested against. 0 on a domain that was not
    /// materialized.
    pub fn reference_true_error(&self, hypothesis: &Predictor) -> f64 {
        let eta = self.label_noise;
        self.points
            .iter()
            .zip(&self.probabilities)
            .zip(&self.target_labels)
            .map(|((&x, &p), &target)| {
                let one = hypothesis.probability_of_one(self.class.as_ref(), x);
                let label_one = if target { 1.0 - eta } else { eta };
                p * (one * (1.0 - label_one) + (1.0 - one) * label_one)
            })
            .sum()
    }
}

pub(crate) fn uniform<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Points per bucket of the guide table, on average.
const POINTS_PER_BUCKET: usize = 8;

/// A guide table (Chen & Asau 1974) over a cumulative distribution: with `K = ⌈len/8⌉`
/// buckets, bucket `j` covers the values `u ∈ [b_j, b_{j+1})` with `b_j = j·total/K`
/// (computed by [`Guide::bound`], the same expression when building and when searching), and
/// `start[j]` is `cumulative.partition_point(|&c| c ≤ b_j)`. Since `partition_point` is
/// monotone in `u`, the answer for any `u` in bucket `j` lies in `start[j]..=start[j + 1]`,
/// so one binary search over that short range (about 8 entries, one or two cache lines,
/// instead of a search over megabytes) gives exactly the index of the full search. When
/// rounding puts `u` outside the bounds of the bucket its value names, the full search runs
/// instead, so the result (and so every seeded sample) is always that of
/// `cumulative.partition_point(|&c| c ≤ u)`. The table costs one `usize` per 8 points.
#[derive(Debug, Clone, Default)]
struct Guide {
    /// `total` (the last cumulative value).
    total: f64,
    /// `start[j]` for `j = 0..=K`.
    start: Vec<usize>,
}

impl Guide {
    fn new(cumulative: &[f64]) -> Guide {
        let Some(&total) = cumulative.last() else {
            return Guide::default();
        };
        let buckets = cumulative.len().div_ceil(POINTS_PER_BUCKET).max(1);
        let mut guide = Guide {
            total,
            start: Vec::with_capacity(buckets + 1),
        };
        for j in 0..=buckets {
            let bound = guide.bound(j, buckets);
            guide
                .start
                .push(cumulative.partition_point(|&c| c <= bound));
        }
        guide
    }

    /// `b_j = j·total/K`.
    fn bound(&self, j: usize, buckets: usize) -> f64 {
        j as f64 * self.total / buckets as f64
    }

    /// `cumulative.partition_point(|&c| c ≤ u)` for the `cumulative` the guide was built on.
    fn partition_point(&self, cumulative: &[f64], u: f64) -> usize {
        let buckets = self.start.len().saturating_sub(1);
        if buckets > 0 {
            let j = ((u / self.total * buckets as f64) as usize).min(buckets - 1);
            if self.bound(j, buckets) <= u && u < self.bound(j + 1, buckets) {
                let (lo, hi) = (self.start[j], self.start[j + 1]);
                return lo + cumulative[lo..hi].partition_point(|&c| c <= u);
            }
        }
        cumulative.partition_point(|&c| c <= u)
    }
}

pub(crate) fn distribution_weights(
    distribution: &ExampleDistribution,
    points: &[Point],
) -> Result<Vec<f64>> {
    let n = points.len();
    let weights = match distribution {
        ExampleDistribution::Uniform => vec![1.0; n],
        ExampleDistribution::PointMass { point, mass } => {
            if !(0.0..=1.0).contains(mass) {
                return Err(Error::InvalidParameter {
                    name: "point mass",
                    requirement: "in [0, 1]",
                    value: *mass,
                });
            }
            let index = points.iter().position(|p| p == point).ok_or(Error::Class(
                privpac_classes::Error::PointOutsideDomain {
                    point: *point,
                    domain: format!("{n} points"),
                },
            ))?;
            let rest = if n > 1 {
                (1.0 - mass) / (n - 1) as f64
            } else {
                0.0
            };
            (0..n)
                .map(|i| {
                    if i == index {
                        if n > 1 { *mass } else { 1.0 }
                    } else {
                        rest
                    }
                })
                .collect()
        }
        ExampleDistribution::Zipf { exponent } => {
            if !(exponent.is_finite() && *exponent > 0.0) {
                return Err(Error::InvalidParameter {
                    name: "Zipf exponent",
                    requirement: "finite and > 0",
                    value: *exponent,
                });
            }
            (0..n).map(|i| ((i + 1) as f64).powf(-exponent)).collect()
        }
        ExampleDistribution::Explicit { weights } => {
            if weights.len() != n {
                return Err(Error::InvalidParameter {
                    name: "number of weights",
                    requirement: "equal to the domain size",
                    value: weights.len() as f64,
                });
            }
            if let Some(bad) = weights.iter().find(|w| !(w.is_finite() && **w >= 0.0)) {
                return Err(Error::InvalidParameter {
                    name: "weight",
                    requirement: "finite and ≥ 0",
                    value: *bad,
                });
            }
            weights.clone()
        }
    };
    let total: f64 = weights.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        return Err(Error::InvalidParameter {
            name: "total weight",
            requirement: "positive and finite",
            value: total,
        });
    }
    Ok(weights)
}

// `mass_on_target` lives here, beside the scenarios that use it, because it needs the
// structured classes (`structured.rs` depends on `distribution.rs`, not the reverse).
impl ExampleDistribution {
    /// Mass `mass` on the first point (in enumeration order) that concept `target` labels
    /// 1, or on point 0 if it labels none, the rest uniform: a distribution on which
    /// missing the target's positive point costs error `mass`.
    ///
    /// # Example
    /// ```
    /// use privpac_classes::Points;
    /// use privpac_classes::Domain;
    /// use privpac_engine::ExampleDistribution;
    /// let class = Points::new(Domain::ordered(10)?);
    /// assert_eq!(
    ///     ExampleDistribution::mass_on_target(&class, 7, 0.2),
    ///     ExampleDistribution::PointMass { point: 7, mass: 0.2 }
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mass_on_target(class: &dyn ConceptClass, target: u64, mass: f64) -> Self {
        // The structured classes know their positive sets: no scan (a scan of a domain of
        // 2^40 points would stop at its first 2^28 and miss most targets).
        if let Some(point) = Structure::recognize(class, &ExampleDistribution::Uniform)
            .and_then(|structure| structure.first_positive(target))
        {
            return ExampleDistribution::PointMass { point, mass };
        }
        let domain = class.domain();
        let size = domain.size().min(MAX_EXACT_DOMAIN) as u64;
        let point = (0..size)
            .filter_map(|i| domain.point_at(i))
            .find(|&x| class.eval(target, x))
            .unwrap_or(0);
        ExampleDistribution::PointMass { point, mass }
    }
}

#[cfg(test)]
mod tests {
    use privpac_classes::{Hypothesis, Thresholds};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn thresholds(n: u64, target: u64, noise: f64, distribution: ExampleDistribution) -> Scenario {
        Scenario::new(
            Box::new(Thresholds::new(n).unwrap()),
            distribution,
            target,
            noise,
        )
        .unwrap()
    }

    #[test]
    fn true_error_is_exact() {
        let scenario = thresholds(10, 4, 0.0, ExampleDistribution::Uniform);
        assert_eq!(
            scenario.true_error(&Hypothesis::Concept { id: 4 }.into()),
            0.0
        );
        assert!((scenario.true_error(&Hypothesis::Concept { id: 6 }.into()) - 0.2).abs() < 1e-12);
        assert!(
            (scenario.true_error(&Hypothesis::Constant { label: false }.into()) - 0.5).abs()
                < 1e-12
        );
        let noisy = thresholds(10, 4, 0.1, ExampleDistribution::Uniform);
        assert!((noisy.true_error(&Hypothesis::Concept { id: 4 }.into()) - 0.1).abs() < 1e-12);
        let flipped = Predictor::Flipped {
            base: Box::new(Hypothesis::Concept { id: 4 }.into()),
            flip_probability: 0.25,
        };
        assert!((scenario.true_error(&flipped) - 0.25).abs() < 1e-12);
    }

    #[test]
    fn the_guide_table_finds_what_the_full_search_finds() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for len in [1usize, 2, 3, 17, 4096, 5000, 100_000] {
            // Uneven weights, with runs of zero weight (repeated cumulative values).
            let mut running = 0.0;
            let cumulative: Vec<f64> = (0..len)
                .map(|i| {
                    running += if i % 7 == 3 { 0.0 } else { rng.random::<f64>() };
                    running
                })
                .collect();
            let guide = Guide::new(&cumulative);
            let total = *cumulative.last().unwrap();
            let mut probes: Vec<f64> = (0..2000).map(|_| rng.random::<f64>() * total).collect();
            // Every cumulative value, its neighbours, the bucket bounds and the ends.
            let buckets = guide.start.len() - 1;
            let bounds: Vec<f64> = (0..=buckets).map(|j| guide.bound(j, buckets)).collect();
            for &c in cumulative.iter().take(3000).chain(&bounds) {
                probes.extend([c, c.next_down(), c.next_up()]);
            }
            probes.extend([0.0, -0.0, total, total.next_up(), f64::MAX]);
            for u in probes {
                assert_eq!(
                    guide.partition_point(&cumulative, u),
                    cumulative.partition_point(|&c| c <= u),
                    "len {len}, u {u}"
                );
            }
        }
        assert_eq!(Guide::default().partition_point(&[], 0.5), 0);
    }

    #[test]
    fn samples_follow_the_target_and_distribution() {
        let scenario = thresholds(
            10,
            4,
            0.0,
            ExampleDistribution::PointMass {
                point: 9,
                mass: 0.9,
            },
        );
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let sample = scenario.sample(10_000, &mut rng).unwrap();
        let heavy = sample.points().iter().filter(|&&x| x == 9).count();
        assert!((8_700..9_300).contains(&heavy), "{heavy}");
        assert!(sample.iter().all(|(x, y)| y == (x <= 4)));
    }

    #[test]
    fn invalid_scenarios_are_typed_errors() {
        let class = || Box::new(Thresholds::new(10).unwrap()) as Box<dyn ConceptClass>;
        assert!(Scenario::new(class(), ExampleDistribution::Uniform, 10, 0.0).is_err());
        assert!(Scenario::new(class(), ExampleDistribution::Uniform, 1, 0.5).is_err());
        assert!(
            Scenario::new(
                class(),
                ExampleDistribution::Zipf { exponent: -1.0 },
                1,
                0.0
            )
            .is_err()
        );
        assert!(
            Scenario::new(
                class(),
                ExampleDistribution::Explicit {
                    weights: vec![1.0; 3]
                },
                1,
                0.0
            )
            .is_err()
        );
        assert!(
            Scenario::new(
                class(),
                ExampleDistribution::PointMass {
                    point: 11,
                    mass: 0.5
                },
                1,
                0.0
            )
            .is_err()
        );
        // Above the materialized limit only structured scenarios are accepted: Zipf over
        // the hypercube has no closed form.
        let huge = Box::new(privpac_classes::Parities::new(30).unwrap());
        assert!(matches!(
            Scenario::new(huge, ExampleDistribution::Zipf { exponent: 1.0 }, 0, 0.0),
            Err(Error::DomainTooLarge { .. })
        ));
        let huge = Box::new(Thresholds::new(1 << 30).unwrap());
        let scenario = Scenario::new(huge, ExampleDistribution::Uniform, 0, 0.0).unwrap();
        assert!(scenario.has_fast_true_errors());
        // Target {0}, hypothesis [0, 2^29 − 1]: they disagree on 2^29 − 1 of 2^30 points.
        let error = scenario.true_error(&Hypothesis::Concept { id: (1 << 29) - 1 }.into());
        assert_eq!(error, ((1u64 << 29) - 1) as f64 / (1u64 << 30) as f64);
    }

    /// The default targets are not solved by a constant at α = 0.1 under the uniform
    /// distribution (the constants' excess error is at least 0.2), and stay the middle
    /// concept where that already holds (thresholds, parities).
    #[test]
    fn default_targets_are_not_solved_by_a_constant() {
        use privpac_classes::{Both, Intervals, Not, Parities};
        let classes: Vec<Box<dyn ConceptClass>> = vec![
            Box::new(Thresholds::new(256).unwrap()),
            Box::new(Thresholds::new(1 << 40).unwrap()),
            Box::new(Intervals::new(256).unwrap()),
            Box::new(Intervals::new(1 << 30).unwrap()),
            Box::new(
                Both::new(Box::new(Thresholds::new(256).unwrap()) as Box<dyn ConceptClass>)
                    .unwrap(),
            ),
            Box::new(
                Both::new(Box::new(Thresholds::new(1 << 20).unwrap()) as Box<dyn ConceptClass>)
                    .unwrap(),
            ),
            Box::new(Not::new(
                Box::new(Intervals::new(1000).unwrap()) as Box<dyn ConceptClass>
            )),
            Box::new(Parities::new(10).unwrap()),
        ];
        // Point functions: every concept is as unbalanced as the next; the middle stays.
        let points = privpac_classes::Points::new(privpac_classes::Domain::Ordered { size: 256 });
        assert_eq!(default_target(&points), middle_target(&points));
        for class in classes {
            let name = class.name();
            let target = default_target(class.as_ref());
            let keeps_middle = name.starts_with("thresholds") || name.starts_with("parities");
            assert_eq!(
                target == middle_target(class.as_ref()),
                keeps_middle,
                "{name}"
            );
            let scenario = Scenario::new(class, ExampleDistribution::Uniform, target, 0.0).unwrap();
            for label in [false, true] {
                let excess = scenario
                    .try_excess_error(&Hypothesis::Constant { label }.into())
                    .unwrap();
                assert!(
                    excess >= 0.2,
                    "{name}, target {target}: constant {label} errs {excess}"
                );
            }
        }
    }
}
