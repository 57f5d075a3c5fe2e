//! Private multiplicative weights on the XOR class of point functions,
//! `POINT_[N] ⊕ POINT_[N]`, by its structure: the N² sparse-vector questions of a pass are
//! asked in their dense order without one noise draw each, and the synthetic distribution
//! is kept as the points an update touched plus one common weight for all others.
//!
//! # The questions, in the dense order
//! The dense path ([`PrivateMultiplicativeWeights::run`] on `Xor(Points)`) asks the
//! queries in id order `a·N + b` (row a, column b). The query `(a, b)` is the indicator of
//! `{a, b}` for `a ≠ b` and of the empty set for `a = b`; its sparse-vector answer is
//! `⌊|n·q(A) − D(q)|⌋` = `floor_abs_gap(n·(A(a) + A(b)), D(a) + D(b))` for `a ≠ b` and 0
//! on the diagonal. A(x) is `w(x)/W` for the weight w(x) of a point an update touched, and
//! the common weight otherwise; D(x) is the data count. So an answer depends only on the
//! `(w, D)` of the pair's two points. Call *special* the points an update touched and the
//! data points (S of them); every other point is a *gap* point with weight the common one
//! and count 0. A row is a run of questions whose answers are: the special columns' answers
//! one by one, and one answer for all gap columns (0 at the diagonal of a gap row). All gap
//! rows have the same multiset of answers; they differ only by where their diagonal is.
//!
//! # A pass
//! A pass walks the N² positions in order, in chunks: a special row (one row), or a maximal
//! block of consecutive gap rows; right after an "above", a probe of at most
//! [`EXPLICIT_QUESTIONS`] questions of the row; above [`WINDOW_SPECIALS`] special points, a
//! special row is asked in windows of its next [`WINDOW_SPECIALS`] special columns, so that
//! listing a chunk's special columns stays cheap, while a block of gap rows stays one chunk
//! (its answers against the special columns are the same for every gap row and are listed
//! once per change of the weights). A chunk from the current position is an
//! [`AnswerStream`]: its answer at any index in O(log S), and the counts per answer value of
//! any prefix in O(#answers·log S) (`h` whole gap rows are `h` times the gap-row multiset,
//! plus the partial row's special columns below the cut, counted by binary search, and its
//! gap columns). [`SparseVector::first_above`] returns the first "above" of the chunk with
//! exactly the law of asking its questions one by one (proved in its module); on "above" the
//! question is measured and the weights updated as in the dense algorithm, and the pass
//! continues from the next question with the new answers; on "none" it continues with the
//! next chunk. Budget, measurement and pass structure are those of the dense loop: the
//! remaining budget is checked before every question asked, a pass with no "above" ends the
//! run. So the sequence of updates (and of passes) has the same law as the dense
//! algorithm's on the same queries in the same order, given the same answers; the answers
//! are the dense algorithm's in exact arithmetic (the weights here are unnormalized, which
//! changes rounding only).
//!
//! # The update
//! The dense update of `{a, b}` multiplies a and b by `inside` and every other point by
//! `outside`, then normalizes; in unnormalized weights that is `w(a), w(b)` times
//! `inside/outside = e^{±η}` with the total adjusted. The diagonal's set is empty: every
//! point gets the same factor, so nothing changes (the measurement is still drawn, as in the
//! dense loop). Weights are renormalized every [`RENORMALIZE_EVERY`] updates.
//!
//! # Why the thresholds' XOR class is not done the same way
//! A query of `THRESH ⊕ THRESH` is an interval `[i, j)` (or its complement for
//! `both(thresholds)`), whose answer `⌊|n·A([i, j)) − D([i, j))|⌋` changes along a row each
//! time `n·A([i, j))` crosses an integer (every `N/n` columns or so on a uniform A) or j
//! passes a data point. A row is then not a few runs of equal answers but up to about
//! `n + S` of them, and the prefix counts per answer would need the number of columns j with
//! `⌊f(j)⌋ = v` for the floating-point `f` the dense path evaluates, which the closed form
//! of a linear function does not give exactly. This is a missing construction (exact
//! rational answers and a floor-sum count per piece would do), not a theorem;
//! [`crate::Sanitizer::sanitize_threshold_xor`] still refuses PMW there.

use std::cell::OnceCell;
use std::collections::BTreeMap;

use privpac_classes::Point;
use privpac_mechanisms::{AnswerStream, DiscreteLaplace, EXPLICIT_QUESTIONS, SparseVector};
use rand::Rng;

use crate::error::{Error, Result};
use crate::mwem::floor_abs_gap;
use crate::pieces::PiecewiseDistribution;
use crate::pmw::PrivateMultiplicativeWeights;

/// Updates between two exact renormalizations of the weights.
const RENORMALIZE_EVERY: usize = 1024;

/// Above this many special points a chunk is one row's columns up to the next
/// `WINDOW_SPECIALS` special columns (so that listing a chunk's special columns stays
/// O(`WINDOW_SPECIALS`)); at or below it, a chunk is a whole special row or block of gap
/// rows.
const WINDOW_SPECIALS: usize = 256;

/// What one run of private multiplicative weights on `POINT_[N] ⊕ POINT_[N]` did.
#[derive(Debug, Clone, PartialEq)]
pub struct PointPmwRun {
    /// The synthetic distribution (the final weights).
    pub synthetic: PiecewiseDistribution,
    /// The query ids `a·N + b` that triggered an update, in order.
    pub updates: Vec<u128>,
    /// The number of passes over the N² queries.
    pub passes: usize,
    /// Whether the sparse vector's budget of "above" answers ran out.
    pub exhausted: bool,
}

/// The weights (touched points and the common weight of all others) and the data.
#[derive(Debug)]
pub(crate) struct PointState {
    size: u64,
    /// n, as the dense path has it.
    n: f64,
    /// Distinct data points, increasing, with their counts.
    data: Vec<(Point, i64)>,
    /// The weight of every point no update touched.
    common: f64,
    /// Touched points and their weights.
    touched: BTreeMap<Point, f64>,
    /// The sum of all weights.
    total: f64,
    /// Special points above which special rows are windowed ([`WINDOW_SPECIALS`]; smaller
    /// in tests).
    window: usize,
    /// The answers of a gap row against the special columns, built at most once between
    /// two changes of the weights (every block of gap rows of a pass reads the same one).
    gap_prefix: OnceCell<RowPrefix>,
}

impl PointState {
    pub(crate) fn new(size: u64, data: &[Point]) -> Result<Self> {
        if size == 0 {
            return Err(Error::InvalidParameter {
                name: "domain size",
                requirement: "at least 1",
                value: 0.0,
            });
        }
        let sorted = crate::ordered::sorted_in_domain(size, data)?;
        let mut distinct: Vec<(Point, i64)> = Vec::new();
        for x in sorted {
            match distinct.last_mut() {
                Some((p, c)) if *p == x => *c += 1,
                _ => distinct.push((x, 1)),
            }
        }
        Ok(PointState {
            size,
            n: data.len() as f64,
            data: distinct,
            common: 1.0,
            touched: BTreeMap::new(),
            total: size as f64,
            window: WINDOW_SPECIALS,
            gap_prefix: OnceCell::new(),
        })
    }

    fn weight(&self, x: Point) -> f64 {
        self.touched.get(&x).copied().unwrap_or(self.common)
    }

    fn count(&self, x: Point) -> i64 {
        match self.data.binary_search_by_key(&x, |&(p, _)| p) {
            Ok(i) => self.data[i].1,
            Err(_) => 0,
        }
    }

    /// The weight and data count of x, and whether x is special (touched or a data point),
    /// from one lookup in each.
    fn point(&self, x: Point) -> (f64, i64, bool) {
        let touched = self.touched.get(&x).copied();
        let data = self.data.binary_search_by_key(&x, |&(p, _)| p);
        let count = data.map_or(0, |i| self.data[i].1);
        (
            touched.unwrap_or(self.common),
            count,
            touched.is_some() || data.is_ok(),
        )
    }

    /// The first special point at or after `x` (N if none).
    fn next_special(&self, x: Point) -> Point {
        let touched = self
            .touched
            .range(x..)
            .next()
            .map_or(self.size, |(&p, _)| p);
        let i = self.data.partition_point(|&(p, _)| p < x);
        let data = self.data.get(i).map_or(self.size, |&(p, _)| p);
        touched.min(data)
    }

    /// The current answer `q(A)` of `{a, b}` (a ≠ b) from its points' weights.
    fn pair_current(&self, wa: f64, wb: f64) -> f64 {
        (wa + wb) / self.total
    }

    /// The sparse-vector answer of a pair of distinct points with these weights and counts.
    fn type_answer(&self, wa: f64, da: i64, wb: f64, db: i64) -> i64 {
        floor_abs_gap(self.n * self.pair_current(wa, wb), da + db)
    }

    /// The special points at or after `from`, increasing, with their weights and counts.
    fn specials_from(&self, from: Point) -> impl Iterator<Item = (Point, f64, i64)> + '_ {
        let start = self.data.partition_point(|&(p, _)| p < from);
        let mut data = self.data[start..].iter().peekable();
        let mut touched = self.touched.range(from..).peekable();
        std::iter::from_fn(move || {
            let next_data = data.peek().map(|&&(p, _)| p);
            let next_touched = touched.peek().map(|&(&p, _)| p);
            let x = match (next_data, next_touched) {
                (None, None) => return None,
                (Some(d), None) => d,
                (None, Some(t)) => t,
                (Some(d), Some(t)) => d.min(t),
            };
            let count = if next_data == Some(x) {
                data.next().map_or(0, |&(_, c)| c)
            } else {
                0
            };
            let weight = if next_touched == Some(x) {
                touched.next().map_or(self.common, |(_, &w)| w)
            } else {
                self.common
            };
            Some((x, weight, count))
        })
    }

    /// The weight and the data count of x.
    fn weight_count(&self, x: Point) -> (f64, i64) {
        (self.weight(x), self.count(x))
    }

    /// Multiplies the weights of a and b by `ratio` (one map lookup per point: the entry
    /// starts at the common weight when x was not touched yet).
    fn scale_pair(&mut self, a: Point, b: Point, ratio: f64) {
        for x in [a, b] {
            let slot = self.touched.entry(x).or_insert(self.common);
            let w = *slot;
            let new = w * ratio;
            *slot = new;
            self.total += new - w;
        }
        self.gap_prefix.take();
    }

    /// Recomputes the total and divides every weight by it.
    fn renormalize(&mut self) {
        let untouched = (self.size - self.touched.len() as u64) as f64;
        let total = self.common * untouched + self.touched.values().sum::<f64>();
        if total > 0.0 && total.is_finite() {
            self.common /= total;
            self.touched.values_mut().for_each(|w| *w /= total);
            self.total = 1.0;
        }
        self.gap_prefix.take();
    }

    /// The weights as a piecewise distribution (touched points as pieces of one point).
    fn to_pieces(&self) -> PiecewiseDistribution {
        let mut starts = Vec::new();
        let mut masses = Vec::new();
        let mut at = 0u64;
        for (&x, &w) in &self.touched {
            if x > at {
                starts.push(at);
                masses.push(self.common * (x - at) as f64 / self.total);
            }
            starts.push(x);
            masses.push(w / self.total);
            at = x + 1;
        }
        if at < self.size {
            starts.push(at);
            masses.push(self.common * (self.size - at) as f64 / self.total);
        }
        PiecewiseDistribution {
            size: self.size,
            starts,
            masses,
        }
    }

    /// The chunk of the pass that starts at position `p < N²`; a `probe` is at most
    /// [`EXPLICIT_QUESTIONS`] questions of one row (all asked one by one, so nothing is
    /// listed), the cheap chunk right after an "above".
    fn chunk_at(&self, p: u128, probe: bool) -> Chunk<'_> {
        let size = u128::from(self.size);
        let row = (p / size) as u64;
        let column = (p % size) as u64;
        let (row_weight, row_count, special) = self.point(row);
        let many = self.touched.len() + self.data.len() > self.window;
        let (rows_end, column_end) = if probe {
            let end = u64::try_from(u128::from(column) + EXPLICIT_QUESTIONS)
                .map_or(self.size, |end| end.min(self.size));
            (row + 1, end)
        } else if many && special {
            // One special row, up to the column of the (window + 1)-th special point at or
            // after `column`. (A block of gap rows stays one chunk: its answers against the
            // special columns are the same for every gap row and built once per update.)
            let end = self
                .specials_from(column)
                .nth(self.window)
                .map_or(self.size, |(x, _, _)| x);
            (row + 1, end)
        } else if special {
            (row + 1, self.size)
        } else {
            (self.next_special(row), self.size)
        };
        // Every later row of a chunk is a gap row (a special row is a chunk of its own),
        // so only the first row's point can be special; its columns before the next
        // special point are gap columns.
        let row_point = (row_weight, row_count);
        Chunk {
            state: self,
            row,
            rows_end,
            special,
            column,
            column_end,
            row_point,
            gap_until: OnceCell::new(),
            windowed: (many && special) || probe,
            prefix: OnceCell::new(),
        }
    }
}

/// The questions of a pass from one position to the end of a special row or of a block of
/// gap rows (module documentation).
#[derive(Debug)]
pub(crate) struct Chunk<'a> {
    state: &'a PointState,
    /// The first row.
    row: u64,
    /// One past the last row.
    rows_end: u64,
    /// Whether the rows are one special row (else gap rows).
    special: bool,
    /// The first column in the first row.
    column: u64,
    /// One past the last column of the last row (N unless windowed).
    column_end: u64,
    /// Whether the chunk is one row's columns `[column, column_end)` (many special points),
    /// whose special columns alone are listed.
    windowed: bool,
    /// The weight and data count of the first row's point (the common weight and 0 for a
    /// gap row).
    row_point: (f64, i64),
    /// The first special point at or after `column` (N if none): the first row's columns
    /// `[column, gap_until)` are gap columns, answered without a lookup.
    gap_until: OnceCell<Point>,
    prefix: OnceCell<RowPrefix>,
}

/// The answers of the chunk's row type against the special columns, for prefix counts.
#[derive(Debug)]
struct RowPrefix {
    /// The special points, increasing.
    specials: Vec<Point>,
    /// For each answer value, the indices (into `specials`) of the columns with it.
    by_answer: BTreeMap<i64, Vec<usize>>,
    /// The answer of every gap column (off the diagonal).
    gap_answer: i64,
}

impl Chunk<'_> {
    fn prefix(&self) -> &RowPrefix {
        let cell = if self.special || self.windowed {
            &self.prefix
        } else {
            &self.state.gap_prefix
        };
        cell.get_or_init(|| {
            let state = self.state;
            let (w_row, d_row) = if self.special {
                (state.weight(self.row), state.count(self.row))
            } else {
                (state.common, 0)
            };
            let all: Vec<(Point, f64, i64)> = if self.windowed {
                state
                    .specials_from(self.column)
                    .take_while(|&(x, _, _)| x < self.column_end)
                    .collect()
            } else {
                state.specials_from(0).collect()
            };
            let mut by_answer: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
            for (i, &(y, w, d)) in all.iter().enumerate() {
                let v = if self.special && y == self.row {
                    0
                } else {
                    state.type_answer(w_row, d_row, w, d)
                };
                by_answer.entry(v).or_default().push(i);
            }
            RowPrefix {
                specials: all.iter().map(|&(y, _, _)| y).collect(),
                by_answer,
                gap_answer: state.type_answer(w_row, d_row, state.common, 0),
            }
        })
    }

    /// Counts per answer over the columns `[0, b)` of row `a` of this chunk (for a windowed
    /// chunk the special columns before its first column are not listed, so the counts are
    /// right as differences from that column, which is how [`AnswerStream::prefix_counts`]
    /// uses them).
    fn row_counts(&self, a: Point, b: u64, out: &mut BTreeMap<i64, u128>) {
        let prefix = self.prefix();
        let below = prefix.specials.partition_point(|&y| y < b);
        for (&v, list) in &prefix.by_answer {
            let c = list.partition_point(|&i| i < below) as u128;
            if c > 0 {
                *out.entry(v).or_insert(0) += c;
            }
        }
        let mut gaps = u128::from(b) - below as u128;
        if !self.special && a < b {
            *out.entry(0).or_insert(0) += 1;
            gaps -= 1;
        }
        if gaps > 0 {
            *out.entry(prefix.gap_answer).or_insert(0) += gaps;
        }
    }

    /// Counts per answer over the chunk's positions `[0, p)` counted from its first row's
    /// column 0.
    fn counts_to(&self, p: u128) -> BTreeMap<i64, u128> {
        let size = u128::from(self.state.size);
        let rows = p / size;
        let column = (p % size) as u64;
        let mut out = BTreeMap::new();
        if rows > 0 {
            let mut one_row = BTreeMap::new();
            self.row_counts(self.row, self.state.size, &mut one_row);
            for (v, c) in one_row {
                *out.entry(v).or_insert(0) += c * rows;
            }
        }
        if column > 0 {
            self.row_counts(self.row + rows as u64, column, &mut out);
        }
        out
    }

    /// The pass position of the chunk's index 0.
    fn start(&self) -> u128 {
        u128::from(self.row) * u128::from(self.state.size) + u128::from(self.column)
    }
}

impl AnswerStream for Chunk<'_> {
    fn questions(&self) -> u128 {
        u128::from(self.rows_end - self.row - 1) * u128::from(self.state.size)
            + u128::from(self.column_end)
            - u128::from(self.column)
    }

    /// The sparse-vector answer of the question at (row a, column b): 0 on the diagonal,
    /// else [`PointState::type_answer`] of the two points' weights and counts. The first
    /// row's point is read from the chunk and its gap columns are recognized without a
    /// lookup (a chunk's questions are asked from its start, mostly in its first row).
    fn answer(&self, index: u128) -> i64 {
        let state = self.state;
        let first_row = u128::from(state.size - self.column);
        if index >= first_row {
            let size = u128::from(state.size);
            let p = self.start() + index;
            // A later row: a gap row (common weight, no data).
            let (a, b) = ((p / size) as u64, (p % size) as u64);
            if a == b {
                return 0;
            }
            let (wb, db) = state.weight_count(b);
            return state.type_answer(state.common, 0, wb, db);
        }
        let b = self.column + index as u64;
        if b == self.row {
            return 0;
        }
        let (wa, da) = self.row_point;
        let gap_until = *self
            .gap_until
            .get_or_init(|| state.next_special(self.column));
        let (wb, db) = if b < gap_until {
            (state.common, 0)
        } else {
            state.weight_count(b)
        };
        state.type_answer(wa, da, wb, db)
    }

    fn prefix_counts(&self, m: u128) -> Vec<(i64, u128)> {
        let column = u128::from(self.column);
        let mut upto = self.counts_to(column + m);
        for (v, c) in self.counts_to(column) {
            if let Some(slot) = upto.get_mut(&v) {
                *slot -= c;
            }
        }
        upto.into_iter().filter(|&(_, c)| c > 0).collect()
    }
}

impl PrivateMultiplicativeWeights {
    /// Private multiplicative weights with the queries of `POINT_[N] ⊕ POINT_[N]` (all N²
    /// ordered pairs, in the dense id order `a·N + b`), at every N up to `2^64 − 1`, without
    /// a noise draw per question (module documentation of `pmw_points`).
    ///
    /// # Privacy
    /// The guarantee of [`PrivateMultiplicativeWeights`] (its NumericSparse proof, with the
    /// same `(ε/2, δ/2)` sparse vector and the same measurements): every chunk of questions
    /// is asked through [`SparseVector::first_above`], whose output has exactly the law of
    /// asking the questions one by one, and the answers are sensitivity-1 counts: each is
    /// `⌊|n·q(A) − D(q)|⌋` for the public A, so the data enter only through `D(q)`. They are
    /// the dense path's answers in exact arithmetic; the unnormalized weights here round
    /// differently, so near an integer an answer can differ from the dense path's by one
    /// (the same algorithm, not the same floating-point run).
    ///
    /// # Running time
    /// Per "above" O(log S) plus the measurement; per chunk without an "above" 64 explicit
    /// questions, O(log(N²)) prefix counts of O(#answers·log S) each and two exact
    /// comparisons; a pass has at most S + 1 blocks of gap rows and, per special row, one
    /// chunk (or at most `⌈S/256⌉ + 1` windows above 256 special points), S ≤ 2c + #distinct
    /// data points; the gap rows' answers against the special columns are listed in
    /// O(S log S) once per update; the first prefix count of a special row's chunk lists its
    /// special columns once.
    ///
    /// # Errors
    /// [`Error::EmptyData`]; [`Error::Class`] for a point outside `[N]`;
    /// [`Error::InvalidParameter`] for N = 0; [`Error::Mechanism`].
    pub fn run_point_xor<R: Rng + ?Sized>(
        &self,
        size: u64,
        data: &[Point],
        rng: &mut R,
    ) -> Result<PointPmwRun> {
        if data.is_empty() {
            return Err(Error::EmptyData);
        }
        let mut state = PointState::new(size, data)?;
        let n = state.n;
        let c = self.max_updates(u128::from(size));
        let measurement = DiscreteLaplace::for_epsilon(self.measurement_epsilon(c)?, 1)?;
        let threshold = (0.75 * self.alpha() * n).ceil() as i64;
        let mut svt = SparseVector::new(self.svt_privacy()?, 1, threshold, c, rng)?;
        let eta = self.learning_rate();
        let questions = u128::from(size) * u128::from(size);
        let mut updates = Vec::new();
        let mut passes = 0;
        let mut exhausted = false;
        'passes: loop {
            passes += 1;
            let mut any_above = false;
            let mut p: u128 = 0;
            // After an "above" (and at the start of a pass) a short probe first: "above"
            // answers then tend to come in bursts.
            let mut probe = true;
            while p < questions {
                if svt.remaining() == 0 {
                    exhausted = true;
                    break 'passes;
                }
                let chunk = state.chunk_at(p, probe);
                let start = chunk.start();
                let len = chunk.questions();
                let found = svt.first_above(&chunk, rng)?;
                drop(chunk);
                let Some(i) = found else {
                    p = start + len;
                    probe = false;
                    continue;
                };
                probe = true;
                any_above = true;
                let q = start + i;
                let (a, b) = ((q / u128::from(size)) as u64, (q % u128::from(size)) as u64);
                let (truth, current) = if a == b {
                    (0, 0.0)
                } else {
                    (
                        state.count(a) + state.count(b),
                        state.pair_current(state.weight(a), state.weight(b)),
                    )
                };
                let noisy = truth.saturating_add(measurement.sample(rng));
                if a != b {
                    let ratio = if noisy as f64 > n * current {
                        eta.exp()
                    } else {
                        (-eta).exp()
                    };
                    state.scale_pair(a, b, ratio);
                }
                updates.push(q);
                if updates.len() % RENORMALIZE_EVERY == 0 {
                    state.renormalize();
                }
                p = q + 1;
            }
            if !any_above {
                break;
            }
        }
        state.renormalize();
        Ok(PointPmwRun {
            synthetic: state.to_pieces(),
            updates,
            passes,
            exhausted,
        })
    }
}

#[cfg(test)]
mod tests;
