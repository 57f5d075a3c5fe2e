//! The memo of the Littlestone solver: an open-addressing hash table from version-space
//! keys (see [`crate::dimension::bits::encode_key`]) to bounds on their Littlestone
//! dimension, laid out so that a lookup usually touches one cache line.
//!
//! Each slot is 64 bytes: the key's full 64-bit hash (0 marks an empty slot), the bounds
//! and the key length, and up to 6 key words inline. Longer keys live in an arena and the
//! slot holds their offset. Lookups compare the full hash before the key, so a probe
//! almost never reads a key that does not match, and growing the table rehashes nothing
//! (slots keep their hash). The table grows at 3/4 load, so an entry takes 85–170 bytes,
//! plus 8 bytes per word for keys longer than 6 words.

use std::hash::Hasher;

use crate::dimension::bits::FxHasher;

/// Known bounds `lo ≤ Ldim(V) ≤ hi` of one version space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub(crate) lo: i8,
    pub(crate) hi: i8,
}

const INLINE: usize = 6;

#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Slot {
    hash: u64,
    /// `lo` in bits 0..8, `hi` in bits 8..16, the key length in bits 16..48.
    meta: u64,
    /// The key, or `[arena offset, ..]` when it is longer than `INLINE` words.
    words: [u64; INLINE],
}

const EMPTY: Slot = Slot {
    hash: 0,
    meta: 0,
    words: [0; INLINE],
};

/// The memo table. See the module documentation.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    slots: Vec<Slot>,
    arena: Vec<u64>,
    len: usize,
}

/// The table is full: inserting would exceed the caller's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Full;

impl Memo {
    /// Number of entries.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The hash of a key (never 0).
    #[inline]
    pub(crate) fn hash(key: &[u64]) -> u64 {
        let mut hasher = FxHasher::default();
        for &word in key {
            hasher.write_u64(word);
        }
        hasher.finish() | 1
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    #[inline]
    fn home(&self, hash: u64) -> usize {
        // The high bits: the finalizer mixes them as well as the low ones.
        (hash >> 32 ^ hash) as usize & self.mask()
    }

    #[inline]
    fn key_of<'a>(&'a self, slot: &'a Slot) -> &'a [u64] {
        let len = (slot.meta >> 16 & 0xffff_ffff) as usize;
        if len <= INLINE {
            &slot.words[..len]
        } else {
            let offset = slot.words[0] as usize;
            &self.arena[offset..offset + len]
        }
    }

    /// The slot index holding `key`, or the empty slot where it would go.
    #[inline]
    fn find(&self, key: &[u64], hash: u64) -> (usize, bool) {
        let mask = self.mask();
        let mut index = self.home(hash);
        loop {
            let slot = &self.slots[index];
            if slot.hash == 0 {
                return (index, false);
            }
            if slot.hash == hash && self.key_of(slot) == key {
                return (index, true);
            }
            index = (index + 1) & mask;
        }
    }

    /// The bounds stored for `key` (whose hash is `hash`).
    #[inline]
    pub(crate) fn get(&self, key: &[u64], hash: u64) -> Option<Bounds> {
        if self.slots.is_empty() {
            return None;
        }
        let (index, found) = self.find(key, hash);
        found.then(|| unpack(self.slots[index].meta))
    }

    /// Reads the home slot of `hash`, so that a later [`Self::get`] finds it in cache. The
    /// return value only exists so the load is not optimized away.
    #[inline]
    pub(crate) fn touch(&self, hash: u64) -> u64 {
        if self.slots.is_empty() {
            return 0;
        }
        self.slots[self.home(hash)].hash
    }

    /// Stores `lo ≤ Ldim ≤ hi` for `key`, intersecting with known bounds. A new entry is
    /// refused with [`Full`] when the table already has `limit` entries.
    pub(crate) fn tighten(
        &mut self,
        key: &[u64],
        hash: u64,
        lo: i8,
        hi: i8,
        limit: u64,
    ) -> Result<(), Full> {
        if !self.slots.is_empty() {
            let (index, found) = self.find(key, hash);
            if found {
                let slot = &mut self.slots[index];
                let old = unpack(slot.meta);
                let new = Bounds {
                    lo: old.lo.max(lo),
                    hi: old.hi.min(hi),
                };
                slot.meta = slot.meta & !0xffff | pack(new);
                return Ok(());
            }
        }
        if self.len as u64 >= limit {
            return Err(Full);
        }
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let (index, _) = self.find(key, hash);
        let mut slot = Slot {
            hash,
            meta: (key.len() as u64) << 16 | pack(Bounds { lo, hi }),
            words: [0; INLINE],
        };
        if key.len() <= INLINE {
            slot.words[..key.len()].copy_from_slice(key);
        } else {
            slot.words[0] = self.arena.len() as u64;
            self.arena.extend_from_slice(key);
        }
        self.slots[index] = slot;
        self.len += 1;
        Ok(())
    }

    fn grow(&mut self) {
        let capacity = (self.slots.len() * 2).max(1024);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; capacity]);
        let mask = self.mask();
        for slot in old.into_iter().filter(|s| s.hash != 0) {
            let mut index = self.home(slot.hash);
            while self.slots[index].hash != 0 {
                index = (index + 1) & mask;
            }
            self.slots[index] = slot;
        }
    }
}

#[inline]
fn pack(bounds: Bounds) -> u64 {
    u64::from(bounds.lo as u8) | u64::from(bounds.hi as u8) << 8
}

#[inline]
fn unpack(meta: u64) -> Bounds {
    Bounds {
        lo: meta as u8 as i8,
        hi: (meta >> 8) as u8 as i8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_tightens_grows_and_refuses_beyond_the_limit() {
        let mut memo = Memo::default();
        let keys: Vec<Vec<u64>> = (0..5000u64)
            .map(|i| (0..=(i % 11)).map(|j| i * 31 + j).collect())
            .collect();
        for (i, key) in keys.iter().enumerate() {
            let hash = Memo::hash(key);
            assert_eq!(memo.get(key, hash), None);
            memo.tighten(key, hash, -1, (i % 100) as i8, u64::MAX)
                .unwrap();
        }
        assert_eq!(memo.len(), 5000);
        for (i, key) in keys.iter().enumerate() {
            let hash = Memo::hash(key);
            memo.tighten(key, hash, 2, 120, u64::MAX).unwrap();
            let expected = Bounds {
                lo: 2,
                hi: (i % 100) as i8,
            };
            assert_eq!(memo.get(key, hash), Some(expected), "key {i}");
        }
        let key = [u64::MAX; 3];
        assert_eq!(memo.tighten(&key, Memo::hash(&key), 0, 1, 5000), Err(Full));
        assert_eq!(memo.len(), 5000);
    }
}
