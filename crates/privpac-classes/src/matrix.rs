//! `ClassMatrix`: an explicit concept class as a bit matrix (concepts × points), with both
//! row and column bit-packing, parsing from text, dichotomies, the growth function and the
//! Sauer–Shelah bound.
//!
//! Rows are concepts and columns are points `0..n_points`. Both orientations are stored:
//! rows for evaluating a concept, columns as bitsets *over concepts* (`column(x)` has bit
//! `c` set when concept `c` labels `x` with 1), which is what version-space algorithms
//! need: the concepts of a version space `V` that label `x` with 1 are `V & column(x)`.

use std::collections::HashMap;

use crate::combinatorics::{binomial, next_combination};
use crate::error::{Error, Result};

/// Default limit on materialized cells (concepts × points): 2^28 cells, 64 MiB per
/// orientation.
pub const DEFAULT_CELL_LIMIT: u128 = 1 << 28;

/// An explicit concept class over the points `0..n_points`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassMatrix {
    n_concepts: usize,
    n_points: usize,
    row_words: usize,
    column_words: usize,
    rows: Vec<u64>,
    columns: Vec<u64>,
}

impl ClassMatrix {
    /// Builds a matrix from a cell function `f(concept, point)`.
    ///
    /// # Errors
    /// [`Error::EmptyMatrix`] for zero concepts or points; [`Error::TooLarge`] above
    /// `cell_limit` cells.
    pub fn from_fn(
        n_concepts: usize,
        n_points: usize,
        cell_limit: u128,
        mut f: impl FnMut(usize, usize) -> bool,
    ) -> Result<Self> {
        if n_concepts == 0 || n_points == 0 {
            return Err(Error::EmptyMatrix);
        }
        let cells = n_concepts as u128 * n_points as u128;
        if cells > cell_limit {
            return Err(Error::TooLarge {
                what: "class matrix",
                needed: cells,
                unit: "cells",
                limit: cell_limit,
            });
        }
        let row_words = n_points.div_ceil(64);
        let column_words = n_concepts.div_ceil(64);
        let mut rows = vec![0u64; n_concepts * row_words];
        let mut columns = vec![0u64; n_points * column_words];
        for c in 0..n_concepts {
            for x in 0..n_points {
                if f(c, x) {
                    rows[c * row_words + x / 64] |= 1 << (x % 64);
                    columns[x * column_words + c / 64] |= 1 << (c % 64);
                }
            }
        }
        Ok(ClassMatrix {
            n_concepts,
            n_points,
            row_words,
            column_words,
            rows,
            columns,
        })
    }

    /// Builds a matrix from rows of booleans.
    ///
    /// # Errors
    /// [`Error::EmptyMatrix`], [`Error::RaggedMatrix`] (line numbers count rows from 1),
    /// [`Error::TooLarge`].
    pub fn from_rows(rows: &[Vec<bool>]) -> Result<Self> {
        let n_points = rows.first().map_or(0, Vec::len);
        for (i, row) in rows.iter().enumerate() {
            if row.len() != n_points {
                return Err(Error::RaggedMatrix {
                    line: i + 1,
                    expected: n_points,
                    found: row.len(),
                });
            }
        }
        ClassMatrix::from_fn(rows.len(), n_points, DEFAULT_CELL_LIMIT, |c, x| rows[c][x])
    }

    /// Parses the text format: one concept per line, its 0/1 values over the domain either
    /// separated by commas (`0,1,1,0`) or written together (`0110`). Blank lines and lines
    /// starting with `#` are skipped; surrounding whitespace is ignored.
    ///
    /// # Errors
    /// [`Error::BadMatrixCell`] and [`Error::RaggedMatrix`] name the line and cell at
    /// fault; [`Error::EmptyMatrix`] when there is no row.
    pub fn parse(text: &str) -> Result<Self> {
        let mut rows: Vec<Vec<bool>> = Vec::new();
        let mut expected = None;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let cells: Vec<&str> = if trimmed.contains(',') {
                trimmed.split(',').map(str::trim).collect()
            } else {
                trimmed
                    .char_indices()
                    .map(|(i, ch)| &trimmed[i..i + ch.len_utf8()])
                    .collect()
            };
            let mut row = Vec::with_capacity(cells.len());
            for (cell_index, cell) in cells.iter().enumerate() {
                row.push(match *cell {
                    "0" => false,
                    "1" => true,
                    other => {
                        return Err(Error::BadMatrixCell {
                            line,
                            cell: cell_index + 1,
                            value: other.to_string(),
                        });
                    }
                });
            }
            match expected {
                None => expected = Some(row.len()),
                Some(n) if n != row.len() => {
                    return Err(Error::RaggedMatrix {
                        line,
                        expected: n,
                        found: row.len(),
                    });
                }
                Some(_) => {}
            }
            rows.push(row);
        }
        if rows.is_empty() {
            return Err(Error::EmptyMatrix);
        }
        ClassMatrix::from_rows(&rows)
    }

    /// Number of concepts (rows).
    pub fn n_concepts(&self) -> usize {
        self.n_concepts
    }

    /// Number of points (columns).
    pub fn n_points(&self) -> usize {
        self.n_points
    }

    /// `c(x)`. Panics if out of range (internal indices only; public callers use
    /// validated indices).
    #[inline]
    pub fn get(&self, concept: usize, point: usize) -> bool {
        self.rows[concept * self.row_words + point / 64] >> (point % 64) & 1 == 1
    }

    /// Concept `c` as a bitset over points (`n_points.div_ceil(64)` words).
    #[inline]
    pub fn row(&self, concept: usize) -> &[u64] {
        &self.rows[concept * self.row_words..(concept + 1) * self.row_words]
    }

    /// Point `x` as a bitset over concepts (`n_concepts.div_ceil(64)` words): bit `c` is
    /// `c(x)`.
    #[inline]
    pub fn column(&self, point: usize) -> &[u64] {
        &self.columns[point * self.column_words..(point + 1) * self.column_words]
    }

    /// Words per column bitset (`n_concepts.div_ceil(64)`).
    pub fn column_words(&self) -> usize {
        self.column_words
    }

    /// Words per row bitset (`n_points.div_ceil(64)`).
    pub fn row_words(&self) -> usize {
        self.row_words
    }

    /// The matrix with the given row and column orders (row `i` of the result is row
    /// `concept_order[i]`, column `j` is column `point_order[j]`).
    ///
    /// # Errors
    /// [`Error::InvalidClass`] unless both orders are permutations of the right length.
    pub fn permuted(&self, concept_order: &[usize], point_order: &[usize]) -> Result<Self> {
        if !is_permutation(concept_order, self.n_concepts)
            || !is_permutation(point_order, self.n_points)
        {
            return Err(Error::InvalidClass {
                reason: "permutation has the wrong length or repeats an index".into(),
            });
        }
        ClassMatrix::from_fn(self.n_concepts, self.n_points, u128::MAX, |c, x| {
            self.get(concept_order[c], point_order[x])
        })
    }

    /// The distinct rows, in order of first appearance, and for each original row the
    /// index of its distinct representative.
    pub fn distinct_rows(&self) -> (ClassMatrix, Vec<usize>) {
        let mut seen: HashMap<&[u64], usize> = HashMap::new();
        let mut keep = Vec::new();
        let mut map = Vec::with_capacity(self.n_concepts);
        for c in 0..self.n_concepts {
            let next = seen.len();
            let id = *seen.entry(self.row(c)).or_insert_with(|| {
                keep.push(c);
                next
            });
            map.push(id);
        }
        let distinct = ClassMatrix::from_fn(keep.len(), self.n_points, u128::MAX, |c, x| {
            self.get(keep[c], x)
        })
        .unwrap_or_else(|_| self.clone());
        (distinct, map)
    }

    /// The projection Π_C(B) of the class on the points `points`: one entry per distinct
    /// labeling (dichotomy), with the labeling (bit `i` = label of `points[i]`) and the
    /// first concept that realizes it, in order of first appearance.
    ///
    /// # Errors
    /// [`Error::PointOutsideDomain`] for a point `≥ n_points`; [`Error::TooLarge`] for
    /// more than 64 points (labelings are packed in a `u64`).
    pub fn dichotomies(&self, points: &[usize]) -> Result<Vec<Dichotomy>> {
        self.check_points(points)?;
        let mut seen: HashMap<u64, usize> = HashMap::new();
        let mut out = Vec::new();
        for c in 0..self.n_concepts {
            let mut pattern = 0u64;
            for (i, &x) in points.iter().enumerate() {
                pattern |= (self.get(c, x) as u64) << i;
            }
            if let std::collections::hash_map::Entry::Vacant(slot) = seen.entry(pattern) {
                slot.insert(out.len());
                out.push(Dichotomy {
                    labeling: pattern,
                    representative: c,
                });
            }
        }
        Ok(out)
    }

    /// The growth function Π_C(m): the largest number of dichotomies on any `m` points,
    /// by exhaustive search over the `C(n, m)` subsets, together with a subset attaining
    /// it.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if `m > 64`, `m > n_points`, or more than `subset_limit`
    /// subsets would be examined.
    pub fn growth_function(&self, m: usize, subset_limit: u128) -> Result<(u128, Vec<usize>)> {
        if m > 64 || m > self.n_points {
            return Err(Error::TooLarge {
                what: "growth function",
                needed: m as u128,
                unit: "points",
                limit: self.n_points.min(64) as u128,
            });
        }
        let subsets = binomial(self.n_points as u128, m as u128);
        if subsets > subset_limit {
            return Err(Error::TooLarge {
                what: "growth function",
                needed: subsets,
                unit: "subsets",
                limit: subset_limit,
            });
        }
        let mut best = (0u128, Vec::new());
        let mut subset: Vec<usize> = (0..m).collect();
        loop {
            let count = self.dichotomies(&subset)?.len() as u128;
            if count > best.0 {
                best = (count, subset.clone());
                if count == 1u128 << m.min(127) || count == self.n_concepts as u128 {
                    break; // cannot do better
                }
            }
            if !next_combination(&mut subset, self.n_points) {
                break;
            }
        }
        Ok(best)
    }

    fn check_points(&self, points: &[usize]) -> Result<()> {
        if points.len() > 64 {
            return Err(Error::TooLarge {
                what: "projection",
                needed: points.len() as u128,
                unit: "points",
                limit: 64,
            });
        }
        if let Some(&bad) = points.iter().find(|&&x| x >= self.n_points) {
            return Err(Error::PointOutsideDomain {
                point: bad as u64,
                domain: format!("0 ≤ point < {}", self.n_points),
            });
        }
        Ok(())
    }
}

/// One labeling of a set of points realized by the class, with a concept realizing it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dichotomy {
    /// Bit `i` is the label of the `i`-th point of the projected set.
    pub labeling: u64,
    /// The first concept (row index) with this labeling.
    pub representative: usize,
}

/// The Sauer–Shelah bound: a class of VC dimension `d` has at most `Σ_{i=0}^{d} C(m, i)`
/// dichotomies on `m` points (Sauer 1972; Shelah 1972). Saturates at `u128::MAX`.
pub fn sauer_shelah_bound(vc_dimension: u32, m: u64) -> u128 {
    (0..=u64::from(vc_dimension).min(m))
        .map(|i| binomial(m as u128, i as u128))
        .fold(0u128, u128::saturating_add)
}

fn is_permutation(order: &[usize], n: usize) -> bool {
    if order.len() != n {
        return false;
    }
    let mut seen = vec![false; n];
    for &i in order {
        if i >= n || seen[i] {
            return false;
        }
        seen[i] = true;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_row_formats_and_reports_bad_lines() {
        let m = ClassMatrix::parse("# thresholds\n0,1,1\n011\n\n 1 , 1 , 1 \n").unwrap();
        assert_eq!((m.n_concepts(), m.n_points()), (3, 3));
        assert!(!m.get(0, 0) && m.get(0, 1) && m.get(2, 0));
        assert_eq!(
            ClassMatrix::parse("01\n012\n"),
            Err(Error::BadMatrixCell {
                line: 2,
                cell: 3,
                value: "2".into()
            })
        );
        assert_eq!(
            ClassMatrix::parse("01\n011\n"),
            Err(Error::RaggedMatrix {
                line: 2,
                expected: 2,
                found: 3
            })
        );
        assert_eq!(ClassMatrix::parse("# nothing\n\n"), Err(Error::EmptyMatrix));
        assert_eq!(
            ClassMatrix::parse("0,x\n"),
            Err(Error::BadMatrixCell {
                line: 1,
                cell: 2,
                value: "x".into()
            })
        );
    }

    #[test]
    fn rows_and_columns_agree() {
        let m = ClassMatrix::from_fn(70, 130, DEFAULT_CELL_LIMIT, |c, x| (c * 7 + x * 3) % 5 == 0)
            .unwrap();
        for c in 0..70 {
            for x in 0..130 {
                let from_column = m.column(x)[c / 64] >> (c % 64) & 1 == 1;
                assert_eq!(m.get(c, x), from_column);
            }
        }
        let all = m.all_concepts();
        assert_eq!(
            all.as_words().iter().map(|w| w.count_ones()).sum::<u32>(),
            70
        );
    }

    #[test]
    fn size_limit_is_a_typed_error() {
        let err = ClassMatrix::from_fn(1 << 20, 1 << 20, DEFAULT_CELL_LIMIT, |_, _| false);
        assert!(matches!(err, Err(Error::TooLarge { .. })));
    }

    #[test]
    fn dichotomies_and_growth_of_thresholds() {
        // Thresholds c_t(y) = 1 iff y ≤ t over 5 points: t + 1 dichotomies on t points.
        let m = ClassMatrix::from_fn(5, 5, DEFAULT_CELL_LIMIT, |t, y| y <= t).unwrap();
        assert_eq!(m.dichotomies(&[1, 3]).unwrap().len(), 3);
        let (growth, witness) = m.growth_function(2, 1000).unwrap();
        assert_eq!(growth, 3);
        assert_eq!(witness.len(), 2);
        assert_eq!(m.growth_function(1, 1000).unwrap().0, 2);
        assert!(sauer_shelah_bound(1, 2) >= growth);
        assert!(matches!(
            m.dichotomies(&[7]),
            Err(Error::PointOutsideDomain { .. })
        ));
    }

    #[test]
    fn sauer_shelah_and_binomials() {
        assert_eq!(sauer_shelah_bound(2, 4), 1 + 4 + 6);
        assert_eq!(sauer_shelah_bound(5, 3), 8);
        assert_eq!(sauer_shelah_bound(1000, 1000), u128::MAX);
    }

    #[test]
    fn distinct_rows_and_permutations() {
        let m = ClassMatrix::parse("01\n10\n01\n").unwrap();
        let (distinct, map) = m.distinct_rows();
        assert_eq!(distinct.n_concepts(), 2);
        assert_eq!(map, vec![0, 1, 0]);
        let p = m.permuted(&[2, 0, 1], &[1, 0]).unwrap();
        assert!(p.get(0, 0) && !p.get(0, 1));
        assert!(m.permuted(&[0, 0, 1], &[0, 1]).is_err());
    }
}
