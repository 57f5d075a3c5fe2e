//! Intervals `c_{a,b}(y) = 1 iff a ≤ y ≤ b` over an ordered domain, plus the empty
//! interval, at every size up to 2^64 − 1 points: their error profile as levels (128-bit
//! counts), and the member of a level named by its ends.

use crate::class::closed_form::{ClosedFormVc, Family};
use crate::class::{
    CellLevels, ConceptClass, ConceptParts, ErrorLevel, LabelingCell, WideErrorLevel, check_sample,
    interval_cells,
};
use crate::domain::{Domain, Point};
use crate::error::{Error, Result};
use crate::sample::LabeledSample;

/// All intervals `[a, b]` (a ≤ b) over `[N]` plus the empty interval: `1 + N(N+1)/2`
/// concepts. Id 0 is the empty interval; the others enumerate `(a, b)` with `a`
/// increasing, then `b`. VC dimension 2 for N ≥ 2.
///
/// # Error profile
/// In id order the profile has about `N·n` runs (every `a` starts a new row of `b`), so
/// [`ConceptClass::error_levels`] gives it as levels instead, in O(n log n + m·r) time for
/// m distinct sample points and r distinct prefix sums (at most n + 1; refused above
/// [`MAX_INTERVAL_LEVEL_WORK`] steps) without materializing N: an interval containing exactly the sample's distinct points
/// `x_i … x_j` makes `P + C_{j+1} − C_i` mistakes (P the positives, `C` the prefix sums of
/// negatives minus positives per point), and there are `L_i·R_j` of them (`L_i` choices of
/// `a` in `(x_{i−1}, x_i]`, `R_j` of `b` in `[x_j, x_{j+1})`); intervals containing no
/// sample point make P. [`ConceptClass::concept_with_errors`] finds the concept of a level
/// in id order in O(m + r + log N).
///
/// # Sizes beyond 64-bit ids
/// Every N up to `u64::MAX` is accepted (`len()` is below 2^127). Ids name the intervals
/// `0..2^64` of the order only; the whole class is reached through
/// [`ConceptClass::wide_error_levels`] (the same levels with `u128` counts) and
/// [`ConceptClass::parts_with_errors`] (the same walk in id order, returning the ends
/// `(a, b)`), which the generic learner and ERM use above 2^60 concepts.
/// [`ConceptClass::error_levels`] refuses a sample whose levels do not fit `u64`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Intervals {
    domain: Domain,
    size: u64,
}

/// The largest N with `1 + N(N+1)/2 ≤ u64::MAX`, so that every interval has a `u64` id
/// (about 2^32.5; 2^40 points have 2^79 intervals). Larger classes are accepted; their
/// intervals beyond id `u64::MAX` are reached by their ends (see [`Intervals`]).
pub const MAX_INTERVALS_SIZE: u64 = 6_074_000_999;

impl Intervals {
    /// Intervals over `[size]`, any size up to `u64::MAX`.
    ///
    /// # Errors
    /// [`Error::InvalidDomain`] for size 0.
    pub fn new(size: u64) -> Result<Self> {
        Ok(Intervals {
            domain: Domain::ordered(size)?,
            size,
        })
    }

    /// The interval `(a, b)` named by a nonzero id, or `None` for the empty interval.
    pub fn bounds(&self, id: u64) -> Option<(u64, u64)> {
        if id == 0 || u128::from(id) >= self.len() {
            return None;
        }
        // Ids 1.. enumerate a = 0 with b = 0..N, then a = 1 with b = 1..N, …; the block of
        // a starts after S(a) = Σ_{j<a} (N − j) = a·N − a(a − 1)/2 intervals. The largest a
        // with S(a) ≤ rank is the smaller root of a² − (2N + 1)a + 2·rank = 0, estimated in
        // floating point and corrected exactly in integers (O(1), where stepping through
        // the blocks was O(N) per call).
        let n = u128::from(self.size);
        let rank = u128::from(id - 1);
        let start = |a: u128| a * n - a * a.saturating_sub(1) / 2;
        let two_n1 = (2 * n + 1) as f64;
        let estimate = ((two_n1 - (two_n1 * two_n1 - 8.0 * rank as f64).max(0.0).sqrt()) / 2.0)
            .floor()
            .max(0.0) as u128;
        let mut a = estimate.min(n.saturating_sub(1));
        while a > 0 && start(a) > rank {
            a -= 1;
        }
        while a + 1 < n && start(a + 1) <= rank {
            a += 1;
        }
        let b = a + (rank - start(a));
        Some((a as u64, b as u64))
    }
}

impl ConceptClass for Intervals {
    /// 2 for N ≥ 2 (1 for N = 1: the empty interval and `[0, 0]`), exactly.
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        let d = if self.size >= 2 { 2 } else { 1 };
        Some(ClosedFormVc::exact(d, "intervals", Some(Family::Intervals)))
    }
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn len(&self) -> u128 {
        let n = u128::from(self.size);
        1 + n * (n + 1) / 2
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        self.bounds(id).is_some_and(|(a, b)| a <= x && x <= b)
    }

    fn name(&self) -> String {
        format!("intervals:{}", self.size)
    }

    fn interval_structure(&self) -> Option<u64> {
        Some(self.size)
    }

    /// O(n + N + |C|) from prefix counts: `[a, b]` errs on the positives outside it and the
    /// negatives inside it, `P − P[a, b] + Q[a, b]` (P positives in all, P[a, b] and Q[a, b]
    /// the positives and negatives in `[a, b]`), and the empty interval on the P positives.
    /// The provided brute force was O(|C|·n): 41 s for `privpac sanitize` on 2·10^6 rows
    /// over intervals:16 (its query error is scored through this profile). Checked against
    /// the reference by the conformance property tests of `class/tests.rs`.
    fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
        check_sample(&self.domain, sample)?;
        let len = crate::class::dense_len(self)?;
        // |C| = 1 + N(N + 1)/2 fits the dense limit, so N is far below it.
        let size = self.size as usize;
        let mut positives_below = vec![0u64; size + 1];
        let mut negatives_below = vec![0u64; size + 1];
        for (x, y) in sample.iter() {
            let slot = if y {
                &mut positives_below[x as usize + 1]
            } else {
                &mut negatives_below[x as usize + 1]
            };
            *slot += 1;
        }
        for i in 0..size {
            positives_below[i + 1] += positives_below[i];
            negatives_below[i + 1] += negatives_below[i];
        }
        let positives = positives_below[size];
        let mut counts = Vec::with_capacity(len);
        counts.push(positives);
        for a in 0..size {
            for b in a..size {
                let inside_positive = positives_below[b + 1] - positives_below[a];
                let inside_negative = negatives_below[b + 1] - negatives_below[a];
                counts.push(positives - inside_positive + inside_negative);
            }
        }
        debug_assert_eq!(counts.len(), len);
        Ok(counts)
    }

    /// `1 on [3, 9]`, or `empty interval (all zeros)`.
    fn describe(&self, id: u64) -> String {
        match self.bounds(id) {
            Some((a, b)) => format!("1 on [{a}, {b}]"),
            None => "empty interval (all zeros)".into(),
        }
    }

    /// Levels in O(n log n + m·r), see [`Intervals`]; always `Some`.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when a level counts more than `u64::MAX` intervals (N above
    /// [`MAX_INTERVALS_SIZE`]; [`ConceptClass::wide_error_levels`] gives those).
    fn error_levels(&self, sample: &LabeledSample) -> Result<Option<Vec<ErrorLevel>>> {
        Profile::new(self, sample)?
            .levels()?
            .into_iter()
            .map(|level| {
                let count = u64::try_from(level.count).map_err(|_| Error::TooLarge {
                    what: "interval error level with 64-bit count (use the wide levels)",
                    needed: level.count,
                    unit: "intervals",
                    limit: u128::from(u64::MAX),
                })?;
                Ok(ErrorLevel {
                    errors: level.errors,
                    count,
                })
            })
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// In id order, O(n log n + m + r + log N); see [`Intervals`]. `None` also when the
    /// interval's id is beyond `u64::MAX`.
    fn concept_with_errors(
        &self,
        sample: &LabeledSample,
        errors: u64,
        offset: u64,
    ) -> Result<Option<u64>> {
        Ok(
            match Profile::new(self, sample)?.locate(errors, u128::from(offset)) {
                Some(ConceptParts::Empty) => Some(0),
                Some(ConceptParts::Interval { low, high }) => self.checked_id_of(low, high),
                // The walk names intervals and the empty one only.
                Some(ConceptParts::Full | ConceptParts::NotInterval { .. }) | None => None,
            },
        )
    }

    /// The levels with `u128` counts, at every N; always `Some`.
    fn wide_error_levels(&self, sample: &LabeledSample) -> Result<Option<Vec<WideErrorLevel>>> {
        Ok(Some(Profile::new(self, sample)?.levels()?))
    }

    /// The rectangles of ends that label `points` alike, scored on `sample`, in
    /// O(n log n + m²) for m distinct points (see `interval_cells`); always `Some` up to
    /// [`crate::MAX_INTERVAL_CELLS`] cells.
    fn labeling_cells(
        &self,
        points: &[Point],
        sample: &LabeledSample,
    ) -> Result<Option<Vec<LabelingCell>>> {
        interval_cells::cells(
            &self.domain,
            |a, b| self.checked_id_of(a, b),
            points,
            sample,
        )
        .map(Some)
    }

    /// The cells of [`Self::labeling_cells`] by score, without listing them, at every
    /// number of points (see `interval_cell_levels`); always `Some`.
    fn labeling_cell_levels(
        &self,
        points: &[Point],
        sample: &LabeledSample,
    ) -> Result<Option<CellLevels>> {
        self.domain.check_all(points)?;
        check_sample(&self.domain, sample)?;
        Ok(Some(CellLevels::new(self.size, points, sample)))
    }

    /// The walk of [`ConceptClass::concept_with_errors`], returning the interval's ends.
    fn parts_with_errors(
        &self,
        sample: &LabeledSample,
        errors: u64,
        offset: u128,
    ) -> Result<Option<ConceptParts>> {
        Ok(Profile::new(self, sample)?.locate(errors, offset))
    }
}

impl Intervals {
    /// The id of the interval `[a, b]` (`a ≤ b < N`): `1 + S(a) + (b − a)` with
    /// `S(a) = a·N − a(a − 1)/2` the intervals before row `a`.
    /// (For N above [`MAX_INTERVALS_SIZE`] the id may not fit: see [`Self::checked_id_of`].)
    pub fn id_of(&self, a: u64, b: u64) -> u64 {
        self.wide_id_of(a, b) as u64
    }

    /// The id of `[a, b]` if it fits in `u64`.
    pub fn checked_id_of(&self, a: u64, b: u64) -> Option<u64> {
        u64::try_from(self.wide_id_of(a, b)).ok()
    }

    /// The id of `[a, b]` as a `u128` (below 2^127 for every N).
    fn wide_id_of(&self, a: u64, b: u64) -> u128 {
        interval_cells::wide_interval_id(self.size, a, b)
    }
}

/// The most steps (distinct sample points × distinct prefix sums) the interval levels take,
/// 2^32 (a few seconds): a larger sample is a typed error, not a computation of hours. The
/// samples a sample-complexity search over intervals uses are far below it (about 2^22
/// steps at 2000 examples).
pub const MAX_INTERVAL_LEVEL_WORK: u128 = 1 << 32;

/// A sample summarized for the interval profile: the distinct points `p[0] < … < p[m−1]`,
/// the prefix sums `c[k] = Σ_{t<k} (negatives − positives at p[t])` (`c[0] = 0`), and the
/// number of positives P. The interval containing exactly `p[i..=j]` makes
/// `P + c[j+1] − c[i]` mistakes.
struct Profile {
    size: u64,
    points: Vec<u64>,
    prefix: Vec<i64>,
    positives: u64,
    /// The smallest prefix sum (the origin of value-indexed tables).
    low: i64,
    /// The number of distinct prefix values `max − min + 1`.
    width: usize,
}

impl Profile {
    fn new(class: &Intervals, sample: &LabeledSample) -> Result<Profile> {
        check_sample(&class.domain, sample)?;
        let mut examples: Vec<(u64, bool)> = sample.iter().collect();
        examples.sort_unstable();
        let mut points = Vec::new();
        let mut prefix = vec![0i64];
        let mut positives = 0;
        for (x, y) in examples {
            if points.last() != Some(&x) {
                points.push(x);
                prefix.push(*prefix.last().unwrap_or(&0));
            }
            let last = prefix.last_mut().unwrap_or_else(|| unreachable!());
            if y {
                positives += 1;
                *last -= 1;
            } else {
                *last += 1;
            }
        }
        let low = prefix.iter().copied().min().unwrap_or(0);
        let high = prefix.iter().copied().max().unwrap_or(0);
        Ok(Profile {
            size: class.size,
            points,
            prefix,
            positives,
            low,
            width: (high - low) as usize + 1,
        })
    }

    fn m(&self) -> usize {
        self.points.len()
    }

    /// `L_i`: the choices of `a` that make `p[i]` the first sample point inside.
    fn left(&self, i: usize) -> u64 {
        if i == 0 {
            self.points[0] + 1
        } else {
            self.points[i] - self.points[i - 1]
        }
    }

    /// `R_j`: the choices of `b` that make `p[j]` the last sample point inside.
    fn right(&self, j: usize) -> u64 {
        self.points.get(j + 1).copied().unwrap_or(self.size) - self.points[j]
    }

    fn slot(&self, value: i64) -> Option<usize> {
        usize::try_from(value - self.low)
            .ok()
            .filter(|&slot| slot < self.width)
    }

    /// The intervals with no sample point inside, plus the empty interval: `P` mistakes.
    fn empty_content(&self) -> u128 {
        let triangle = |g: u64| u128::from(g) * (u128::from(g) + 1) / 2;
        let mut total = 1;
        let mut start = 0; // the first point of the current gap
        for &x in &self.points {
            total += triangle(x - start);
            start = x + 1;
        }
        total + triangle(self.size - start)
    }

    /// The levels with `u128` counts (each below 2^127: they sum to `len()`).
    fn levels(&self) -> Result<Vec<WideErrorLevel>> {
        let work = self.m() as u128 * self.width as u128;
        if work > MAX_INTERVAL_LEVEL_WORK {
            return Err(Error::TooLarge {
                what: "interval error levels (distinct sample points × distinct prefix sums)",
                needed: work,
                unit: "steps",
                limit: MAX_INTERVAL_LEVEL_WORK,
            });
        }
        // d = c[j+1] − c[i] ranges over [low − high, high − low].
        let span = self.width as i64 - 1;
        let mut counts = vec![0u128; 2 * self.width - 1];
        counts[span as usize] += self.empty_content();
        // weights[v] = Σ_{i ≤ j, c[i] = low + v} L_i (at most N: the L_i are disjoint
        // ranges of a), built as j grows; [first, last] its non-zero range.
        let mut weights = vec![0u64; self.width];
        let (mut first, mut last) = (self.width, 0);
        for j in 0..self.m() {
            let v = (self.prefix[j] - self.low) as usize;
            weights[v] += self.left(j);
            first = first.min(v);
            last = last.max(v);
            let right = u128::from(self.right(j));
            let end = self.prefix[j + 1] - self.low; // c[j+1] − low
            for (v, &weight) in weights.iter().enumerate().take(last + 1).skip(first) {
                if weight != 0 {
                    // d = c[j+1] − c[i] = end − v; its slot is d + span. L·R < 2^128.
                    counts[(end - v as i64 + span) as usize] += u128::from(weight) * right;
                }
            }
        }
        Ok(counts
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count > 0)
            .map(|(slot, &count)| WideErrorLevel {
                // P + d ≥ 0: an interval never makes fewer than zero mistakes.
                errors: (self.positives as i64 + slot as i64 - span) as u64,
                count,
            })
            .collect())
    }

    /// The interval of index `offset` in id order among the concepts with `errors`
    /// mistakes, or `None` if the level has no such index.
    fn locate(&self, errors: u64, mut offset: u128) -> Option<ConceptParts> {
        let d = i64::try_from(errors).ok()? - self.positives as i64;
        let at_p = d == 0;
        if at_p {
            if offset == 0 {
                return Some(ConceptParts::Empty); // the empty interval comes first
            }
            offset -= 1;
        }
        let interval = |low: u64, high: u64| Some(ConceptParts::Interval { low, high });
        let m = self.m();
        // k[i] = Σ_{j ≥ i, c[j+1] − c[i] = d} R_j (at most N): the intervals of row a (a in
        // block i) that reach a sample point and make `errors` mistakes.
        let mut by_value = vec![0u64; self.width];
        let mut k = vec![0u64; m];
        for i in (0..m).rev() {
            by_value[(self.prefix[i + 1] - self.low) as usize] += self.right(i);
            k[i] = self
                .slot(self.prefix[i] + d)
                .map_or(0, |slot| by_value[slot]);
        }
        let triangle = |q: u128| q * q.saturating_sub(1) / 2;
        for (i, &ki) in k.iter().enumerate() {
            let lo = if i == 0 { 0 } else { self.points[i - 1] + 1 };
            let l = u128::from(self.left(i));
            let ki = u128::from(ki);
            // Row a = lo + q has (p[i] − a)·[d = 0] + k_i concepts: p[i] − a = l − 1 − q.
            // The cumulative count of rows q' < q is at most |C| < 2^127.
            let extra = if at_p { 1 } else { 0 };
            let cumulative = |q: u128| q * ki + extra * (q * (l - 1) - triangle(q));
            let total = cumulative(l);
            if offset >= total {
                offset -= total;
                continue;
            }
            // The largest q ≤ l with cumulative(q) ≤ offset (cumulative is non-decreasing).
            let (mut q_low, mut q_high) = (0u128, l);
            while q_low < q_high {
                let middle = (q_low + q_high).div_ceil(2);
                if cumulative(middle) <= offset {
                    q_low = middle;
                } else {
                    q_high = middle - 1;
                }
            }
            let a = lo + q_low as u64;
            let mut rest = offset - cumulative(q_low);
            let before = u128::from(self.points[i] - a); // b in [a, p[i]): no sample point
            if at_p {
                if rest < before {
                    return interval(a, a + rest as u64);
                }
                rest -= before;
            }
            for j in i..m {
                if self.prefix[j + 1] - self.prefix[i] == d {
                    let right = u128::from(self.right(j));
                    if rest < right {
                        return interval(a, self.points[j] + rest as u64);
                    }
                    rest -= right;
                }
            }
            return None; // unreachable: the row's count was k_i
        }
        // Rows after the last sample point: only intervals with no sample point inside.
        if !at_p {
            return None;
        }
        let lo = self.points.last().map_or(0, |&x| x + 1);
        let l = u128::from(self.size - lo);
        // Row a = lo + q has N − a = l − q concepts.
        let cumulative = |q: u128| q * l - triangle(q);
        if offset >= cumulative(l) {
            return None;
        }
        let (mut q_low, mut q_high) = (0u128, l);
        while q_low < q_high {
            let middle = (q_low + q_high).div_ceil(2);
            if cumulative(middle) <= offset {
                q_low = middle;
            } else {
                q_high = middle - 1;
            }
        }
        let a = lo + q_low as u64;
        interval(a, a + (offset - cumulative(q_low)) as u64)
    }
}
