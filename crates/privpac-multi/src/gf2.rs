//! Linear algebra over GF(2) for the parity multi-learner: find, for every label column
//! of a block of hypercube examples at once, the unique parity consistent with it.
//!
//! A parity `c_a(x) = ⟨a, x⟩ mod 2` is consistent with examples `(x_r, y_r)` iff
//! `X·a = y` over GF(2), where the rows of X are the points. The fast path
//! ([`solve_block`]) reduces X once by Gauss–Jordan elimination and applies every row
//! operation to the block's whole label matrix stored row-major, 64 label columns per
//! machine word (the labels are transposed from the sample's column-major storage in
//! 64 × 64 blocks, [`transpose64`]). The reference ([`solve_block_per_column`]) eliminates
//! the augmented matrix `[X | y_j]` once per column.

use crate::sample::MultiLabeledSample;

/// The most rows a block may have (elimination masks are 128 bits wide).
pub const MAX_BLOCK_ROWS: usize = 128;

/// Transposes a 64 × 64 bit matrix in place: afterwards bit `c` of `block[r]` is what bit
/// `r` of `block[c]` was (the recursive block-swap transpose, 6 rounds of 32 word pairs).
pub fn transpose64(block: &mut [u64; 64]) {
    const MASKS: [u64; 6] = [
        0x0000_0000_FFFF_FFFF,
        0x0000_FFFF_0000_FFFF,
        0x00FF_00FF_00FF_00FF,
        0x0F0F_0F0F_0F0F_0F0F,
        0x3333_3333_3333_3333,
        0x5555_5555_5555_5555,
    ];
    let mut width = 32;
    for mask in MASKS {
        let mut r = 0;
        while r < 64 {
            for row in r..r + width {
                let t = ((block[row] >> width) ^ block[row + width]) & mask;
                block[row] ^= t << width;
                block[row + width] ^= t;
            }
            r += 2 * width;
        }
        width /= 2;
    }
}

/// The parities consistent with the block of rows `start .. start + len` of `sample`
/// (points in `{0,1}^d`, 1 ≤ d ≤ 64), one per label column: `Some(ids)` with
/// `ids[j] = a_j` iff **every** column has exactly one consistent parity, which happens
/// iff the block's points span `GF(2)^d` and every column is consistent; `None` (⊥)
/// otherwise (some column inconsistent or under-determined).
///
/// One Gauss–Jordan reduction of the points, with each row operation applied to the
/// block's k labels packed 64 per word: O(len·d·(1 + k/64)) word operations, plus
/// O(k·len/64) 64 × 64 transposes in and out.
///
/// Returns `None` as well for an empty block or `len` above [`MAX_BLOCK_ROWS`], d outside
/// 1..=64, or rows past the end of the sample.
pub fn solve_block(
    sample: &MultiLabeledSample,
    d: u32,
    start: usize,
    len: usize,
) -> Option<Vec<u64>> {
    let points = block_points(sample, d, start, len)?;
    let k = sample.k();
    let kw = k.div_ceil(64);
    let mut xs = points.to_vec();
    // Row-major labels: row r's columns 64w .. 64w + 63 in labels[r·kw + w].
    let mut labels = vec![0u64; len * kw];
    let mut block = [0u64; 64];
    for w in 0..kw {
        for row_block in 0..len.div_ceil(64) {
            for (c, slot) in block.iter_mut().enumerate() {
                *slot = sample.column_bits(64 * w + c, start + 64 * row_block);
            }
            transpose64(&mut block);
            for (r, &word) in block.iter().enumerate() {
                let row = 64 * row_block + r;
                if row < len {
                    labels[row * kw + w] = word;
                }
            }
        }
    }
    let mut pivot_labels = vec![0u64; kw];
    for c in 0..d as usize {
        let bit = 1u64 << c;
        // No pivot: the points do not span GF(2)^d, so every consistent column has
        // several consistent parities (and an inconsistent one has none): ⊥.
        let pivot = (c..len).find(|&r| xs[r] & bit != 0)?;
        if pivot != c {
            xs.swap(pivot, c);
            for w in 0..kw {
                labels.swap(pivot * kw + w, c * kw + w);
            }
        }
        pivot_labels.copy_from_slice(&labels[c * kw..(c + 1) * kw]);
        let pivot_x = xs[c];
        for r in 0..len {
            if r != c && xs[r] & bit != 0 {
                xs[r] ^= pivot_x;
                for (word, &p) in labels[r * kw..(r + 1) * kw].iter_mut().zip(&pivot_labels) {
                    *word ^= p;
                }
            }
        }
    }
    // Rows d.. are now 0 = y: any set label bit is an inconsistent column.
    if labels[d as usize * kw..].iter().any(|&word| word != 0) {
        return None;
    }
    // Row c is x = e_c, so its label in column j is bit c of a_j: transpose back.
    let mut ids = vec![0u64; k];
    for w in 0..kw {
        block = [0; 64];
        for c in 0..d as usize {
            block[c] = labels[c * kw + w];
        }
        transpose64(&mut block);
        for (jj, &id) in block.iter().enumerate() {
            if let Some(slot) = ids.get_mut(64 * w + jj) {
                *slot = id;
            }
        }
    }
    Some(ids)
}

/// The reference for [`solve_block`]: for each column j separately, Gauss–Jordan
/// elimination of the augmented matrix `[X | y_j]` (rows as 128-bit words, the label at
/// bit 64). Same result, O(k·len·d) word operations.
pub fn solve_block_per_column(
    sample: &MultiLabeledSample,
    d: u32,
    start: usize,
    len: usize,
) -> Option<Vec<u64>> {
    let points = block_points(sample, d, start, len)?;
    let mut ids = Vec::with_capacity(sample.k());
    let mut rows = vec![0u128; len];
    for j in 0..sample.k() {
        let low = sample.column_bits(j, start);
        let high = sample.column_bits(j, start + 64);
        for (r, row) in rows.iter_mut().enumerate() {
            let y = if r < 64 { low >> r } else { high >> (r - 64) } & 1;
            *row = u128::from(points[r]) | u128::from(y) << 64;
        }
        for c in 0..d as usize {
            let bit = 1u128 << c;
            let pivot = (c..len).find(|&r| rows[r] & bit != 0)?;
            rows.swap(pivot, c);
            let pivot_row = rows[c];
            for (r, row) in rows.iter_mut().enumerate() {
                if r != c && *row & bit != 0 {
                    *row ^= pivot_row;
                }
            }
        }
        if rows[d as usize..].iter().any(|&row| row != 0) {
            return None;
        }
        let id = (0..d as usize).fold(0u64, |id, c| id | (((rows[c] >> 64) as u64 & 1) << c));
        ids.push(id);
    }
    Some(ids)
}

fn block_points(sample: &MultiLabeledSample, d: u32, start: usize, len: usize) -> Option<&[u64]> {
    if len == 0 || len > MAX_BLOCK_ROWS || !(1..=64).contains(&d) || (len as u32) < d {
        return None;
    }
    sample.points().get(start..start.checked_add(len)?)
}

#[cfg(test)]
mod tests {
    use privpac_classes::{Domain, Parities};
    use proptest::prelude::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    #[test]
    fn transpose_matches_the_definition() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut block = [0u64; 64];
        for word in block.iter_mut() {
            *word = rng.random();
        }
        let original = block;
        transpose64(&mut block);
        for (r, row) in block.iter().enumerate() {
            for (c, column) in original.iter().enumerate() {
                assert_eq!(row >> c & 1, column >> r & 1, "({r}, {c})");
            }
        }
    }

    #[test]
    fn recovers_the_targets_from_a_spanning_block() {
        let d = 64;
        let class = Parities::new(d).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let targets: Vec<u64> = (0..200).map(|_| rng.random()).collect();
        let points: Vec<u64> = (0..300).map(|_| rng.random()).collect();
        let sample = MultiLabeledSample::label_with(&class, points, &targets).unwrap();
        // 70 uniform points span GF(2)^64 except with probability < 2^-6; this seed does.
        assert_eq!(solve_block(&sample, d, 100, 70), Some(targets.clone()));
        assert_eq!(solve_block_per_column(&sample, d, 100, 70), Some(targets));
        // Fewer points than d never span.
        assert_eq!(solve_block(&sample, d, 0, 63), None);
    }

    fn random_sample(seed: u64, d: u32, n: usize, k: usize, noise: bool) -> MultiLabeledSample {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let domain = Domain::hypercube(d).unwrap();
        let mask = if d == 64 { u64::MAX } else { (1u64 << d) - 1 };
        // Low-rank points for some seeds, so that under-determined blocks occur.
        let rank_mask = if seed.is_multiple_of(3) {
            mask >> 1
        } else {
            mask
        };
        let points: Vec<u64> = (0..n).map(|_| rng.random::<u64>() & rank_mask).collect();
        let targets: Vec<u64> = (0..k).map(|_| rng.random::<u64>() & mask).collect();
        let rows: Vec<Vec<bool>> = points
            .iter()
            .map(|&x| {
                targets
                    .iter()
                    .map(|&a| ((a & x).count_ones() % 2 == 1) ^ (noise && rng.random_bool(0.02)))
                    .collect()
            })
            .collect();
        MultiLabeledSample::from_rows(&domain, points, &rows).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn fast_path_matches_the_reference(
            seed in any::<u64>(),
            d in 1u32..=64,
            extra in 0usize..40,
            k in 1usize..150,
            offset in 0usize..70,
            noise in any::<bool>(),
        ) {
            let len = (d as usize + extra).min(MAX_BLOCK_ROWS);
            let sample = random_sample(seed, d, offset + len, k, noise);
            prop_assert_eq!(
                solve_block(&sample, d, offset, len),
                solve_block_per_column(&sample, d, offset, len)
            );
        }
    }
}
