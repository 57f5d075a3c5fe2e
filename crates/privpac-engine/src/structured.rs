//! Exact true errors in time independent of |X| for the structured classes (thresholds,
//! points, intervals over an ordered domain; parities over the hypercube) under the
//! structured distributions (uniform, point mass plus uniform, Zipf), and sampling from
//! those distributions without materializing the domain.
//!
//! The true error of a hypothesis h against target t with label noise η is
//! `η + (1 − 2η)·Pr_x[h(x) ≠ t(x)]` (at a point where h and t agree the error is η, where
//! they disagree 1 − η; linear in h's probability of 1, so it holds for randomized h with
//! `Pr` over h's coins too). So everything reduces to the D-mass of the disagreement set:
//!
//! * over an ordered domain every concept of the three classes is one index interval
//!   `[a, b)` (threshold t: `[0, t + 1)`; point i: `[i, i + 1)`; interval `[a, b]`:
//!   `[a, b + 1)`), and the symmetric difference of two intervals with sorted endpoints
//!   `e₀ ≤ e₁ ≤ e₂ ≤ e₃` is `[e₀, e₁) ∪ [e₂, e₃)`;
//! * two distinct parities disagree exactly on the points where the parity `c ⊕ t` is 1,
//!   half of the cube (so the uniform error is 0 or 1/2); a noisy vote of parities is
//!   integrated over the span of its members and the target by a Walsh–Hadamard
//!   transform (`parity_vote`), O(r·2^r) for span dimension r ≤ d instead of O(k·2^d).
//!
//! The mass of an index interval is `(b − a)/N` under the uniform distribution,
//! `count·r + [p ∈ [a, b)]·(m − r)` with `r = (1 − m)/(N − 1)` under mass m on p plus
//! uniform, and `Σ_{k=a+1}^{b} k^{−s} / Σ_{k=1}^{N} k^{−s}` under Zipf, where the partial
//! sums are direct for the first [`ZIPF_DIRECT_TERMS`] terms and Euler–Maclaurin
//! (three Bernoulli terms, remainder below `10⁻¹⁴` relative) for the rest. Zipf over the
//! hypercube has no closed form here: those scenarios use the O(|X|) reference.
//!
//! The classes are recognized from their name and domain (`thresholds:N`, `points:N`,
//! `intervals:N` over `Ordered{N}`, `parities:d` over `Hypercube{d}`), also complemented
//! (`not(…)`, `both(…)` of one of them, privpac-classes' `Not` and `Both`), and a few spot
//! checks of `eval`; anything else has no structure and uses the reference. Complements
//! need no new masses: `1 − h` and `1 − t` disagree where `h` and `t` do, `h` and `1 − t`
//! where `h` and `t` agree (mass `1 − Pr[h ≠ t]`), and the mass of `1 − t`'s positives is
//! one minus that of `t`'s. The reference stays
//! in [`crate::Scenario::reference_true_error`] and a property test compares the two.

use privpac_classes::{BucketHash, ConceptClass, Domain, Hypothesis, Intervals, Point};
use privpac_learners::Predictor;
use rand::{Rng, RngExt};
use rand_distr::Zipf;

use crate::distribution::ExampleDistribution;

/// Terms of a Zipf partial sum added directly before the Euler–Maclaurin tail.
pub const ZIPF_DIRECT_TERMS: u64 = 256;

/// The shape of a recognized class.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shape {
    Thresholds,
    Points,
    Intervals(Intervals),
    Parities { dim: u32 },
}

/// How a recognized class wraps its shape: as is, complemented (`not(…)`), or with its
/// complements after it (`both(…)`, complement of inner concept `i` at id `inner_len + i`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Wrap {
    Plain,
    Not,
    Both { inner_len: u64 },
}

/// A recognized class with a distribution whose masses have closed forms.
#[derive(Debug, Clone)]
pub(crate) struct Structure {
    shape: Shape,
    wrap: Wrap,
    /// |X| as a float (exact up to 2^53; only ratios are taken).
    size: u64,
    distribution: ExampleDistribution,
    /// Σ_{k=1}^{N} k^{−s} for Zipf, and rand_distr's sampler of k ∈ [1, N] with Pr ∝ k^{−s}
    /// (rejection-inversion; built once, its constants depending on N and s only).
    zipf_total: f64,
    zipf: Option<Zipf<f64>>,
}

/// A subset of the domain given by enumeration index.
enum Set {
    /// A union of half-open index intervals.
    Ranges([(u64, u64); 2]),
    /// The points where the parity with this (non-zero) id is 1.
    ParityOnes(u64),
    Empty,
}

impl Structure {
    /// Recognizes `class` and checks that `distribution` has closed-form masses on it.
    pub(crate) fn recognize(
        class: &dyn ConceptClass,
        distribution: &ExampleDistribution,
    ) -> Option<Structure> {
        let name = class.name();
        let unwrap = |prefix: &str| {
            name.strip_prefix(prefix)
                .and_then(|rest| rest.strip_suffix(')'))
        };
        let (complemented, both, inner_name) = match (unwrap("not("), unwrap("both(")) {
            (Some(inner), _) => (true, false, inner),
            (_, Some(inner)) => (false, true, inner),
            _ => (false, false, name.as_str()),
        };
        let (kind, _) = inner_name.split_once(':')?;
        let (shape, size, inner_len) = match (kind, class.domain()) {
            ("thresholds", Domain::Ordered { size }) => {
                (Shape::Thresholds, *size, u128::from(*size))
            }
            ("points", Domain::Ordered { size }) => (Shape::Points, *size, u128::from(*size)),
            ("intervals", Domain::Ordered { size }) => {
                let intervals = Intervals::new(*size).ok()?;
                let len = intervals.len();
                (Shape::Intervals(intervals), *size, len)
            }
            ("parities", Domain::Hypercube { dim }) if *dim <= 62 => {
                (Shape::Parities { dim: *dim }, 1u64 << dim, 1u128 << dim)
            }
            _ => return None,
        };
        let wrap = if both {
            // Beyond 64-bit ids (both(intervals) over more than about 2^32 points) every
            // id names an inner concept; the complements are hypotheses by their ends.
            u64::try_from(inner_len).map_or(Wrap::Plain, |inner_len| Wrap::Both { inner_len })
        } else if complemented {
            Wrap::Not
        } else {
            Wrap::Plain
        };
        let outer_len = if both { 2 * inner_len } else { inner_len };
        if class.len() != outer_len {
            return None;
        }
        let zipf_total = match distribution {
            ExampleDistribution::Uniform => 0.0,
            ExampleDistribution::PointMass { point, mass } => {
                if !(0.0..=1.0).contains(mass) || *point >= size {
                    return None;
                }
                0.0
            }
            ExampleDistribution::Zipf { exponent } => {
                if matches!(shape, Shape::Parities { .. })
                    || !(exponent.is_finite() && *exponent > 0.0)
                {
                    return None;
                }
                zipf_partial(0, size, *exponent)
            }
            ExampleDistribution::Explicit { .. } => return None,
        };
        let structure = Structure {
            shape,
            wrap,
            size,
            distribution: distribution.clone(),
            zipf_total,
            zipf: match *distribution {
                ExampleDistribution::Zipf { exponent: s } => Zipf::new(size as f64, s).ok(),
                _ => None,
            },
        };
        structure.spot_check(class).then_some(structure)
    }

    /// Compares `eval` with the recognized shape on a few concepts (of both halves of a
    /// `both(…)`) and points.
    fn spot_check(&self, class: &dyn ConceptClass) -> bool {
        let last = self.size - 1;
        let top = u64::try_from(class.len() - 1).unwrap_or(u64::MAX);
        let second_half = match self.wrap {
            Wrap::Both { inner_len } => inner_len,
            Wrap::Plain | Wrap::Not => 0,
        };
        let concepts = [0, 1, last / 3, last / 2, last]
            .into_iter()
            .flat_map(|c| [c, c.saturating_add(second_half)])
            .map(|c| c.min(top));
        let points = [0, 1, last / 3, last / 2, last / 2 + 1, last].map(|x| x.min(last));
        concepts.into_iter().all(|c| {
            let (inner, complemented) = self.split(c);
            points
                .iter()
                .all(|&x| class.eval(c, x) == (self.concept_set(inner).contains(x) != complemented))
        })
    }

    /// The inner concept an id names, and whether it is complemented.
    fn split(&self, id: u64) -> (u64, bool) {
        match self.wrap {
            Wrap::Plain => (id, false),
            Wrap::Not => (id, true),
            Wrap::Both { inner_len } if id >= inner_len => (id - inner_len, true),
            Wrap::Both { .. } => (id, false),
        }
    }

    /// The set of points inner concept `id` labels 1 (before any complement).
    fn concept_set(&self, id: u64) -> Set {
        match &self.shape {
            Shape::Thresholds => Set::Ranges([(0, id.saturating_add(1)), (0, 0)]),
            Shape::Points => Set::Ranges([(id, id.saturating_add(1)), (0, 0)]),
            Shape::Intervals(intervals) => match intervals.bounds(id) {
                Some((a, b)) => Set::Ranges([(a, b.saturating_add(1)), (0, 0)]),
                None => Set::Empty,
            },
            Shape::Parities { .. } => {
                if id == 0 {
                    Set::Empty
                } else {
                    Set::ParityOnes(id)
                }
            }
        }
    }

    /// The first point (in enumeration order, which is the point itself here) that concept
    /// `id` labels 1, if any.
    pub(crate) fn first_positive(&self, id: u64) -> Option<Point> {
        let (id, complemented) = self.split(id);
        if complemented {
            // The first point outside the inner concept's set: 0 unless the set starts
            // there (a parity is 0 at 0, so its complement is 1 there).
            return match self.concept_set(id) {
                Set::Ranges([(0, b), _]) if b > 0 => (b < self.size).then_some(b),
                _ => Some(0),
            };
        }
        match self.concept_set(id) {
            Set::Ranges(ranges) => ranges
                .iter()
                .filter(|(a, b)| a < b && *a < self.size)
                .map(|(a, _)| *a)
                .min(),
            // The smallest x with an odd number of common bits with id: its lowest bit.
            Set::ParityOnes(id) => Some(1u64 << id.trailing_zeros()),
            Set::Empty => None,
        }
    }

    /// The symmetric difference of two concepts' positive sets.
    fn difference(&self, c: u64, t: u64) -> Set {
        match (self.concept_set(c), self.concept_set(t)) {
            (Set::Empty, other) | (other, Set::Empty) => other,
            (Set::ParityOnes(a), Set::ParityOnes(b)) => {
                if a == b {
                    Set::Empty
                } else {
                    Set::ParityOnes(a ^ b)
                }
            }
            (Set::Ranges([(a0, a1), _]), Set::Ranges([(b0, b1), _])) => {
                let mut e = [a0, a1, b0, b1];
                e.sort_unstable();
                Set::Ranges([(e[0], e[1]), (e[2], e[3])])
            }
            // Parities and ranges never mix within one class.
            _ => Set::Empty,
        }
    }

    /// The D-mass of a set.
    fn mass(&self, set: &Set) -> f64 {
        match set {
            Set::Empty => 0.0,
            Set::Ranges(ranges) => ranges.iter().map(|&(a, b)| self.range_mass(a, b)).sum(),
            Set::ParityOnes(id) => {
                let half = (self.size / 2) as f64;
                match &self.distribution {
                    ExampleDistribution::PointMass { point, mass } => {
                        let inside = (id & point).count_ones() % 2 == 1;
                        self.point_mass_count(half, inside, *mass)
                    }
                    // Uniform (Zipf over the cube is never recognized).
                    _ => 0.5,
                }
            }
        }
    }

    /// The D-mass of the points of index range `[a, b)` that `hash` sends to `bucket`
    /// (exact counts, [`BucketHash::count_below`]); `None` on the hypercube and under
    /// Zipf, where a bucket's mass has no closed form here.
    fn bucket_mass_in(&self, hash: &BucketHash, bucket: u64, a: u64, b: u64) -> Option<f64> {
        if matches!(self.shape, Shape::Parities { .. }) {
            return None;
        }
        let b = b.min(self.size);
        if a >= b {
            return Some(0.0);
        }
        let count = hash.count_below(bucket, b).ok()? - hash.count_below(bucket, a).ok()?;
        match &self.distribution {
            ExampleDistribution::Uniform => Some(count as f64 / self.size as f64),
            ExampleDistribution::PointMass { point, mass } => {
                let inside = (a..b).contains(point) && hash.bucket(*point) == bucket;
                Some(self.point_mass_count(count as f64, inside, *mass))
            }
            ExampleDistribution::Zipf { .. } | ExampleDistribution::Explicit { .. } => None,
        }
    }

    /// Mass of `count` points, `inside` saying whether the heavy point is among them.
    fn point_mass_count(&self, count: f64, inside: bool, mass: f64) -> f64 {
        if self.size == 1 {
            return if inside { 1.0 } else { 0.0 };
        }
        let rest = (1.0 - mass) / (self.size - 1) as f64;
        if inside {
            mass + (count - 1.0) * rest
        } else {
            count * rest
        }
    }

    /// The mass of the index range `[a, b)` (clamped to the domain).
    fn range_mass(&self, a: u64, b: u64) -> f64 {
        let b = b.min(self.size);
        if a >= b {
            return 0.0;
        }
        match &self.distribution {
            ExampleDistribution::Uniform => (b - a) as f64 / self.size as f64,
            ExampleDistribution::PointMass { point, mass } => {
                self.point_mass_count((b - a) as f64, (a..b).contains(point), *mass)
            }
            ExampleDistribution::Zipf { exponent } => {
                zipf_partial(a, b, *exponent) / self.zipf_total
            }
            ExampleDistribution::Explicit { .. } => 0.0,
        }
    }

    /// `Pr_x[h(x) ≠ t(x)]` (over h's coins too), or `None` for predictors without a
    /// closed form here (votes of non-concepts; votes of parities whose span has more
    /// than 2^24 elements).
    pub(crate) fn disagreement(
        &self,
        class: &dyn ConceptClass,
        target: u64,
        predictor: &Predictor,
    ) -> Option<f64> {
        match predictor {
            Predictor::Hypothesis(h) => self.hypothesis_disagreement(class, target, h),
            Predictor::Flipped {
                base,
                flip_probability,
            } => {
                let q = *flip_probability;
                Some(q + (1.0 - 2.0 * q) * self.disagreement(class, target, base)?)
            }
            Predictor::NoisyVote { members, epsilon } => {
                self.vote_disagreement(class, target, members, *epsilon)
            }
        }
    }

    /// [`Self::disagreement`] of a noisy vote of concepts over an ordered domain, exactly
    /// from its pieces in O(k log k) for k members: every member's positive set is an
    /// index range or the complement of one, so the number of members voting 1 (and the
    /// target's label) is constant between consecutive endpoints; each of these at most
    /// 2k + 3 segments adds its mass times the vote's probability of the wrong label
    /// there ([`Predictor::vote_probability`], the sampler's own probability). Members
    /// named by their ends ([`Hypothesis::Interval`], [`Hypothesis::NotInterval`]) and
    /// constants are ranges or complements of ranges too. On the hypercube, a vote of
    /// parities from the span of its members (`parity_vote`). `None` for other members.
    fn vote_disagreement(
        &self,
        class: &dyn ConceptClass,
        target: u64,
        members: &[Hypothesis],
        epsilon: f64,
    ) -> Option<f64> {
        if matches!(self.shape, Shape::Parities { .. }) {
            return self.parity_vote_disagreement(class, target, members, epsilon);
        }
        // The positive set of a concept as (start, end, complemented), [start, end) clamped.
        let range_of = |id: u64| -> Option<(u64, u64, bool)> {
            let (inner, complemented) = self.split(id);
            match self.concept_set(inner) {
                Set::Ranges([(a, b), _]) => {
                    Some((a.min(self.size), b.min(self.size), complemented))
                }
                Set::Empty => Some((0, 0, complemented)),
                Set::ParityOnes(_) => None,
            }
        };
        // (position, change in the number of 1-votes) at every endpoint.
        let mut events: Vec<(u64, i64)> = Vec::with_capacity(2 * members.len());
        let mut ones_at_zero: i64 = 0;
        for member in members {
            let (a, b, complemented) = match member {
                Hypothesis::Concept { id } if u128::from(*id) < class.len() => range_of(*id)?,
                // Intervals named by their ends (learners' output beyond 64-bit ids), the
                // constants: index ranges too, whatever the class.
                Hypothesis::Interval { low, high } if low <= high && *low < self.size => {
                    (*low, high.saturating_add(1).min(self.size), false)
                }
                Hypothesis::Interval { .. } | Hypothesis::Constant { label: false } => {
                    (0, 0, false)
                }
                // A complemented interval: the complement of its index range (all ones
                // when empty).
                Hypothesis::NotInterval { low, high } if low <= high && *low < self.size => {
                    (*low, high.saturating_add(1).min(self.size), true)
                }
                Hypothesis::NotInterval { .. } => (0, 0, true),
                Hypothesis::Constant { label: true } => (0, 0, true),
                _ => return None,
            };
            let sign = if complemented { -1 } else { 1 };
            if complemented {
                ones_at_zero += 1;
            }
            if a < b {
                events.push((a, sign));
                events.push((b, -sign));
            }
        }
        let (ta, tb, target_complemented) = range_of(target)?;
        let mut cuts: Vec<u64> = events.iter().map(|&(p, _)| p).collect();
        cuts.extend([0, ta, tb, self.size]);
        cuts.retain(|&p| p <= self.size);
        cuts.sort_unstable();
        cuts.dedup();
        events.sort_unstable();
        let k = members.len() as i64;
        let (mut ones, mut next, mut total) = (ones_at_zero, 0, 0.0);
        for pair in cuts.windows(2) {
            let (start, end) = (pair[0], pair[1]);
            while next < events.len() && events[next].0 <= start {
                ones += events[next].1;
                next += 1;
            }
            let truth = (ta <= start && start < tb) != target_complemented;
            let wrong =
                Predictor::vote_probability(epsilon, (k - ones) as usize, ones as usize, !truth);
            if wrong.is_nan() {
                return None;
            }
            total += self.range_mass(start, end) * wrong;
        }
        Some(total.clamp(0.0, 1.0))
    }

    /// [`Self::disagreement`] of a deterministic hypothesis.
    fn hypothesis_disagreement(
        &self,
        class: &dyn ConceptClass,
        target: u64,
        hypothesis: &Hypothesis,
    ) -> Option<f64> {
        let (inner_target, target_complemented) = self.split(target);
        match hypothesis {
            Hypothesis::Concept { id } => {
                if u128::from(*id) >= class.len() {
                    return None;
                }
                let (inner, complemented) = self.split(*id);
                let disagree = self.mass(&self.difference(inner, inner_target));
                Some(if complemented == target_complemented {
                    disagree
                } else {
                    1.0 - disagree
                })
            }
            Hypothesis::Constant { label } => {
                let mut positive = self.mass(&self.concept_set(inner_target));
                if target_complemented {
                    positive = 1.0 - positive;
                }
                Some(if *label { 1.0 - positive } else { positive })
            }
            Hypothesis::Table {
                points,
                labels,
                default,
            } => {
                let mut d = self.hypothesis_disagreement(
                    class,
                    target,
                    &Hypothesis::Constant { label: *default },
                )?;
                for (&x, &label) in points.iter().zip(labels) {
                    if x >= self.size {
                        continue;
                    }
                    let truth = class.eval(target, x);
                    let weight = self.range_mass(x, x + 1);
                    d += weight
                        * (f64::from(u8::from(label != truth))
                            - f64::from(u8::from(*default != truth)));
                }
                Some(d)
            }
            Hypothesis::HashBucket { hash, bucket } => {
                // |B Δ T| = D(B) + D(T) − 2·D(B ∩ T), T a union of index ranges; against a
                // complemented target, 1 − |B Δ T|.
                let in_bucket = self.bucket_mass_in(hash, *bucket, 0, self.size)?;
                let disagree = match self.concept_set(inner_target) {
                    Set::Ranges(ranges) => {
                        let in_target = self.mass(&Set::Ranges(ranges));
                        let mut in_both = 0.0;
                        for (a, b) in ranges {
                            in_both += self.bucket_mass_in(hash, *bucket, a, b)?;
                        }
                        (in_bucket + in_target - 2.0 * in_both).clamp(0.0, 1.0)
                    }
                    Set::Empty => in_bucket,
                    Set::ParityOnes(_) => return None,
                };
                Some(if target_complemented {
                    1.0 - disagree
                } else {
                    disagree
                })
            }
            // The complement of an interval disagrees with the target exactly where the
            // interval agrees with it: 1 minus the interval's disagreement.
            Hypothesis::Interval { low, high } | Hypothesis::NotInterval { low, high } => {
                let disagree = self.mass(&self.interval_difference(*low, *high, inner_target)?);
                let complemented = matches!(hypothesis, Hypothesis::NotInterval { .. });
                Some(if target_complemented != complemented {
                    1.0 - disagree
                } else {
                    disagree
                })
            }
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// The symmetric difference of the interval hypothesis `[low, high]` (empty when
    /// `low > high`; named by its ends, for intervals beyond 64-bit ids) and inner concept
    /// `target`'s positives, or `None` over the hypercube: the two sorted endpoint pairs,
    /// as in [`Self::difference`].
    fn interval_difference(&self, low: u64, high: u64, target: u64) -> Option<Set> {
        if matches!(self.shape, Shape::Parities { .. }) {
            return None;
        }
        let target_set = self.concept_set(target);
        if low > high {
            return Some(target_set);
        }
        let (a0, a1) = (low, high.saturating_add(1));
        Some(match target_set {
            Set::Ranges([(b0, b1), _]) => {
                let mut e = [a0, a1, b0, b1];
                e.sort_unstable();
                Set::Ranges([(e[0], e[1]), (e[2], e[3])])
            }
            Set::Empty => Set::Ranges([(a0, a1), (0, 0)]),
            Set::ParityOnes(_) => return None,
        })
    }

    /// Draws one point (its index: recognized domains enumerate points as themselves).
    pub(crate) fn sample_point<R: Rng + ?Sized>(&self, rng: &mut R) -> Point {
        match &self.distribution {
            ExampleDistribution::PointMass { point, mass } if self.size > 1 => {
                if uniform(rng) < *mass {
                    *point
                } else {
                    let other = rng.random_range(0..self.size - 1);
                    if other >= *point { other + 1 } else { other }
                }
            }
            ExampleDistribution::Zipf { .. } => match &self.zipf {
                Some(zipf) => ((rng.sample(zipf) as u64).max(1) - 1).min(self.size - 1),
                None => 0,
            },
            ExampleDistribution::PointMass { point, .. } => *point,
            _ => rng.random_range(0..self.size),
        }
    }
}

impl Set {
    fn contains(&self, x: u64) -> bool {
        match self {
            Set::Empty => false,
            Set::Ranges(ranges) => ranges.iter().any(|&(a, b)| (a..b).contains(&x)),
            Set::ParityOnes(id) => (id & x).count_ones() % 2 == 1,
        }
    }
}

fn uniform<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// `Σ_{k=a+1}^{b} k^{−s}`: the Zipf weights of indices `a..b` (index i has weight
/// `(i + 1)^{−s}`). Direct for the first [`ZIPF_DIRECT_TERMS`] terms; the rest by
/// Euler–Maclaurin, `Σ_{k=m}^{b} f(k) = ∫_m^b f + (f(m) + f(b))/2
/// + Σ_{j=1}^{3} B_{2j}/(2j)!·(f^{(2j−1)}(b) − f^{(2j−1)}(m)) + R` with `f(x) = x^{−s}`,
/// `|R| ≲ |B₈/8!·f^{(7)}(m)|`, below `10⁻¹⁴·f(m)` for m ≥ 257 and s ≤ 4.
pub fn zipf_partial(a: u64, b: u64, s: f64) -> f64 {
    if a >= b {
        return 0.0;
    }
    let direct_end = b.min(a.saturating_add(ZIPF_DIRECT_TERMS));
    let mut sum: f64 = ((a + 1)..=direct_end).map(|k| (k as f64).powf(-s)).sum();
    if direct_end == b {
        return sum;
    }
    let m = (direct_end + 1) as f64;
    let n = b as f64;
    let f = |x: f64| x.powf(-s);
    let integral = if (s - 1.0).abs() < 1e-12 {
        (n / m).ln()
    } else {
        // m^{1−s}·(exp((1−s)·ln(n/m)) − 1)/(1 − s), stable near s = 1.
        m.powf(1.0 - s) * ((1.0 - s) * (n / m).ln()).exp_m1() / (1.0 - s)
    };
    // f'(x) = −s x^{−s−1}; f'''(x) = −s(s+1)(s+2) x^{−s−3};
    // f⁽⁵⁾(x) = −s(s+1)(s+2)(s+3)(s+4) x^{−s−5}.
    let d1 = |x: f64| -s * x.powf(-s - 1.0);
    let d3 = |x: f64| -s * (s + 1.0) * (s + 2.0) * x.powf(-s - 3.0);
    let d5 = |x: f64| -s * (s + 1.0) * (s + 2.0) * (s + 3.0) * (s + 4.0) * x.powf(-s - 5.0);
    let correction = (1.0 / 12.0) * (d1(n) - d1(m)) - (1.0 / 720.0) * (d3(n) - d3(m))
        + (1.0 / 30_240.0) * (d5(n) - d5(m));
    sum += integral + (f(m) + f(n)) / 2.0 + correction;
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zipf_partial_sums_match_direct_summation() {
        for s in [0.5, 1.0, 1.3, 2.0, 3.5] {
            for (a, b) in [(0u64, 10u64), (0, 5_000), (3, 100_000), (1_000, 300_000)] {
                let direct: f64 = ((a + 1)..=b).map(|k| (k as f64).powf(-s)).sum();
                let fast = zipf_partial(a, b, s);
                assert!(
                    ((fast - direct) / direct).abs() < 1e-12,
                    "s = {s}, [{a}, {b}): {fast} vs {direct}"
                );
            }
        }
    }

    /// Sampling on domains that are never materialized. Seeded; each check allows six
    /// standard deviations of its binomial or mean (false-failure rate below 10⁻⁸ each).
    #[test]
    fn large_domains_sample_from_the_stated_distribution() {
        use privpac_classes::Thresholds;
        use rand::SeedableRng;
        use rand_chacha::ChaCha8Rng;

        use crate::{ExampleDistribution, Scenario};

        let draws = 20_000usize;
        let n = draws as f64;
        let big = |size: u64, distribution| {
            Scenario::new(
                Box::new(Thresholds::new(size).unwrap()),
                distribution,
                7,
                0.0,
            )
            .unwrap()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        // Point mass 0.3 on point 5 of 2^40.
        let scenario = big(
            1 << 40,
            ExampleDistribution::PointMass {
                point: 5,
                mass: 0.3,
            },
        );
        let sample = scenario.sample(draws, &mut rng).unwrap();
        let heavy = sample.points().iter().filter(|&&x| x == 5).count() as f64;
        assert!(
            (heavy - 0.3 * n).abs() < 6.0 * (n * 0.3 * 0.7).sqrt(),
            "{heavy}"
        );
        assert!(sample.iter().all(|(x, y)| y == (x <= 7)));
        // Uniform over 2^40: the mean of x/N is 1/2 with standard deviation 1/√(12 n).
        let scenario = big(1 << 40, ExampleDistribution::Uniform);
        let sample = scenario.sample(draws, &mut rng).unwrap();
        let mean = sample
            .points()
            .iter()
            .map(|&x| x as f64 / (1u64 << 40) as f64)
            .sum::<f64>()
            / n;
        assert!((mean - 0.5).abs() < 6.0 / (12.0 * n).sqrt(), "{mean}");
        // Zipf(2) over 2^30: Pr[x = 0] = 1/H(2^30, 2) and Pr[x = 1] = 2^-2/H(2^30, 2).
        let scenario = big(1 << 30, ExampleDistribution::Zipf { exponent: 2.0 });
        let sample = scenario.sample(draws, &mut rng).unwrap();
        let total = zipf_partial(0, 1 << 30, 2.0);
        for (x, p) in [(0u64, 1.0 / total), (1, 0.25 / total)] {
            let count = sample.points().iter().filter(|&&y| y == x).count() as f64;
            assert!(
                (count - p * n).abs() < 6.0 * (n * p * (1.0 - p)).sqrt(),
                "{x}: {count} vs {}",
                p * n
            );
        }
    }

    mod against_reference {
        use privpac_classes::{
            BucketHash, ConceptClass, Hypothesis, Intervals, Parities, Points, Thresholds,
        };
        use privpac_learners::Predictor;
        use proptest::prelude::*;
        use rand::SeedableRng;
        use rand_chacha::ChaCha8Rng;

        use crate::{ExampleDistribution, Scenario};

        fn class(kind: u8, size: u64) -> Box<dyn ConceptClass> {
            match kind % 4 {
                0 => Box::new(Thresholds::new(size).unwrap()),
                1 => Box::new(Points::new(privpac_classes::Domain::ordered(size).unwrap())),
                2 => Box::new(Intervals::new(size).unwrap()),
                _ => Box::new(Parities::new((size.ilog2()).clamp(1, 10)).unwrap()),
            }
        }

        /// A noisy vote of 1 to 7 members drawn from the seed (repeats allowed: concepts,
        /// intervals and their complements by their ends, constants), with ε in (0.05, 3).
        pub(super) fn noisy_vote(seed: u64, concepts: u64, spread: f64) -> Predictor {
            let mut state = seed;
            let mut next = || {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                state >> 11
            };
            let k = 1 + next() % 7;
            Predictor::NoisyVote {
                members: (0..k) // with intervals by their ends and constants among them
                    .map(|_| match (next() % 6, next(), next() % 700) {
                        (0, low, high) => Hypothesis::Interval {
                            low: low % 700,
                            high,
                        },
                        (5, low, high) => Hypothesis::NotInterval {
                            low: low % 700,
                            high,
                        },
                        (1, bit, _) => Hypothesis::Constant {
                            label: bit % 2 == 1,
                        },
                        (_, id, _) => Hypothesis::Concept { id: id % concepts },
                    })
                    .collect(),
                epsilon: 0.05 + 5.9 * spread,
            }
        }

        fn distribution(kind: u8, point: u64, mass: f64, exponent: f64) -> ExampleDistribution {
            match kind % 3 {
                0 => ExampleDistribution::Uniform,
                1 => ExampleDistribution::PointMass { point, mass },
                _ => ExampleDistribution::Zipf { exponent },
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]
            #[test]
            fn fast_true_errors_match_the_reference(
                class_kind in 0u8..4, size in 1u64..700, dist_kind in 0u8..3,
                point_seed in any::<u64>(), mass in 0.0f64..=1.0, exponent in 0.2f64..3.0,
                target_seed in any::<u64>(), concept_seed in any::<u64>(),
                noise in 0.0f64..0.45, flip in 0.0f64..0.5,
                table in proptest::collection::vec((any::<u64>(), any::<bool>()), 0..6),
                default in any::<bool>(),
                hash_seed in any::<u64>(), buckets in 1u64..40,
            ) {
                let class = class(class_kind, size);
                let domain_size = class.domain().size() as u64;
                let concepts = class.len() as u64;
                let distribution = distribution(dist_kind, point_seed % domain_size, mass, exponent);
                let target = target_seed % concepts;
                let scenario = Scenario::new(class, distribution.clone(), target, noise).unwrap();
                let structured = !(class_kind % 4 == 3 && dist_kind % 3 == 2);
                prop_assert_eq!(scenario.has_fast_true_errors(), structured);
                let mut points: Vec<u64> = table.iter().map(|(x, _)| x % domain_size).collect();
                points.sort_unstable();
                points.dedup();
                let labels: Vec<bool> = points.iter().zip(&table).map(|(_, (_, y))| *y).collect();
                let concept = Hypothesis::Concept { id: concept_seed % concepts };
                let vote = noisy_vote(concept_seed, concepts, flip);
                let hypotheses: [Predictor; 8] = [
                    vote.clone(),
                    Predictor::Flipped { base: Box::new(vote), flip_probability: flip },
                    concept.clone().into(),
                    Hypothesis::Concept { id: target }.into(),
                    Hypothesis::Constant { label: default }.into(),
                    Predictor::Flipped { base: Box::new(concept.into()), flip_probability: flip },
                    Hypothesis::Table { points, labels, default }.into(),
                    Hypothesis::HashBucket {
                        hash: BucketHash::draw(buckets, &mut ChaCha8Rng::seed_from_u64(hash_seed)).unwrap(),
                        bucket: hash_seed % buckets,
                    }.into(),
                ];
                for h in &hypotheses {
                    let fast = scenario.true_error(h);
                    let reference = scenario.reference_true_error(h);
                    prop_assert!((fast - reference).abs() < 1e-9,
                        "{:?} {:?}: fast {} reference {}", distribution, h, fast, reference);
                    let excess = scenario.try_excess_error(h).unwrap();
                    let reference_excess = scenario.reference_excess_error(h);
                    prop_assert!((excess - reference_excess).abs() < 1e-9,
                        "{:?} {:?}: excess {} reference {}", distribution, h, excess, reference_excess);
                    // err = OPT + excess, OPT = η.
                    prop_assert!((scenario.opt() + excess - fast).abs() < 1e-9);
                }
            }
        }
    }

    /// The complements (`not(…)`, `both(…)`) of the structured classes: recognized, and their
    /// closed-form true errors equal the O(|X|) reference on every hypothesis kind.
    mod complements_against_reference {
        use privpac_classes::{
            Both, BucketHash, ConceptClass, Hypothesis, Intervals, Not, Parities, Points,
            Thresholds,
        };
        use privpac_learners::Predictor;
        use proptest::prelude::*;
        use rand::SeedableRng;
        use rand_chacha::ChaCha8Rng;

        use crate::{ExampleDistribution, Scenario};

        fn inner(kind: u8, size: u64) -> Box<dyn ConceptClass> {
            match kind % 4 {
                0 => Box::new(Thresholds::new(size).unwrap()),
                1 => Box::new(Points::new(privpac_classes::Domain::ordered(size).unwrap())),
                2 => Box::new(Intervals::new(size).unwrap()),
                _ => Box::new(Parities::new((size.ilog2()).clamp(1, 8)).unwrap()),
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(300))]
            #[test]
            fn complement_true_errors_match_the_reference(
                class_kind in 0u8..4, both in any::<bool>(), size in 1u64..300,
                dist_kind in 0u8..3, point_seed in any::<u64>(), mass in 0.0f64..=1.0,
                exponent in 0.2f64..3.0, target_seed in any::<u64>(),
                concept_seed in any::<u64>(), noise in 0.0f64..0.45, flip in 0.0f64..0.5,
                table in proptest::collection::vec((any::<u64>(), any::<bool>()), 0..6),
                default in any::<bool>(), hash_seed in any::<u64>(), buckets in 1u64..40,
            ) {
                let class: Box<dyn ConceptClass> = if both {
                    Box::new(Both::new(inner(class_kind, size)).unwrap())
                } else {
                    Box::new(Not::new(inner(class_kind, size)))
                };
                let domain_size = class.domain().size() as u64;
                let concepts = class.len() as u64;
                let distribution = match dist_kind % 3 {
                    0 => ExampleDistribution::Uniform,
                    1 => ExampleDistribution::PointMass { point: point_seed % domain_size, mass },
                    _ => ExampleDistribution::Zipf { exponent },
                };
                let target = target_seed % concepts;
                let first = ExampleDistribution::mass_on_target(class.as_ref(), target, 0.5);
                let scenario = Scenario::new(class, distribution.clone(), target, noise).unwrap();
                let structured = !(class_kind % 4 == 3 && dist_kind % 3 == 2);
                prop_assert_eq!(scenario.has_fast_true_errors(), structured);
                // The first positive of the target, as a scan finds it.
                let scanned = (0..domain_size).find(|&x| scenario.class().eval(target, x)).unwrap_or(0);
                prop_assert_eq!(first, ExampleDistribution::PointMass { point: scanned, mass: 0.5 });
                let mut points: Vec<u64> = table.iter().map(|(x, _)| x % domain_size).collect();
                points.sort_unstable();
                points.dedup();
                let labels: Vec<bool> = points.iter().zip(&table).map(|(_, (_, y))| *y).collect();
                let concept = Hypothesis::Concept { id: concept_seed % concepts };
                let vote = super::against_reference::noisy_vote(concept_seed, concepts, flip);
                let hypotheses: [Predictor; 9] = [
                    vote.clone(),
                    Predictor::Flipped { base: Box::new(vote), flip_probability: flip },
                    concept.clone().into(),
                    Hypothesis::Concept { id: target }.into(),
                    Hypothesis::Concept { id: (target + concepts / 2) % concepts }.into(),
                    Hypothesis::Constant { label: default }.into(),
                    Predictor::Flipped { base: Box::new(concept.into()), flip_probability: flip },
                    Hypothesis::Table { points, labels, default }.into(),
                    Hypothesis::HashBucket {
                        hash: BucketHash::draw(buckets, &mut ChaCha8Rng::seed_from_u64(hash_seed)).unwrap(),
                        bucket: hash_seed % buckets,
                    }.into(),
                ];
                for h in &hypotheses {
                    let fast = scenario.true_error(h);
                    let reference = scenario.reference_true_error(h);
                    prop_assert!((fast - reference).abs() < 1e-9,
                        "{:?} {:?}: fast {} reference {}", distribution, h, fast, reference);
                }
            }
        }

        /// Over 2^40 points (never materialized) both orientations of thresholds are
        /// structured scenarios with exact true errors.
        #[test]
        fn both_orientations_over_two_to_the_forty_points() {
            let size = 1u64 << 40;
            let class = Box::new(Both::new(Thresholds::new(size).unwrap()).unwrap());
            // Target: 1 on x > 5.
            let target = size + 5;
            let scenario = Scenario::new(class, ExampleDistribution::Uniform, target, 0.0).unwrap();
            assert!(scenario.has_fast_true_errors());
            assert_eq!(
                scenario.true_error(&Hypothesis::Concept { id: target }.into()),
                0.0
            );
            // 1 on x ≤ 5 disagrees everywhere; 1 on x > 7 on two points.
            assert_eq!(
                scenario.true_error(&Hypothesis::Concept { id: 5 }.into()),
                1.0
            );
            let two = scenario.true_error(&Hypothesis::Concept { id: size + 7 }.into());
            assert!((two - 2.0 / size as f64).abs() < 1e-20, "{two}");
            let all_ones = scenario.true_error(&Hypothesis::Constant { label: true }.into());
            assert!((all_ones - 6.0 / size as f64).abs() < 1e-20, "{all_ones}");
            assert_eq!(
                ExampleDistribution::mass_on_target(scenario.class(), target, 0.3),
                ExampleDistribution::PointMass {
                    point: 6,
                    mass: 0.3
                }
            );
            let not = Box::new(Not::new(Thresholds::new(size).unwrap()));
            let scenario = Scenario::new(not, ExampleDistribution::Uniform, 9, 0.0).unwrap();
            assert!(scenario.has_fast_true_errors());
            // Complemented point functions too.
            let not_points = Box::new(Not::new(Points::new(
                privpac_classes::Domain::ordered(size).unwrap(),
            )));
            let scenario = Scenario::new(not_points, ExampleDistribution::Uniform, 9, 0.0).unwrap();
            assert!(scenario.has_fast_true_errors());
        }
    }
}

#[cfg(test)]
mod interval_pair_tests;

mod parity_vote;
