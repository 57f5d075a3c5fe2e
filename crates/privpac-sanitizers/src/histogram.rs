//! Explicit histograms over a domain and a bit-packed query matrix that answers every
//! query on a histogram at once: the engine behind MWEM and private multiplicative
//! weights.
//!
//! # Layout and the table trick
//! Query membership is stored one byte per (group of 8 domain points, query), group-major:
//! byte `g·|Q| + q` holds the bits `[x ∈ q]` for `x = 8g, …, 8g+7`. To answer all queries
//! on weights `w`, each group builds the 256 subset sums of its 8 weights once and every
//! query adds one table entry ("four Russians"), so a full product costs
//! `|X|/8 · (256 + |Q|)` additions instead of `|X|·|Q|`. For fewer than
//! [`NIBBLE_QUERIES`] queries two 16-entry tables per group are cheaper.
//!
//! # Determinism
//! Work is split into chunks of [`GROUPS_PER_CHUNK`] groups whatever the number of rayon
//! threads; each chunk sums in a fixed order and partial results are added in chunk order.
//! Results are therefore bit-for-bit identical for any thread count.

use privpac_classes::{ConceptClass, Domain, Point, check_concept};
use rayon::prelude::*;

use crate::error::{Error, Result};

/// The largest domain an explicit histogram may have (|X| weights of 8 bytes).
pub const HISTOGRAM_LIMIT: u128 = 1 << 26;
/// The largest query matrix, in bits (|Q|·|X|); 2^31 bits are 256 MiB.
pub const QUERY_MATRIX_LIMIT: u128 = 1 << 31;
/// Groups of 8 points handled by one parallel work item.
const GROUPS_PER_CHUNK: usize = 128;
/// Below this many queries the product uses 4-bit tables.
const NIBBLE_QUERIES: usize = 48;

/// Checks that a domain is small enough for an explicit histogram and returns |X|.
pub(crate) fn histogram_len(domain: &Domain, algorithm: &'static str) -> Result<usize> {
    let size = domain.size();
    if size > HISTOGRAM_LIMIT {
        return Err(Error::TooLarge {
            what: algorithm,
            needed: size,
            unit: "histogram cells (domain points)",
            limit: HISTOGRAM_LIMIT,
        });
    }
    Ok(size as usize)
}

/// The data as counts per domain point (in enumeration order), as `f64` (exact for counts
/// below 2^53).
///
/// # Errors
/// [`Error::EmptyData`]; [`Error::Class`] for a point outside the domain.
pub(crate) fn data_histogram(domain: &Domain, len: usize, data: &[Point]) -> Result<Vec<f64>> {
    if data.is_empty() {
        return Err(Error::EmptyData);
    }
    let mut counts = vec![0.0f64; len];
    for &x in data {
        domain.check(x)?;
        let index = domain.index_of(x).unwrap_or(x) as usize;
        if let Some(slot) = counts.get_mut(index) {
            *slot += 1.0;
        }
    }
    Ok(counts)
}

/// The data's cumulative counts: `out[i]` = the number of data points whose index (in
/// enumeration order) is below i, for `0 ≤ i ≤ len` (so `out[len]` = n). One `i64` vector
/// of `len + 1` entries, where [`data_histogram`] and a prefix sum would take two.
///
/// # Errors
/// [`Error::EmptyData`]; [`Error::Class`] for a point outside the domain.
pub(crate) fn data_cumulative(domain: &Domain, len: usize, data: &[Point]) -> Result<Vec<i64>> {
    if data.is_empty() {
        return Err(Error::EmptyData);
    }
    let mut out = vec![0i64; len + 1];
    for &x in data {
        domain.check(x)?;
        let index = domain.index_of(x).unwrap_or(x) as usize;
        if let Some(slot) = out.get_mut(index + 1) {
            *slot += 1;
        }
    }
    let mut running = 0;
    for slot in &mut out {
        running += *slot;
        *slot = running;
    }
    Ok(out)
}

/// The membership matrix of a list of queries (concept ids) over an explicit domain.
#[derive(Debug, Clone)]
pub(crate) struct QueryMatrix {
    n_points: usize,
    n_queries: usize,
    /// `bytes[g · n_queries + q]`: bit `j` is `[point 8g + j ∈ query q]`.
    bytes: Vec<u8>,
}

impl QueryMatrix {
    /// Evaluates every query on every domain point (in parallel, O(|Q|·|X|) calls to
    /// `eval`).
    ///
    /// # Errors
    /// [`Error::NoQueries`]; [`Error::Class`] for an id outside the class;
    /// [`Error::TooLarge`] above [`HISTOGRAM_LIMIT`] points or [`QUERY_MATRIX_LIMIT`] bits.
    pub(crate) fn build<C: ConceptClass + ?Sized>(
        class: &C,
        queries: &[u64],
        algorithm: &'static str,
    ) -> Result<Self> {
        if queries.is_empty() {
            return Err(Error::NoQueries);
        }
        for &id in queries {
            check_concept(class, id)?;
        }
        let domain = class.domain();
        let n_points = histogram_len(domain, algorithm)?;
        let cells = (queries.len() as u128).saturating_mul(n_points as u128);
        if cells > QUERY_MATRIX_LIMIT {
            return Err(Error::TooLarge {
                what: "query matrix",
                needed: cells,
                unit: "bits (queries × domain points)",
                limit: QUERY_MATRIX_LIMIT,
            });
        }
        let n_queries = queries.len();
        let groups = n_points.div_ceil(8);
        let mut bytes = vec![0u8; groups * n_queries];
        let explicit: Option<&[Point]> = match domain {
            Domain::Explicit { points } => Some(points),
            _ => None,
        };
        let point = |index: usize| explicit.map_or(index as Point, |points| points[index]);
        bytes
            .par_chunks_mut(n_queries * GROUPS_PER_CHUNK)
            .enumerate()
            .for_each(|(chunk, slice)| {
                for (local, row) in slice.chunks_mut(n_queries).enumerate() {
                    let base = (chunk * GROUPS_PER_CHUNK + local) * 8;
                    let end = (base + 8).min(n_points);
                    let group_points: Vec<Point> = (base..end).map(point).collect();
                    for (byte, &id) in row.iter_mut().zip(queries) {
                        let mut bits = 0u8;
                        for (j, &x) in group_points.iter().enumerate() {
                            bits |= u8::from(class.eval(id, x)) << j;
                        }
                        *byte = bits;
                    }
                }
            });
        Ok(QueryMatrix {
            n_points,
            n_queries,
            bytes,
        })
    }

    /// The membership matrix of the XOR class of `inner` (every pair, queries in
    /// [`privpac_classes::Xor`]'s id order `i·|C| + j`), from the matrix of `inner`'s own
    /// concepts: on a group of 8 points the byte of `c_i ⊕ c_j` is the XOR of the bytes of
    /// `c_i` and `c_j`. The matrix equals [`Self::build`] on `Xor::new(inner)` with the
    /// queries `0..|C|²` (a unit test compares them byte for byte), in `|C|·|X|` calls to
    /// `eval` instead of `2|C|²·|X|`.
    ///
    /// # Errors
    /// As [`Self::build`] on the XOR class ([`Error::Class`] if `|C|²` exceeds 2^64).
    pub(crate) fn build_xor(inner: &dyn ConceptClass, algorithm: &'static str) -> Result<Self> {
        let xor = privpac_classes::Xor::new(inner)?;
        let n_points = histogram_len(xor.domain(), algorithm)?;
        let cells = xor.len().saturating_mul(n_points as u128);
        if cells > QUERY_MATRIX_LIMIT {
            return Err(Error::TooLarge {
                what: "query matrix",
                needed: cells,
                unit: "bits (queries × domain points)",
                limit: QUERY_MATRIX_LIMIT,
            });
        }
        let width = inner.len() as usize; // |C|² · |X| ≤ 2^31, so |C| < 2^31
        let ids: Vec<u64> = (0..width as u64).collect();
        let base = Self::build(inner, &ids, algorithm)?;
        let n_queries = width * width;
        let mut bytes = vec![0u8; base.bytes.len() / width.max(1) * n_queries];
        bytes
            .par_chunks_mut(n_queries)
            .zip(base.bytes.par_chunks(width))
            .for_each(|(out, row)| {
                for (i, &a) in row.iter().enumerate() {
                    for (slot, &b) in out[i * width..(i + 1) * width].iter_mut().zip(row) {
                        *slot = a ^ b;
                    }
                }
            });
        Ok(QueryMatrix {
            n_points,
            n_queries,
            bytes,
        })
    }

    /// Number of queries.
    pub(crate) fn n_queries(&self) -> usize {
        self.n_queries
    }

    /// Whether the point with index `x` (enumeration order) is in query `q`.
    pub(crate) fn contains(&self, x: usize, q: usize) -> bool {
        self.bytes
            .get((x / 8) * self.n_queries + q)
            .is_some_and(|byte| byte >> (x % 8) & 1 == 1)
    }

    /// `Σ_{x ∈ q} w_x` for every query `q`. `weights` has one entry per domain point.
    pub(crate) fn answers(&self, weights: &[f64]) -> Vec<f64> {
        debug_assert_eq!(weights.len(), self.n_points);
        let nq = self.n_queries;
        let partials: Vec<Vec<f64>> = weights
            .par_chunks(8 * GROUPS_PER_CHUNK)
            .zip(self.bytes.par_chunks(nq * GROUPS_PER_CHUNK))
            .map(|(w, b)| {
                let mut acc = vec![0.0f64; nq];
                for (group, row) in w.chunks(8).zip(b.chunks(nq)) {
                    let mut eight = [0.0f64; 8];
                    eight[..group.len()].copy_from_slice(group);
                    if eight.iter().all(|&v| v == 0.0) {
                        continue;
                    }
                    if nq < NIBBLE_QUERIES {
                        add_nibble_tables(&eight, row, &mut acc);
                    } else {
                        add_byte_table(&eight, row, &mut acc);
                    }
                }
                acc
            })
            .collect();
        let mut total = vec![0.0f64; nq];
        for partial in partials {
            for (t, p) in total.iter_mut().zip(partial) {
                *t += p;
            }
        }
        total
    }

    /// The subset-sum tables of [`Self::answers`] for `weights`, kept so that single
    /// queries can be answered in O(|X|/8) with exactly the value `answers` gives them
    /// ([`GroupTables::answer`]): O(|X|·32) to build instead of the full product's
    /// O(|X|/8·(256 + |Q|)).
    pub(crate) fn tables(&self, weights: &[f64]) -> GroupTables {
        debug_assert_eq!(weights.len(), self.n_points);
        let nibble = self.n_queries < NIBBLE_QUERIES;
        let mut chunks = Vec::new();
        for (c, w) in weights.chunks(8 * GROUPS_PER_CHUNK).enumerate() {
            let mut groups = Vec::new();
            for (local, group) in w.chunks(8).enumerate() {
                let mut eight = [0.0f64; 8];
                eight[..group.len()].copy_from_slice(group);
                if eight.iter().all(|&v| v == 0.0) {
                    continue; // `answers` skips it too
                }
                let mut table = vec![0.0f64; 256];
                if nibble {
                    // table[b] = low[b & 15] + high[b >> 4], the nibble path's addend.
                    let mut low = [0.0f64; 16];
                    let mut high = [0.0f64; 16];
                    for subset in 1..16usize {
                        let bit = subset.trailing_zeros() as usize;
                        low[subset] = low[subset & (subset - 1)] + eight[bit];
                        high[subset] = high[subset & (subset - 1)] + eight[4 + bit];
                    }
                    for (b, t) in table.iter_mut().enumerate() {
                        *t = low[b & 15] + high[b >> 4];
                    }
                } else {
                    for subset in 1..256usize {
                        let low = subset.trailing_zeros() as usize;
                        table[subset] = table[subset & (subset - 1)] + eight[low];
                    }
                }
                groups.push((c * GROUPS_PER_CHUNK + local, table));
            }
            chunks.push(groups);
        }
        GroupTables { chunks }
    }

    /// `Σ_{x ∈ q} w_x` for the single query `q` (deterministic, O(|X|)).
    pub(crate) fn answer_one(&self, weights: &[f64], q: usize) -> f64 {
        let nq = self.n_queries;
        // One chunk's sum: the members' weights in increasing point order (only the set
        // bits of each group are visited; the additions and their order are unchanged).
        let chunk_sum = |(w, b): (&[f64], &[u8])| {
            let mut sum = 0.0;
            for (group, row) in w.chunks(8).zip(b.chunks(nq)) {
                let mut bits = row[q];
                while bits != 0 {
                    sum += group[bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                }
            }
            sum
        };
        if weights.len() <= 8 * GROUPS_PER_CHUNK {
            // A single chunk: the same value as the parallel sum below, without its dispatch.
            return chunk_sum((weights, &self.bytes));
        }
        let partials: Vec<f64> = weights
            .par_chunks(8 * GROUPS_PER_CHUNK)
            .zip(self.bytes.par_chunks(nq * GROUPS_PER_CHUNK))
            .map(chunk_sum)
            .collect();
        partials.iter().sum()
    }

    /// Multiplies the weight of every point in query `q` by `inside` and of every other
    /// point by `outside`, then rescales the weights to sum to 1 (deterministically).
    pub(crate) fn reweight(&self, weights: &mut [f64], q: usize, inside: f64, outside: f64) {
        let nq = self.n_queries;
        weights
            .par_chunks_mut(8 * GROUPS_PER_CHUNK)
            .zip(self.bytes.par_chunks(nq * GROUPS_PER_CHUNK))
            .for_each(|(w, b)| {
                for (group, row) in w.chunks_mut(8).zip(b.chunks(nq)) {
                    let bits = row[q];
                    for (j, value) in group.iter_mut().enumerate() {
                        *value *= if bits >> j & 1 == 1 { inside } else { outside };
                    }
                }
            });
        normalize_in_place(weights);
    }
}

/// Per chunk of groups, the nonzero groups' subset-sum tables (`(group, table)`), from
/// [`QueryMatrix::tables`].
#[derive(Debug, Clone)]
pub(crate) struct GroupTables {
    chunks: Vec<Vec<(usize, Vec<f64>)>>,
}

impl GroupTables {
    /// Query `q`'s answer on the weights the tables were built from: bit for bit
    /// `matrix.answers(weights)[q]` (the same addends added in the same order: within a
    /// chunk group by group from 0, then the chunks' sums in order onto 0).
    pub(crate) fn answer(&self, matrix: &QueryMatrix, q: usize) -> f64 {
        let nq = matrix.n_queries;
        let mut total = 0.0f64;
        for groups in &self.chunks {
            let mut acc = 0.0f64;
            for (group, table) in groups {
                acc += table[usize::from(matrix.bytes[group * nq + q])];
            }
            total += acc;
        }
        total
    }
}

/// Adds the subset sums of 8 weights, one per query byte.
fn add_byte_table(eight: &[f64; 8], row: &[u8], acc: &mut [f64]) {
    let mut table = [0.0f64; 256];
    for subset in 1..256usize {
        let low = subset.trailing_zeros() as usize;
        table[subset] = table[subset & (subset - 1)] + eight[low];
    }
    for (a, &byte) in acc.iter_mut().zip(row) {
        *a += table[usize::from(byte)];
    }
}

/// Adds the subset sums of 8 weights from two 4-bit tables, for few queries.
fn add_nibble_tables(eight: &[f64; 8], row: &[u8], acc: &mut [f64]) {
    let mut low = [0.0f64; 16];
    let mut high = [0.0f64; 16];
    for subset in 1..16usize {
        let bit = subset.trailing_zeros() as usize;
        low[subset] = low[subset & (subset - 1)] + eight[bit];
        high[subset] = high[subset & (subset - 1)] + eight[4 + bit];
    }
    for (a, &byte) in acc.iter_mut().zip(row) {
        *a += low[usize::from(byte & 15)] + high[usize::from(byte >> 4)];
    }
}

/// Rescales non-negative weights to sum to 1 with a thread-count-independent sum. Leaves
/// the weights alone if their sum is not positive and finite (callers keep it positive).
pub(crate) fn normalize_in_place(weights: &mut [f64]) {
    let total = deterministic_sum(weights);
    if total > 0.0 && total.is_finite() {
        let scale = 1.0 / total;
        weights
            .par_chunks_mut(8 * GROUPS_PER_CHUNK)
            .for_each(|chunk| chunk.iter_mut().for_each(|w| *w *= scale));
    }
}

/// A sum whose rounding does not depend on the number of threads: fixed chunks summed in
/// parallel, partial sums added in order.
pub(crate) fn deterministic_sum(values: &[f64]) -> f64 {
    let partials: Vec<f64> = values
        .par_chunks(8 * GROUPS_PER_CHUNK)
        .map(|chunk| chunk.iter().sum::<f64>())
        .collect();
    partials.iter().sum()
}

/// `acc += values` elementwise, in parallel over fixed chunks.
pub(crate) fn add_assign(acc: &mut [f64], values: &[f64]) {
    acc.par_chunks_mut(8 * GROUPS_PER_CHUNK)
        .zip(values.par_chunks(8 * GROUPS_PER_CHUNK))
        .for_each(|(a, v)| a.iter_mut().zip(v).for_each(|(a, v)| *a += v));
}

/// Whether the dense query matrix of `POINT_[N] ⊕ POINT_[N]` (`N²` queries × `N` points, in
/// bits) fits under [`crate::QUERY_MATRIX_LIMIT`]: there MWEM and PMW take the class path,
/// which draws the same values for a seed as before the structured runs existed.
pub(crate) fn point_xor_matrix_fits(size: u64) -> bool {
    let n = u128::from(size);
    n.saturating_mul(n).saturating_mul(n) <= QUERY_MATRIX_LIMIT
}

#[cfg(test)]
mod tests {
    use privpac_classes::{Intervals, Parities, Thresholds};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[track_caller]
    fn check<C: ConceptClass + ?Sized>(class: &C, queries: &[u64], weights: &[f64]) {
        let matrix = QueryMatrix::build(class, queries, "test").unwrap();
        let fast = matrix.answers(weights);
        for (q, &id) in queries.iter().enumerate() {
            let slow: f64 = weights
                .iter()
                .enumerate()
                .filter(|&(i, _)| class.eval(id, class.domain().point_at(i as u64).unwrap()))
                .map(|(_, w)| w)
                .sum();
            assert!(
                (fast[q] - slow).abs() < 1e-9,
                "query {id}: {} vs {slow}",
                fast[q]
            );
        }
    }

    #[test]
    fn products_match_direct_sums() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        // Sizes that are not multiples of 8 or of a chunk, byte and nibble tables.
        for size in [1u64, 7, 9, 1000, 3001] {
            let class = Thresholds::new(size).unwrap();
            let weights: Vec<f64> = (0..size).map(|_| rng.random::<f64>()).collect();
            let few: Vec<u64> = (0..size.min(10)).collect();
            let many: Vec<u64> = (0..size.min(200)).map(|i| (i * 7919) % size).collect();
            check(&class, &few, &weights);
            check(&class, &many, &weights);
        }
        let intervals = Intervals::new(30).unwrap();
        let weights: Vec<f64> = (0..30).map(|i| f64::from(i % 4)).collect();
        check(&intervals, &(0..100).collect::<Vec<_>>(), &weights);
        let parities = Parities::new(6).unwrap();
        let weights: Vec<f64> = (0..64).map(|_| rng.random::<f64>()).collect();
        check(&parities, &(0..64).collect::<Vec<_>>(), &weights);
    }

    #[test]
    fn xor_matrix_equals_the_matrix_of_the_xor_class() {
        use privpac_classes::{Intervals, Parities, Points, Thresholds, Xor};
        let classes: Vec<Box<dyn ConceptClass>> = vec![
            Box::new(Thresholds::new(1).unwrap()),
            Box::new(Thresholds::new(13).unwrap()),
            Box::new(Points::new(Domain::ordered(9).unwrap())),
            Box::new(Intervals::new(6).unwrap()),
            Box::new(Parities::new(3).unwrap()),
        ];
        for class in &classes {
            let xor = Xor::new(class.as_ref()).unwrap();
            let ids: Vec<u64> = (0..xor.len() as u64).collect();
            let dense = QueryMatrix::build(&xor, &ids, "test").unwrap();
            let fast = QueryMatrix::build_xor(class.as_ref(), "test").unwrap();
            assert_eq!(fast.n_points, dense.n_points, "{}", class.name());
            assert_eq!(fast.n_queries, dense.n_queries, "{}", class.name());
            assert_eq!(fast.bytes, dense.bytes, "{}", class.name());
        }
        let big = Thresholds::new(1 << 12).unwrap();
        assert!(matches!(
            QueryMatrix::build_xor(&big, "test"),
            Err(Error::TooLarge { .. })
        ));
    }

    /// Single answers from the kept tables are bit for bit the full product's, on the byte
    /// and the nibble path, with zero groups and several chunks.
    #[test]
    fn table_answers_equal_the_full_product_bit_for_bit() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for (size, queries) in [
            (7u64, 5usize),
            (100, 30),
            (100, 100),
            (3001, 60),
            (2100, 20),
        ] {
            let class = Thresholds::new(size).unwrap();
            let ids: Vec<u64> = (0..queries as u64).map(|i| (i * 7919) % size).collect();
            let matrix = QueryMatrix::build(&class, &ids, "test").unwrap();
            let weights: Vec<f64> = (0..size)
                .map(|x| {
                    if (x / 8) % 3 == 1 {
                        0.0
                    } else {
                        rng.random::<f64>()
                    }
                })
                .collect();
            let all = matrix.answers(&weights);
            let tables = matrix.tables(&weights);
            for (q, &a) in all.iter().enumerate() {
                assert_eq!(
                    tables.answer(&matrix, q).to_bits(),
                    a.to_bits(),
                    "N = {size}, q = {q}"
                );
            }
        }
    }

    /// A single answer adds the members' weights in point order within each chunk of
    /// groups, then the chunks' sums: bit for bit, on one chunk and on several.
    #[test]
    fn single_answers_add_the_members_in_point_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        for size in [7u64, 1000, 1024, 3001] {
            let class = Thresholds::new(size).unwrap();
            let ids: Vec<u64> = (0..50u64).map(|i| (i * 7919) % size).collect();
            let matrix = QueryMatrix::build(&class, &ids, "test").unwrap();
            let weights: Vec<f64> = (0..size).map(|_| rng.random::<f64>()).collect();
            for (q, &id) in ids.iter().enumerate() {
                let chunk = 8 * GROUPS_PER_CHUNK;
                let mut total = 0.0f64;
                for (c, w) in weights.chunks(chunk).enumerate() {
                    let mut sum = 0.0f64;
                    for (k, &v) in w.iter().enumerate() {
                        if class.eval(id, (c * chunk + k) as u64) {
                            sum += v;
                        }
                    }
                    total = if c == 0 { sum } else { total + sum };
                }
                assert_eq!(matrix.answer_one(&weights, q).to_bits(), total.to_bits());
            }
        }
    }

    #[test]
    fn reweighting_normalizes() {
        let class = Thresholds::new(20).unwrap();
        let matrix = QueryMatrix::build(&class, &[4, 9], "test").unwrap();
        let mut weights = vec![1.0 / 20.0; 20];
        matrix.reweight(&mut weights, 0, 3.0, 1.0);
        assert!((deterministic_sum(&weights) - 1.0).abs() < 1e-12);
        // 5 points inside with weight 3, 15 outside with weight 1: 15/30 inside.
        assert!((matrix.answers(&weights)[0] - 0.5).abs() < 1e-12);
        assert!((matrix.answer_one(&weights, 0) - 0.5).abs() < 1e-12);
        assert!((matrix.answer_one(&weights, 1) - matrix.answers(&weights)[1]).abs() < 1e-12);
        for x in 0..20 {
            assert_eq!(matrix.contains(x, 0), x <= 4, "{x}");
            assert_eq!(matrix.contains(x, 1), x <= 9, "{x}");
        }
    }

    #[test]
    fn limits_are_typed_errors() {
        let class = Thresholds::new(1 << 30).unwrap();
        assert!(matches!(
            QueryMatrix::build(&class, &[1], "mwem"),
            Err(Error::TooLarge { what: "mwem", .. })
        ));
        let class = Thresholds::new(1 << 20).unwrap();
        let queries: Vec<u64> = (0..4096).collect();
        assert!(matches!(
            QueryMatrix::build(&class, &queries, "mwem"),
            Err(Error::TooLarge {
                what: "query matrix",
                ..
            })
        ));
        assert_eq!(
            QueryMatrix::build(&class, &[], "mwem").unwrap_err(),
            Error::NoQueries
        );
        assert!(matches!(
            QueryMatrix::build(&class, &[1 << 20], "mwem"),
            Err(Error::Class(
                privpac_classes::Error::ConceptOutOfRange { .. }
            ))
        ));
    }

    #[test]
    fn results_do_not_depend_on_thread_count() {
        let class = Thresholds::new(5000).unwrap();
        let queries: Vec<u64> = (0..300).map(|i| i * 13).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let weights: Vec<f64> = (0..5000).map(|_| rng.random::<f64>()).collect();
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let matrix = QueryMatrix::build(&class, &queries, "test").unwrap();
                let mut w = weights.clone();
                matrix.reweight(&mut w, 3, 1.7, 0.9);
                (matrix.answers(&w), w)
            })
        };
        assert_eq!(run(1), run(3));
    }
}
