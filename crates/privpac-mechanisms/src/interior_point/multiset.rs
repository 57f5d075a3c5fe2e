//! Sorted multisets of `u64` points stored as runs with prefix counts: the weights of
//! TreeLog's binary tree (nodes are prefixes, a node's weight is the number of points in its
//! interval) in O(log runs) per node, without materializing the tree.

/// A multiset of points as sorted distinct values with cumulative counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Multiset {
    values: Vec<u64>,
    /// `cumulative[i]` = number of points among `values[..i]`; one longer than `values`.
    cumulative: Vec<u64>,
}

impl Multiset {
    /// From unsorted points.
    pub(crate) fn from_points(points: &[u64]) -> Multiset {
        let mut sorted = points.to_vec();
        sorted.sort_unstable();
        let mut runs: Vec<(u64, u64)> = Vec::new();
        for x in sorted {
            match runs.last_mut() {
                Some((value, count)) if *value == x => *count += 1,
                _ => runs.push((x, 1)),
            }
        }
        Multiset::from_runs(&runs)
    }

    /// From sorted runs `(value, count)` with distinct increasing values and counts ≥ 1.
    pub(crate) fn from_runs(runs: &[(u64, u64)]) -> Multiset {
        let mut cumulative = Vec::with_capacity(runs.len() + 1);
        cumulative.push(0);
        let mut total = 0u64;
        for &(_, count) in runs {
            total += count;
            cumulative.push(total);
        }
        Multiset {
            values: runs.iter().map(|&(value, _)| value).collect(),
            cumulative,
        }
    }

    /// The runs `(value, count)`.
    pub(crate) fn runs(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.values
            .iter()
            .enumerate()
            .map(|(i, &value)| (value, self.cumulative[i + 1] - self.cumulative[i]))
    }

    /// Number of points.
    pub(crate) fn len(&self) -> u64 {
        *self.cumulative.last().unwrap_or(&0)
    }

    /// Number of points `≤ y` (y as `u128` so that interval ends past `u64::MAX` work).
    pub(crate) fn count_at_most(&self, y: u128) -> u64 {
        let index = self.values.partition_point(|&v| u128::from(v) <= y);
        self.cumulative[index]
    }

    /// Number of points `≥ y`.
    pub(crate) fn count_at_least(&self, y: u128) -> u64 {
        if y == 0 {
            return self.len();
        }
        self.len() - self.count_at_most(y - 1)
    }

    /// Number of points in `[low, high]`.
    pub(crate) fn count_between(&self, low: u128, high: u128) -> u64 {
        if high < low {
            return 0;
        }
        let below = if low == 0 {
            0
        } else {
            self.count_at_most(low - 1)
        };
        self.count_at_most(high) - below
    }

    /// The interior-point quality `min(#{x ≤ y}, #{x ≥ y})` (sensitivity 1).
    pub(crate) fn interior_quality(&self, y: u128) -> u64 {
        self.count_at_most(y).min(self.count_at_least(y))
    }

    /// The nodes of `level` of the tree over `[0, 2^d)` with positive weight, as
    /// `(prefix, weight)` in increasing order.
    pub(crate) fn nodes_at(&self, d: u32, level: u32) -> Vec<(u128, u64)> {
        let shift = d - level;
        let mut nodes: Vec<(u128, u64)> = Vec::new();
        for (value, count) in self.runs() {
            let node = u128::from(value) >> shift;
            match nodes.last_mut() {
                Some((last, total)) if *last == node => *total += count,
                _ => nodes.push((node, count)),
            }
        }
        nodes
    }

    /// The multiset without its `t` smallest and `t` largest points (empty if `2t ≥ len`).
    pub(crate) fn trimmed(&self, t: u64) -> Multiset {
        let total = self.len();
        if 2 * u128::from(t) >= u128::from(total) {
            return Multiset::from_runs(&[]);
        }
        let (low, high) = (t, total - t); // keep ranks low..high (0-based, half-open)
        let mut runs = Vec::new();
        for (i, (value, _)) in self.runs().enumerate() {
            let (start, end) = (self.cumulative[i], self.cumulative[i + 1]);
            let kept = end.min(high).saturating_sub(start.max(low));
            if kept > 0 {
                runs.push((value, kept));
            }
        }
        Multiset::from_runs(&runs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_trimming_match_a_direct_computation() {
        let points = [5u64, 1, 5, 9, u64::MAX, 0, 5, 3];
        let set = Multiset::from_points(&points);
        assert_eq!(set.len(), 8);
        for y in [0u128, 1, 4, 5, 6, 9, u128::from(u64::MAX)] {
            let at_most = points.iter().filter(|&&x| u128::from(x) <= y).count() as u64;
            let at_least = points.iter().filter(|&&x| u128::from(x) >= y).count() as u64;
            assert_eq!(set.count_at_most(y), at_most);
            assert_eq!(set.count_at_least(y), at_least);
            assert_eq!(set.interior_quality(y), at_most.min(at_least));
        }
        assert_eq!(set.count_between(3, 5), 4);
        assert_eq!(set.count_between(6, 5), 0);
        let mut sorted = points.to_vec();
        sorted.sort_unstable();
        let trimmed = set.trimmed(2);
        assert_eq!(trimmed, Multiset::from_points(&sorted[2..6]));
        assert_eq!(set.trimmed(4).len(), 0);
    }
}
