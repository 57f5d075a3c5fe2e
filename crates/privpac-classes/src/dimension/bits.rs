//! Bitset helpers shared by the dimension calculators: popcounts, a fast non-cryptographic
//! hasher for memo keys, and the canonical encoding of a version space as a memo key.

use std::hash::{BuildHasherDefault, Hasher};

/// Number of set bits of a bitset.
#[inline]
pub(crate) fn popcount(words: &[u64]) -> u32 {
    words.iter().map(|w| w.count_ones()).sum()
}

/// Number of set bits of `a & b` (over the length of `a`).
#[inline]
pub(crate) fn and_popcount(a: &[u64], b: &[u64]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum()
}

/// The range `first..last + 1` of the non-zero words of `words`, or `None` when all are zero.
#[inline]
pub(crate) fn nonzero_range(words: &[u64]) -> Option<(usize, usize)> {
    let first = words.iter().position(|&w| w != 0)?;
    let last = words.iter().rposition(|&w| w != 0)?;
    Some((first, last + 1))
}

/// Iterates over the indices of the set bits of `words`, lowest first.
pub(crate) fn ones(words: &[u64]) -> Ones<'_> {
    Ones {
        words,
        index: 0,
        current: words.first().copied().unwrap_or(0),
    }
}

/// The iterator of [`ones`].
#[derive(Debug, Clone)]
pub(crate) struct Ones<'a> {
    words: &'a [u64],
    index: usize,
    current: u64,
}

impl Iterator for Ones<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.current == 0 {
            self.index += 1;
            self.current = *self.words.get(self.index)?;
        }
        let bit = self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some(self.index * 64 + bit)
    }
}

/// The FxHash function of rustc (Firefox's hash: one multiply per word) with MurmurHash3's
/// 64-bit finalizer. Memo keys are bitsets we built ourselves, so no adversary chooses them
/// and a DoS-resistant hash would only cost time.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.add(value);
    }

    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // Fx leaves the low bits (which hash tables use for the bucket index) depending
        // on the low bits of the words only; MurmurHash3's finalizer mixes every bit in.
        let mut h = self.hash;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// A `BuildHasher` for [`FxHasher`].
pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;

/// Hash of a word slice, used as a fingerprint (collisions are always resolved by an exact
/// comparison by the callers).
#[inline]
pub(crate) fn fingerprint(words: &[u64]) -> u64 {
    let mut hasher = FxHasher::default();
    for &w in words {
        hasher.add(w);
    }
    hasher.finish()
}

const SPARSE_TAG: u64 = 1 << 63;

/// Writes the canonical memo key of the version space `words` (a bitset whose word `i` is
/// word `base + i` of the full bitset) into `key`, and returns its popcount.
///
/// The key is a function of the set alone (not of `base` or of zero words at the ends):
/// either `[SPARSE_TAG | count, indices packed two per word]` when the list of concept
/// indices is shorter than the trimmed bitset, or `[first_word_index, words…]` (first and
/// last word non-zero) otherwise. Tags and the choice rule make the two forms disjoint, so
/// equal keys mean equal sets.
pub(crate) fn encode_key(words: &[u64], base: usize, key: &mut Vec<u64>) -> u32 {
    key.clear();
    let Some((first, end)) = nonzero_range(words) else {
        key.push(SPARSE_TAG);
        return 0;
    };
    let trimmed = &words[first..end];
    let count = popcount(trimmed);
    let sparse_words = (count as usize).div_ceil(2);
    // Indices are packed as `u32`s below `u32::MAX` (the padding marker).
    let fits_u32 = (base + end) * 64 < u32::MAX as usize;
    if sparse_words < trimmed.len() && fits_u32 {
        key.push(SPARSE_TAG | u64::from(count));
        let offset = ((base + first) * 64) as u64;
        let mut indices = ones(trimmed).map(|i| offset + i as u64);
        while let Some(low) = indices.next() {
            let high = indices.next().unwrap_or(u64::from(u32::MAX));
            key.push(low | high << 32);
        }
    } else {
        key.push((base + first) as u64);
        key.extend_from_slice(trimmed);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check_key(a: (&[u64], usize), b: (&[u64], usize), equal: bool) {
        let (mut ka, mut kb) = (Vec::new(), Vec::new());
        encode_key(a.0, a.1, &mut ka);
        encode_key(b.0, b.1, &mut kb);
        assert_eq!(ka == kb, equal, "{ka:?} vs {kb:?}");
    }

    #[test]
    fn keys_depend_on_the_set_only() {
        check_key((&[0, 5, 0], 0), (&[5], 1), true);
        check_key((&[0, 5, 0], 0), (&[5], 0), false);
        check_key((&[7, 7, 7, 7], 0), (&[0, 7, 7, 7, 7, 0], 3), false);
        check_key((&[7, 7, 7, 7], 3), (&[0, 7, 7, 7, 7, 0], 2), true);
        check_key((&[u64::MAX, u64::MAX], 0), (&[u64::MAX, u64::MAX], 0), true);
        check_key((&[0, 0], 0), (&[0], 5), true);
        // One concept at index 64 (sparse) vs the dense word 1 at word 1.
        check_key((&[0, 1], 0), (&[1], 1), true);
        check_key((&[1 << 3, 1], 0), (&[1 << 3, 2], 0), false);
    }

    #[test]
    fn ones_and_counts() {
        let words = [0b1010u64, 0, 1 << 63];
        assert_eq!(ones(&words).collect::<Vec<_>>(), vec![1, 3, 191]);
        assert_eq!(popcount(&words), 3);
        assert_eq!(and_popcount(&words, &[u64::MAX, 0, 0]), 2);
        assert_eq!(nonzero_range(&words), Some((0, 3)));
        assert_eq!(nonzero_range(&[0, 0]), None);
    }
}
