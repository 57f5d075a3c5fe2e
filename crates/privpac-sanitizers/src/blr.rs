//! The Blum–Ligett–Roth sanitizer: the exponential mechanism over all small databases,
//! sampled exactly where they can be enumerated.

use privpac_accounting::{Privacy, Private};
use privpac_classes::combinatorics::binomial;
use privpac_classes::{ConceptClass, Domain, Point, ThresholdStructure};
use privpac_mechanisms::ExponentialMechanism;
use rand::Rng;

use crate::Sanitizer;
use crate::error::{Error, Result};
use crate::synthetic::SyntheticDatabase;

/// Default limit on the number of candidate databases, `C(|X| + m − 1, m)`.
pub const DEFAULT_CANDIDATE_LIMIT: u128 = 1 << 20;
/// Limit on score work, candidates × concepts.
pub const SCORE_WORK_LIMIT: u128 = 1 << 32;
/// Limit on the table of labels, concepts × domain points.
const LABEL_TABLE_LIMIT: u128 = 1 << 26;
/// The candidate limit can be raised up to this (one `i64` score is stored per candidate).
pub const MAX_CANDIDATE_LIMIT: u128 = 1 << 26;

/// The Blum–Ligett–Roth sanitizer (BLR 2008, as quoted in Bun–Nissim–Stemmer, Theorem
/// 2.18): the exponential
/// mechanism over all multisets `D̂` of m points of X, with score `−max_{c∈C} |c(D) −
/// c(D̂)|`.
///
/// Scores are computed exactly in integers: with `a_c = |{i : c(x_i) = 1}|` on the data
/// (size n) and `k_c` on the candidate (size m), the score is `−max_c |a_c·m − k_c·n|`,
/// i.e. the fractional score times `n·m`. Candidates are the multisets of size m (order
/// does not matter for counting queries), `C(|X| + m − 1, m)` of them, enumerated in
/// lexicographic order of their sorted points.
///
/// # Privacy
/// ε-differentially private (pure) for data sets that differ in one replaced point. The
/// fractional score has sensitivity `1/n` (replacing a point changes each `c(D)` by at
/// most `1/n`, hence the maximum by at most `1/n`); in the integer units above the
/// sensitivity is `m`, which is what the [`ExponentialMechanism`] is built with. Sampling
/// is exact up to the mechanism's proven floating-point budget (paid out of ε); exact
/// output distributions are audited with `privpac-audit` on tiny domains.
///
/// # Sample complexity
/// By the exponential mechanism's utility (Dwork–Roth Theorem 3.11), with probability at
/// least `1 − β` the output's error is at most
/// `OPT_m + 2(ln N + ln(1/β))/(ε n)` with `N = C(|X|+m−1, m) ≤ |X|^m` candidates, where
/// `OPT_m` is the best error of any m-point database ([`Self::error_bound`]). By uniform
/// convergence a random m-subsample of D has error at most α/2 for
/// `m = O((VC(C)·ln(1/α) + ln(1/β))/α²)` (VC bound; O(VC/α²) with the optimal
/// Talagrand / Li–Long–Srinivasan bound), so `OPT_m ≤ α/2` and the error is at most α once
/// `n = O(m·ln|X|/(αε) + ln(1/β)/(αε)) = O(VC(C)·ln|X|·ln(1/α)/(α³ε) + ln(1/β)/(αε))`.
/// This is exactly the statement of Bun–Nissim–Stemmer Theorem 2.18: `n =
/// O(VC(C)·log|X|·log(1/α)/(α³ε) + log(1/β)/(αε))` with an output database of
/// `m = O(VC(C)·log(1/α)/α²)` points. The theorem is asymptotic; the constants in
/// [`Self::error_bound`] are the exponential mechanism's, for the m chosen here.
///
/// # Running time
/// `O(N·|C|)` to score all candidates (plus `O(|C|·|X|)` to tabulate labels), then O(N)
/// to sample. Exact enumeration is only attempted when `N` is at most the candidate limit
/// ([`DEFAULT_CANDIDATE_LIMIT`], settable) and `N·|C| ≤` [`SCORE_WORK_LIMIT`]; otherwise
/// a typed error states the size. This is the inefficient, information-theoretic sanitizer:
/// use it on tiny domains.
///
/// # Errors
/// Construction: [`Error::PureRequired`] for δ > 0, [`Error::InvalidParameter`] for
/// `m = 0`, [`Error::Mechanism`]. Sanitizing: [`Error::EmptyData`], [`Error::Class`] for a
/// point outside the domain, [`Error::TooLarge`] when the candidates, the score work or the
/// label table exceed their limits.
///
/// # Example
/// ```
/// use privpac_classes::Thresholds;
/// use privpac_accounting::Privacy;
/// use rand::SeedableRng;
/// use privpac_sanitizers::{BlumLigettRoth, Sanitizer, max_query_error};
///
/// let class = Thresholds::new(8)?;
/// let data: Vec<u64> = (0..4000).map(|i| (i % 5) as u64).collect(); // uniform on 0..5
/// let blr = BlumLigettRoth::new(Privacy::pure(1.0)?, 5)?;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
/// let synthetic = blr.sanitize(&class, &data, &mut rng)?;
/// let (error, _) = max_query_error(&class, &data, &synthetic)?;
/// assert!(error <= blr.error_bound(&class, &data, 1e-6)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # References
/// A. Blum, K. Ligett, A. Roth, "A learning theory approach to non-interactive database
/// privacy", STOC 2008. M. Bun, K. Nissim, U. Stemmer, "Simultaneous private learning of
/// multiple concepts", ITCS 2016.
#[derive(Debug, Clone, PartialEq)]
pub struct BlumLigettRoth {
    privacy: Privacy,
    database_size: usize,
    candidate_limit: u128,
    mechanism: ExponentialMechanism,
}

impl BlumLigettRoth {
    /// Builds the sanitizer producing databases of `database_size` points.
    ///
    /// # Errors
    /// See the type documentation.
    pub fn new(privacy: Privacy, database_size: usize) -> Result<Self> {
        if !privacy.is_pure() {
            return Err(Error::PureRequired {
                algorithm: "Blum-Ligett-Roth",
                delta: privacy.delta(),
            });
        }
        if database_size == 0 || database_size as u128 > DEFAULT_CANDIDATE_LIMIT {
            return Err(Error::InvalidParameter {
                name: "database size",
                requirement: "in 1..=2^20",
                value: database_size as f64,
            });
        }
        let mechanism = ExponentialMechanism::new(privacy, database_size as f64)?;
        Ok(BlumLigettRoth {
            privacy,
            database_size,
            candidate_limit: DEFAULT_CANDIDATE_LIMIT,
            mechanism,
        })
    }

    /// Sets the largest number of candidate databases that may be enumerated (capped at
    /// [`MAX_CANDIDATE_LIMIT`]).
    pub fn with_candidate_limit(mut self, limit: u128) -> Self {
        self.candidate_limit = limit.min(MAX_CANDIDATE_LIMIT);
        self
    }

    /// The size m of the output database.
    pub fn database_size(&self) -> usize {
        self.database_size
    }

    /// The number of candidate databases over `domain`, `C(|X| + m − 1, m)` (saturated at
    /// `u128::MAX`).
    pub fn candidate_count(&self, domain: &Domain) -> u128 {
        let m = self.database_size as u128;
        binomial(domain.size().saturating_add(m - 1), m)
    }

    /// The exact output distribution on `data`: every candidate multiset (sorted points)
    /// with its probability, in enumeration order. For audits and teaching.
    ///
    /// # Errors
    /// As for [`Sanitizer::sanitize`].
    pub fn output_distribution<C: ConceptClass + ?Sized>(
        &self,
        class: &C,
        data: &[Point],
    ) -> Result<Vec<(Vec<Point>, f64)>> {
        let table = self.scores(class, data)?;
        let probabilities = self.mechanism.log_probabilities_integer(&table.scores)?;
        let mut out = Vec::with_capacity(probabilities.len());
        let mut candidate = Candidates::new(table.n_points, self.database_size);
        for log_p in probabilities {
            out.push((table.points_of(candidate.current()), log_p.exp()));
            candidate.advance();
        }
        Ok(out)
    }

    /// `OPT_m + 2(ln N + ln(1/β))/(ε n)`: with probability at least `1 − β` the output's
    /// max query error on `data` is at most this (`OPT_m`, the best error of any candidate,
    /// is computed exactly by enumeration).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] unless `0 < β < 1`; otherwise as for
    /// [`Sanitizer::sanitize`].
    pub fn error_bound<C: ConceptClass + ?Sized>(
        &self,
        class: &C,
        data: &[Point],
        beta: f64,
    ) -> Result<f64> {
        if !(beta > 0.0 && beta < 1.0) {
            return Err(Error::InvalidParameter {
                name: "beta",
                requirement: "in (0, 1)",
                value: beta,
            });
        }
        let table = self.scores(class, data)?;
        let best = table.scores.iter().max().copied().unwrap_or(0);
        let n = data.len() as f64;
        let opt = best.unsigned_abs() as f64 / (n * self.database_size as f64);
        let candidates = table.scores.len() as f64;
        Ok(opt + 2.0 * (candidates.ln() + (1.0 / beta).ln()) / (self.privacy.epsilon() * n))
    }

    /// Scores every candidate.
    fn scores<C: ConceptClass + ?Sized>(&self, class: &C, data: &[Point]) -> Result<ScoreTable> {
        if data.is_empty() {
            return Err(Error::EmptyData);
        }
        let domain = class.domain();
        for &x in data {
            domain.check(x)?;
        }
        let m = self.database_size;
        let candidates = self.candidate_count(domain);
        if candidates > self.candidate_limit {
            return Err(Error::TooLarge {
                what: "Blum-Ligett-Roth candidate enumeration",
                needed: candidates,
                unit: "candidate databases (multisets of m points)",
                limit: self.candidate_limit,
            });
        }
        let concepts = class.len();
        let work = candidates.saturating_mul(concepts);
        if work > SCORE_WORK_LIMIT {
            return Err(Error::TooLarge {
                what: "Blum-Ligett-Roth scoring",
                needed: work,
                unit: "score evaluations (candidates × concepts)",
                limit: SCORE_WORK_LIMIT,
            });
        }
        let n_points = domain.size();
        let cells = concepts.saturating_mul(n_points);
        if cells > LABEL_TABLE_LIMIT {
            return Err(Error::TooLarge {
                what: "Blum-Ligett-Roth label table",
                needed: cells,
                unit: "cells (concepts × domain points)",
                limit: LABEL_TABLE_LIMIT,
            });
        }
        let (n_concepts, n_points) = (concepts as usize, n_points as usize);
        let n = data.len() as i128;
        let m_i = m as i128;
        if n.saturating_mul(m_i) > i128::from(i64::MAX) {
            return Err(Error::TooLarge {
                what: "Blum-Ligett-Roth integer scores",
                needed: (n * m_i) as u128,
                unit: "score units (n·m)",
                limit: i64::MAX as u128,
            });
        }
        let points: Vec<Point> = (0..n_points as u64)
            .map(|i| domain.point_at(i).unwrap_or(i))
            .collect();
        // labels[x][c] = c(x), column per domain point.
        let labels: Vec<Vec<bool>> = points
            .iter()
            .map(|&x| (0..n_concepts as u64).map(|c| class.eval(c, x)).collect())
            .collect();
        // a_c·m for the data: the data's count per domain point first, so the work is
        // O(n + |X|·|C|), not O(n·|C|).
        let mut point_counts = vec![0i128; n_points];
        for &x in data {
            point_counts[domain.index_of(x).unwrap_or(x) as usize] += 1;
        }
        let mut data_ones = vec![0i128; n_concepts];
        for (column, &count) in labels.iter().zip(&point_counts) {
            if count > 0 {
                add_column(&mut data_ones, column, count);
            }
        }
        let target: Vec<i128> = data_ones.iter().map(|a| a * m_i).collect();
        let mut ones = vec![0i128; n_concepts];
        let mut candidate = Candidates::new(n_points, m);
        for &index in candidate.current() {
            add_column(&mut ones, &labels[index], 1);
        }
        let mut scores = Vec::with_capacity(candidates as usize);
        loop {
            let worst = target
                .iter()
                .zip(&ones)
                .map(|(t, k)| (t - k * n).abs())
                .max()
                .unwrap_or(0);
            scores.push(-(worst as i64));
            let moved = candidate.advance_tracking(|old, new| {
                add_column(&mut ones, &labels[old], -1);
                add_column(&mut ones, &labels[new], 1);
            });
            if moved.is_none() {
                break;
            }
        }
        Ok(ScoreTable {
            n_points,
            points,
            scores,
        })
    }
}

/// Adds `weight` times a label column to the per-concept counts (±1 when a candidate gains
/// or loses a point, a point's data count for the data).
fn add_column(ones: &mut [i128], column: &[bool], weight: i128) {
    for (k, &label) in ones.iter_mut().zip(column) {
        *k += weight * i128::from(label);
    }
}

/// Scores of all candidates in enumeration order.
struct ScoreTable {
    n_points: usize,
    points: Vec<Point>,
    scores: Vec<i64>,
}

impl ScoreTable {
    /// The domain points of a candidate given by indices.
    fn points_of(&self, indices: &[usize]) -> Vec<Point> {
        indices.iter().map(|&i| self.points[i]).collect()
    }
}

/// Enumerates multisets of size m from `0..n_points` as non-decreasing index sequences, in
/// lexicographic order.
struct Candidates {
    n_points: usize,
    indices: Vec<usize>,
}

impl Candidates {
    fn new(n_points: usize, m: usize) -> Self {
        Candidates {
            n_points,
            indices: vec![0; m],
        }
    }

    fn current(&self) -> &[usize] {
        &self.indices
    }

    /// Moves to the next multiset; false after the last one.
    fn advance(&mut self) -> bool {
        self.advance_tracking(|_, _| {}).is_some()
    }

    /// Moves to the next multiset, reporting each changed position as (old index, new
    /// index); `None` after the last one (the state is then left unchanged).
    fn advance_tracking(&mut self, mut changed: impl FnMut(usize, usize)) -> Option<()> {
        let last = self.n_points.checked_sub(1)?;
        let position = self.indices.iter().rposition(|&i| i < last)?;
        let value = self.indices[position] + 1;
        for slot in &mut self.indices[position..] {
            changed(*slot, value);
            *slot = value;
        }
        Some(())
    }
}

impl Private for BlumLigettRoth {
    fn privacy(&self) -> Privacy {
        self.privacy
    }
}

impl Sanitizer for BlumLigettRoth {
    fn sanitize(
        &self,
        class: &dyn ConceptClass,
        data: &[Point],
        rng: &mut dyn Rng,
    ) -> Result<SyntheticDatabase> {
        let table = self.scores(class, data)?;
        let chosen = self.mechanism.select_integer(&table.scores, rng)?;
        let mut candidate = Candidates::new(table.n_points, self.database_size);
        for _ in 0..chosen {
            candidate.advance();
        }
        SyntheticDatabase::from_points(class.domain(), table.points_of(candidate.current()))
    }

    /// The refusal for domains whose candidate databases exceed the limit (so the XOR
    /// class is never built for them); `None` otherwise (the class path runs).
    fn sanitize_threshold_xor(
        &self,
        class: ThresholdStructure,
        _data: &[Point],
        _rng: &mut dyn Rng,
    ) -> Option<Result<crate::pieces::PiecewiseDistribution>> {
        self.candidate_refusal(class.domain_size()).map(Err)
    }

    /// The same refusal on `INTERVAL ⊕ INTERVAL` (its ids would run out first beyond 2^32
    /// points, but the candidate databases are what the algorithm cannot enumerate).
    fn sanitize_interval_xor(
        &self,
        size: u64,
        _data: &[Point],
        _rng: &mut dyn Rng,
    ) -> Option<Result<crate::IntervalXorSynthetic>> {
        self.candidate_refusal(size).map(Err)
    }

    fn name(&self) -> String {
        format!("blr(m={})", self.database_size)
    }
}

impl BlumLigettRoth {
    /// [`Error::TooLarge`] when the candidate databases over `[size]` exceed the limit.
    fn candidate_refusal(&self, size: u64) -> Option<Error> {
        let domain = Domain::ordered(size).ok()?;
        let candidates = self.candidate_count(&domain);
        (candidates > self.candidate_limit).then_some(Error::TooLarge {
            what: "Blum-Ligett-Roth candidate enumeration",
            needed: candidates,
            unit: "candidate databases (multisets of m points)",
            limit: self.candidate_limit,
        })
    }
}

#[cfg(test)]
mod tests {
    use privpac_classes::Thresholds;

    use super::*;
    use crate::synthetic::max_query_error;

    #[test]
    fn enumeration_visits_every_multiset_once() {
        let mut candidates = Candidates::new(4, 3);
        let mut seen = vec![candidates.current().to_vec()];
        while candidates.advance() {
            seen.push(candidates.current().to_vec());
        }
        assert_eq!(seen.len() as u128, binomial(6, 3));
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
        assert!(seen.iter().all(|s| s.windows(2).all(|w| w[0] <= w[1])));
        let mut single = Candidates::new(1, 5);
        assert!(!single.advance());
    }

    #[test]
    fn scores_are_the_scaled_max_query_errors() {
        let class = Thresholds::new(4).unwrap();
        let data = [0, 1, 1, 3, 2];
        let blr = BlumLigettRoth::new(Privacy::pure(1.0).unwrap(), 3).unwrap();
        let table = blr.scores(&class, &data).unwrap();
        let mut candidate = Candidates::new(4, 3);
        for &score in &table.scores {
            let db = SyntheticDatabase::from_points(
                class.domain(),
                table.points_of(candidate.current()),
            )
            .unwrap();
            let (error, _) = max_query_error(&class, &data, &db).unwrap();
            assert!((error - (-score) as f64 / 15.0).abs() < 1e-12);
            candidate.advance();
        }
    }
}
