//! `MultiLabeledSample`: n points of a domain with an n × k label matrix, bit-packed by
//! column, and the multi-learning error of Bun–Nissim–Stemmer 2016, Definitions 2.3, 2.4,
//! 2.9 and 2.10 (the maximum over the k columns of each hypothesis' error).

use privpac_classes::{ConceptClass, Domain, LabeledSample, Point};
use privpac_learners::Predictor;

use crate::error::{Error, Result};

/// A k-labeled database `S ∈ (X × {0,1}^k)^n` (Bun–Nissim–Stemmer 2016, Definition 2.2).
///
/// The labels are stored column-major and bit-packed: column `j` is `⌈n/64⌉` words, and
/// bit `i mod 64` of its word `i / 64` is the label `y_{i,j}` of point `i`. Bits past `n`
/// in the last word are zero. Any k ≥ 1 is accepted (k = 4096 over 10^4 points is 5 MB).
///
/// Validated at construction: k ≥ 1, every point in the domain, every row k labels. The
/// neighbouring relation of every multi-learner in this crate is "replace one whole row
/// `(x_i, y_{i,1}, …, y_{i,k})`" (Definition 2.15's neighbours), with n fixed.
///
/// # Example
/// ```
/// use privpac_classes::Domain;
/// use privpac_multi::MultiLabeledSample;
/// let domain = Domain::ordered(10)?;
/// let sample = MultiLabeledSample::from_rows(
///     &domain,
///     vec![3, 7],
///     &[vec![true, false, false], vec![false, false, true]],
/// )?;
/// assert_eq!((sample.len(), sample.k()), (2, 3));
/// assert!(sample.label(1, 2));
/// assert_eq!(sample.row(0), vec![true, false, false]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultiLabeledSample {
    domain: Domain,
    points: Vec<Point>,
    k: usize,
    words_per_column: usize,
    labels: Vec<u64>,
}

fn words_for(n: usize) -> usize {
    n.div_ceil(64)
}

impl MultiLabeledSample {
    /// From points and one label row per point (`rows[i][j] = y_{i,j}`); k is the length
    /// of the first row.
    ///
    /// # Errors
    /// [`Error::RowCount`] if there are not as many rows as points, [`Error::NoLabelColumns`]
    /// for an empty first row or no rows at all (k cannot be read),
    /// [`Error::RaggedRow`] for a row of another length, [`Error::Class`] for a point outside
    /// the domain.
    pub fn from_rows<R: AsRef<[bool]>>(
        domain: &Domain,
        points: Vec<Point>,
        rows: &[R],
    ) -> Result<Self> {
        if rows.len() != points.len() {
            return Err(Error::RowCount {
                points: points.len(),
                rows: rows.len(),
            });
        }
        let k = rows.first().map_or(0, |row| row.as_ref().len());
        if k == 0 {
            return Err(Error::NoLabelColumns);
        }
        for (row, labels) in rows.iter().enumerate() {
            let found = labels.as_ref().len();
            if found != k {
                return Err(Error::RaggedRow {
                    row,
                    expected: k,
                    found,
                });
            }
        }
        check_points(domain, &points)?;
        let n = points.len();
        let words_per_column = words_for(n);
        let mut labels = vec![0u64; k * words_per_column];
        for (i, row) in rows.iter().enumerate() {
            for (j, &y) in row.as_ref().iter().enumerate() {
                if y {
                    labels[j * words_per_column + i / 64] |= 1 << (i % 64);
                }
            }
        }
        Ok(MultiLabeledSample {
            domain: domain.clone(),
            points,
            k,
            words_per_column,
            labels,
        })
    }

    /// From points and k label columns (`columns[j][i] = y_{i,j}`).
    ///
    /// # Errors
    /// [`Error::NoLabelColumns`] for no columns, [`Error::RaggedColumn`] for a column whose
    /// length is not the number of points, [`Error::Class`] for a point outside the domain.
    pub fn from_columns<C: AsRef<[bool]>>(
        domain: &Domain,
        points: Vec<Point>,
        columns: &[C],
    ) -> Result<Self> {
        if columns.is_empty() {
            return Err(Error::NoLabelColumns);
        }
        let n = points.len();
        for (column, labels) in columns.iter().enumerate() {
            let found = labels.as_ref().len();
            if found != n {
                return Err(Error::RaggedColumn {
                    column,
                    expected: n,
                    found,
                });
            }
        }
        check_points(domain, &points)?;
        let words_per_column = words_for(n);
        let mut labels = vec![0u64; columns.len() * words_per_column];
        for (j, column) in columns.iter().enumerate() {
            let words = &mut labels[j * words_per_column..(j + 1) * words_per_column];
            for (i, &y) in column.as_ref().iter().enumerate() {
                if y {
                    words[i / 64] |= 1 << (i % 64);
                }
            }
        }
        Ok(MultiLabeledSample {
            domain: domain.clone(),
            points,
            k: columns.len(),
            words_per_column,
            labels,
        })
    }

    /// From points and a column-major bit matrix: `k·⌈n/64⌉` words, column `j` in words
    /// `j·⌈n/64⌉ ..`, label `y_{i,j}` at bit `i mod 64` of the column's word `i / 64`.
    /// Bits past `n` in each column's last word are ignored (cleared).
    ///
    /// # Errors
    /// [`Error::NoLabelColumns`] for k = 0, [`Error::BitMatrixLength`] for a wrong word
    /// count, [`Error::Class`] for a point outside the domain.
    pub fn from_bit_columns(
        domain: &Domain,
        points: Vec<Point>,
        k: usize,
        mut words: Vec<u64>,
    ) -> Result<Self> {
        if k == 0 {
            return Err(Error::NoLabelColumns);
        }
        let n = points.len();
        let words_per_column = words_for(n);
        let expected = k.checked_mul(words_per_column);
        if expected != Some(words.len()) {
            return Err(Error::BitMatrixLength {
                k,
                n,
                expected: expected.unwrap_or(usize::MAX),
                found: words.len(),
            });
        }
        check_points(domain, &points)?;
        if !n.is_multiple_of(64) {
            let keep = (1u64 << (n % 64)) - 1;
            for column in words.chunks_mut(words_per_column) {
                if let Some(last) = column.last_mut() {
                    *last &= keep;
                }
            }
        }
        Ok(MultiLabeledSample {
            domain: domain.clone(),
            points,
            k,
            words_per_column,
            labels: words,
        })
    }

    /// Labels `points` with the concepts `targets` of `class` (`y_{i,j} = c_{targets[j]}(x_i)`):
    /// the realizable k-labeled sample of Definition 2.3.
    ///
    /// # Errors
    /// [`Error::NoLabelColumns`] for no targets, [`Error::Class`] for a target id outside
    /// the class or a point outside its domain.
    pub fn label_with(
        class: &dyn ConceptClass,
        points: Vec<Point>,
        targets: &[u64],
    ) -> Result<Self> {
        if targets.is_empty() {
            return Err(Error::NoLabelColumns);
        }
        for &id in targets {
            privpac_classes::check_concept(class, id)?;
        }
        check_points(class.domain(), &points)?;
        let n = points.len();
        let words_per_column = words_for(n);
        let mut labels = vec![0u64; targets.len() * words_per_column];
        for (j, &id) in targets.iter().enumerate() {
            let words = &mut labels[j * words_per_column..(j + 1) * words_per_column];
            for (i, &x) in points.iter().enumerate() {
                if class.eval(id, x) {
                    words[i / 64] |= 1 << (i % 64);
                }
            }
        }
        Ok(MultiLabeledSample {
            domain: class.domain().clone(),
            points,
            k: targets.len(),
            words_per_column,
            labels,
        })
    }

    /// The domain the points belong to.
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// The points `x_1, …, x_n`.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// n, the number of examples.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether n = 0.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// k, the number of label columns.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The label `y_{i,j}`; false for indices out of range.
    pub fn label(&self, i: usize, j: usize) -> bool {
        if i >= self.len() || j >= self.k {
            return false;
        }
        self.labels[j * self.words_per_column + i / 64] >> (i % 64) & 1 == 1
    }

    /// Column `j` as `⌈n/64⌉` packed words (empty for `j ≥ k`).
    pub fn column_words(&self, j: usize) -> &[u64] {
        if j >= self.k {
            return &[];
        }
        &self.labels[j * self.words_per_column..(j + 1) * self.words_per_column]
    }

    /// The whole column-major bit matrix (k columns of `⌈n/64⌉` words).
    pub fn bit_columns(&self) -> &[u64] {
        &self.labels
    }

    /// Row i's k labels (empty for `i ≥ n`).
    pub fn row(&self, i: usize) -> Vec<bool> {
        if i >= self.len() {
            return Vec::new();
        }
        (0..self.k).map(|j| self.label(i, j)).collect()
    }

    /// The single-label sample `S|_j = ((x_i, y_{i,j}))_i` of column j.
    ///
    /// # Errors
    /// [`Error::LabelCountMismatch`] for `j ≥ k`.
    pub fn column(&self, j: usize) -> Result<LabeledSample> {
        if j >= self.k {
            return Err(Error::LabelCountMismatch {
                expected: j + 1,
                found: self.k,
            });
        }
        // Unpacked word by word (the column's words hold exactly its n labels).
        let labels = self
            .column_words(j)
            .iter()
            .flat_map(|&word| (0..64).map(move |bit| word >> bit & 1 == 1))
            .take(self.len())
            .collect();
        Ok(LabeledSample::new(
            &self.domain,
            self.points.clone(),
            labels,
        )?)
    }

    /// Up to 64 labels of column `j` for rows `start, start+1, …` packed into one word
    /// (bit r is row `start + r`; rows past n and columns past k read as 0).
    pub fn column_bits(&self, j: usize, start: usize) -> u64 {
        if j >= self.k {
            return 0;
        }
        let column = self.column_words(j);
        let word = start / 64;
        let offset = start % 64;
        let low = column.get(word).copied().unwrap_or(0) >> offset;
        if offset == 0 {
            low
        } else {
            low | column.get(word + 1).copied().unwrap_or(0) << (64 - offset)
        }
    }
}

/// [`Error::DomainMismatch`] unless the sample lives on the class's domain.
pub(crate) fn check_domains(class: &dyn ConceptClass, sample: &MultiLabeledSample) -> Result<()> {
    if class.domain() != sample.domain() {
        return Err(Error::DomainMismatch {
            sample: sample.domain().to_string(),
            class: class.domain().to_string(),
        });
    }
    Ok(())
}

/// Checks that a learner built for `k` columns gets a sample with k columns over the class's
/// domain.
///
/// # Errors
/// [`Error::LabelCountMismatch`]; [`Error::DomainMismatch`].
pub(crate) fn check_columns_and_domain(
    class: &dyn ConceptClass,
    sample: &MultiLabeledSample,
    k: usize,
) -> Result<()> {
    if sample.k() != k {
        return Err(Error::LabelCountMismatch {
            expected: k,
            found: sample.k(),
        });
    }
    check_domains(class, sample)
}

fn check_points(domain: &Domain, points: &[Point]) -> Result<()> {
    for &x in points {
        domain.check(x)?;
    }
    Ok(())
}

/// The error of each hypothesis against its target under an explicit distribution:
/// `error_D(c_j, h_j) = Σ_x D(x)·|Pr[h_j(x) = 1] − c_j(x)|` (Definition 2.1; exact, and the
/// expected error for randomized hypotheses). `distribution` lists `(x, D(x))`; unlisted
/// points have probability 0.
///
/// # Errors
/// [`Error::HypothesisCount`] if `hypotheses` and `targets` differ in length,
/// [`Error::NoLabelColumns`] for none, [`Error::Class`] for a target outside the class or a
/// point outside its domain, [`Error::InvalidParameter`] for a negative or non-finite
/// probability or total mass not within 10^-9 of 1.
pub fn column_errors(
    class: &dyn ConceptClass,
    hypotheses: &[Predictor],
    targets: &[u64],
    distribution: &[(Point, f64)],
) -> Result<Vec<f64>> {
    if hypotheses.len() != targets.len() {
        return Err(Error::HypothesisCount {
            expected: targets.len(),
            found: hypotheses.len(),
        });
    }
    if targets.is_empty() {
        return Err(Error::NoLabelColumns);
    }
    for &id in targets {
        privpac_classes::check_concept(class, id)?;
    }
    let mut total = 0.0;
    for &(x, p) in distribution {
        class.domain().check(x)?;
        if !(p.is_finite() && p >= 0.0) {
            return Err(Error::InvalidParameter {
                name: "probability",
                requirement: "finite and >= 0",
                value: p,
            });
        }
        total += p;
    }
    if (total - 1.0).abs() > 1e-9 {
        return Err(Error::InvalidParameter {
            name: "total probability",
            requirement: "1",
            value: total,
        });
    }
    Ok(hypotheses
        .iter()
        .zip(targets)
        .map(|(h, &id)| {
            distribution
                .iter()
                .map(|&(x, p)| {
                    let truth = if class.eval(id, x) { 1.0 } else { 0.0 };
                    p * (h.probability_of_one(class, x) - truth).abs()
                })
                .sum()
        })
        .collect())
}

/// The multi-learning error of Definition 2.3: `max_j error_D(c_j, h_j)`, exact over the
/// listed distribution (see [`column_errors`]).
///
/// # Errors
/// As for [`column_errors`].
pub fn multi_error(
    class: &dyn ConceptClass,
    hypotheses: &[Predictor],
    targets: &[u64],
    distribution: &[(Point, f64)],
) -> Result<f64> {
    Ok(column_errors(class, hypotheses, targets, distribution)?
        .into_iter()
        .fold(0.0, f64::max))
}

/// The most `|C| × (support size)` evaluations [`agnostic_multi_error`] performs.
pub const AGNOSTIC_ERROR_WORK_LIMIT: u128 = 1 << 28;

/// The agnostic multi-learning error of Definition 2.4, exact: for a distribution P over
/// `X × {0,1}^k` listed as `(x, labels, P(x, labels))`,
/// `max_j (error_{P_j}(h_j) − min_{c ∈ C} error_{P_j}(c))` with
/// `error_{P_j}(h) = Σ P(x, y)·|Pr[h(x) = 1] − y_j|`. The minimum over C is taken by
/// evaluating every concept on the support.
///
/// # Errors
/// [`Error::HypothesisCount`] unless every row and the hypotheses have the same k ≥ 1
/// ([`Error::RaggedRow`] for a row of another length), [`Error::Class`] for a point outside
/// the domain, [`Error::InvalidParameter`] for a bad probability, a total mass not within
/// 10^-9 of 1, or more than [`AGNOSTIC_ERROR_WORK_LIMIT`] evaluations.
pub fn agnostic_multi_error(
    class: &dyn ConceptClass,
    hypotheses: &[Predictor],
    joint: &[(Point, Vec<bool>, f64)],
) -> Result<f64> {
    let k = hypotheses.len();
    if k == 0 {
        return Err(Error::NoLabelColumns);
    }
    let mut total = 0.0;
    for (row, (x, labels, p)) in joint.iter().enumerate() {
        class.domain().check(*x)?;
        if labels.len() != k {
            return Err(Error::RaggedRow {
                row,
                expected: k,
                found: labels.len(),
            });
        }
        if !(p.is_finite() && *p >= 0.0) {
            return Err(Error::InvalidParameter {
                name: "probability",
                requirement: "finite and >= 0",
                value: *p,
            });
        }
        total += p;
    }
    if (total - 1.0).abs() > 1e-9 {
        return Err(Error::InvalidParameter {
            name: "total probability",
            requirement: "1",
            value: total,
        });
    }
    let work = class.len().saturating_mul(joint.len() as u128);
    if work > AGNOSTIC_ERROR_WORK_LIMIT {
        return Err(Error::InvalidParameter {
            name: "|C| x support size",
            requirement: "at most 2^28",
            value: work as f64,
        });
    }
    let error_of = |j: usize, label_of: &dyn Fn(Point) -> f64| -> f64 {
        joint
            .iter()
            .map(|(x, labels, p)| p * (label_of(*x) - if labels[j] { 1.0 } else { 0.0 }).abs())
            .sum()
    };
    let mut worst = f64::NEG_INFINITY;
    for (j, h) in hypotheses.iter().enumerate() {
        let mine = error_of(j, &|x| h.probability_of_one(class, x));
        let best = (0..class.len() as u64)
            .map(|id| error_of(j, &|x| if class.eval(id, x) { 1.0 } else { 0.0 }))
            .fold(f64::INFINITY, f64::min);
        worst = worst.max(mine - best);
    }
    Ok(worst)
}

fn check_hypotheses(sample: &MultiLabeledSample, hypotheses: &[Predictor]) -> Result<()> {
    if hypotheses.len() != sample.k() {
        return Err(Error::HypothesisCount {
            expected: sample.k(),
            found: hypotheses.len(),
        });
    }
    if sample.is_empty() {
        return Err(Error::EmptySample);
    }
    Ok(())
}

/// The empirical multi-learning error of Definition 2.9: `max_j error_{S|_j}(h_j)`, with
/// `error_{S|_j}(h) = (1/n)·Σ_i |Pr[h(x_i) = 1] − y_{i,j}|`.
///
/// # Errors
/// [`Error::HypothesisCount`] unless there are k hypotheses, [`Error::EmptySample`].
pub fn empirical_multi_error(
    class: &dyn ConceptClass,
    hypotheses: &[Predictor],
    sample: &MultiLabeledSample,
) -> Result<f64> {
    check_hypotheses(sample, hypotheses)?;
    let n = sample.len() as f64;
    let mut worst: f64 = 0.0;
    for (j, h) in hypotheses.iter().enumerate() {
        let mistakes: f64 = sample
            .points()
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let y = if sample.label(i, j) { 1.0 } else { 0.0 };
                (h.probability_of_one(class, x) - y).abs()
            })
            .sum();
        worst = worst.max(mistakes / n);
    }
    Ok(worst)
}

/// The agnostic empirical multi-learning error of Definition 2.10:
/// `max_j (error_{S|_j}(h_j) − min_{c ∈ C} error_{S|_j}(c))`, the best concept found
/// exactly from the class's error profile ([`ConceptClass::error_runs`]).
///
/// # Errors
/// As for [`empirical_multi_error`], and the class's errors (domain, profile limits).
pub fn empirical_excess_multi_error(
    class: &dyn ConceptClass,
    hypotheses: &[Predictor],
    sample: &MultiLabeledSample,
) -> Result<f64> {
    check_hypotheses(sample, hypotheses)?;
    let n = sample.len() as f64;
    let mut worst = f64::NEG_INFINITY;
    for (j, h) in hypotheses.iter().enumerate() {
        let column = sample.column(j)?;
        let best = class
            .error_runs(&column)?
            .iter()
            .map(|run| run.errors)
            .min()
            .unwrap_or(0) as f64;
        let mistakes: f64 = column
            .iter()
            .map(|(x, y)| (h.probability_of_one(class, x) - if y { 1.0 } else { 0.0 }).abs())
            .sum();
        worst = worst.max((mistakes - best) / n);
    }
    Ok(worst)
}

#[cfg(test)]
mod tests {
    use privpac_classes::{Hypothesis, Parities, Points};
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn constructors_agree() {
        let domain = Domain::ordered(300).unwrap();
        let points: Vec<u64> = (0..130).map(|i| (i * 7) % 300).collect();
        let rows: Vec<Vec<bool>> = (0..130)
            .map(|i| (0..5).map(|j| (i * 3 + j * 5) % 7 < 3).collect())
            .collect();
        let columns: Vec<Vec<bool>> = (0..5)
            .map(|j| rows.iter().map(|r| r[j]).collect())
            .collect();
        let a = MultiLabeledSample::from_rows(&domain, points.clone(), &rows).unwrap();
        let b = MultiLabeledSample::from_columns(&domain, points.clone(), &columns).unwrap();
        let mut words = a.bit_columns().to_vec();
        words[2] |= 1 << 63; // padding bit past n = 130 must be cleared
        let c = MultiLabeledSample::from_bit_columns(&domain, points, 5, words).unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(&a.row(i), row);
        }
        for (j, column) in columns.iter().enumerate() {
            assert_eq!(a.column(j).unwrap().labels().to_vec(), *column);
            assert_eq!(a.column(j).unwrap().points(), a.points());
        }
    }

    #[test]
    fn malformed_input_gives_typed_errors() {
        let domain = Domain::ordered(4).unwrap();
        let ragged =
            MultiLabeledSample::from_rows(&domain, vec![0, 1], &[vec![true, false], vec![true]]);
        assert_eq!(
            ragged,
            Err(Error::RaggedRow {
                row: 1,
                expected: 2,
                found: 1
            })
        );
        let no_columns: [Vec<bool>; 0] = [];
        assert_eq!(
            MultiLabeledSample::from_columns(&domain, vec![0], &no_columns),
            Err(Error::NoLabelColumns)
        );
        assert_eq!(
            MultiLabeledSample::from_rows(&domain, vec![0], &[Vec::<bool>::new()]),
            Err(Error::NoLabelColumns)
        );
        assert_eq!(
            MultiLabeledSample::from_bit_columns(&domain, vec![0], 0, vec![]),
            Err(Error::NoLabelColumns)
        );
        assert_eq!(
            MultiLabeledSample::from_columns(&domain, vec![0, 1], &[vec![true]]),
            Err(Error::RaggedColumn {
                column: 0,
                expected: 2,
                found: 1
            })
        );
        assert_eq!(
            MultiLabeledSample::from_rows(&domain, vec![0, 1], &[vec![true]]),
            Err(Error::RowCount { points: 2, rows: 1 })
        );
        assert!(matches!(
            MultiLabeledSample::from_bit_columns(&domain, vec![0, 1], 3, vec![0, 0]),
            Err(Error::BitMatrixLength {
                expected: 3,
                found: 2,
                ..
            })
        ));
        assert!(matches!(
            MultiLabeledSample::from_rows(&domain, vec![9], &[vec![true]]),
            Err(Error::Class(_))
        ));
    }

    #[test]
    fn exact_and_empirical_errors() {
        let class = Points::new(Domain::ordered(4).unwrap());
        let targets = [1, 2];
        let hypotheses: [Predictor; 2] = [
            Hypothesis::Concept { id: 1 }.into(),
            Hypothesis::Constant { label: false }.into(),
        ];
        let uniform: Vec<(u64, f64)> = (0..4).map(|x| (x, 0.25)).collect();
        assert_eq!(
            column_errors(&class, &hypotheses, &targets, &uniform).unwrap(),
            vec![0.0, 0.25]
        );
        assert_eq!(
            multi_error(&class, &hypotheses, &targets, &uniform).unwrap(),
            0.25
        );
        let sample = MultiLabeledSample::label_with(&class, vec![0, 2, 2, 3], &targets).unwrap();
        assert_eq!(
            empirical_multi_error(&class, &hypotheses, &sample).unwrap(),
            0.5
        );
        assert_eq!(
            empirical_excess_multi_error(&class, &hypotheses, &sample).unwrap(),
            0.5
        );
        assert!(matches!(
            multi_error(&class, &hypotheses[..1], &targets, &uniform),
            Err(Error::HypothesisCount {
                expected: 2,
                found: 1
            })
        ));
        let half = [(0, 0.5)];
        assert!(matches!(
            multi_error(&class, &hypotheses, &targets, &half),
            Err(Error::InvalidParameter { .. })
        ));
    }

    #[test]
    fn agnostic_error_subtracts_the_best_concept() {
        let class = Points::new(Domain::ordered(3).unwrap());
        // Column 0 is noisy around c_1; column 1 is exactly c_2.
        let joint = vec![
            (1, vec![true, false], 0.4),
            (1, vec![false, false], 0.1),
            (2, vec![false, true], 0.3),
            (0, vec![false, false], 0.2),
        ];
        let hypotheses: [Predictor; 2] = [
            Hypothesis::Concept { id: 1 }.into(),
            Hypothesis::Constant { label: false }.into(),
        ];
        // h_1 = c_1 is optimal for column 0 (excess 0); h_2 = 0 errs 0.3 where c_2 errs 0.
        let excess = agnostic_multi_error(&class, &hypotheses, &joint).unwrap();
        assert!((excess - 0.3).abs() < 1e-12, "{excess}");
        let ragged = vec![(1, vec![true], 1.0)];
        assert!(matches!(
            agnostic_multi_error(&class, &hypotheses, &ragged),
            Err(Error::RaggedRow { .. })
        ));
    }

    #[test]
    fn parities_label_like_the_class() {
        let class = Parities::new(6).unwrap();
        let points: Vec<u64> = (0..64).collect();
        let sample = MultiLabeledSample::label_with(&class, points, &[5, 63]).unwrap();
        for i in 0..64 {
            assert_eq!(sample.label(i, 0), (i as u64 & 5).count_ones() % 2 == 1);
            assert_eq!(sample.label(i, 1), (i as u64).count_ones() % 2 == 1);
        }
    }

    proptest! {
        #[test]
        fn column_bits_reads_any_window(n in 1usize..300, start in 0usize..320, seed in any::<u64>()) {
            let domain = Domain::ordered(1000).unwrap();
            let points: Vec<u64> = (0..n as u64).collect();
            let column: Vec<bool> = (0..n).map(|i| (seed >> (i % 64)) & 1 == 1 || i % 7 == 3).collect();
            let sample = MultiLabeledSample::from_columns(&domain, points, std::slice::from_ref(&column)).unwrap();
            let word = sample.column_bits(0, start);
            for r in 0..64 {
                let expected = column.get(start + r).copied().unwrap_or(false);
                prop_assert_eq!((word >> r) & 1 == 1, expected);
            }
        }
    }
}
