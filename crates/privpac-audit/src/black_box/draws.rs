//! Drawing a mechanism's outputs in seeded, fixed-size chunks merged in chunk order (so
//! results do not depend on the thread count), and searching the drawn outputs for the
//! event that best separates two inputs.

use super::*;

/// Runs `runs` draws in fixed chunks in parallel and merges the chunk results in chunk
/// order; chunk `c` uses ChaCha8 stream `stream + c` of `seed`, and one call
/// `draw(rng, size, out)` adds its `size` runs.
pub(super) fn collect_chunks<T, F>(seed: u64, stream: Stream, runs: u64, draw: F) -> T
where
    T: Default + Send + Merge,
    F: Fn(&mut ChaCha8Rng, u64, &mut T) + Sync,
{
    let chunks = runs.div_ceil(CHUNK);
    let parts: Vec<T> = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(stream.0 | chunk);
            let size = CHUNK.min(runs - chunk * CHUNK);
            let mut out = T::default();
            out.reserve_runs(size);
            draw(&mut rng, size, &mut out);
            out.finish_chunk();
            out
        })
        .collect();
    let mut total = T::default();
    for part in parts {
        total.merge(part);
    }
    total
}

/// Combining chunk results in order.
pub(super) trait Merge {
    /// Room for `runs` more runs (the chunk size), where results are stored.
    fn reserve_runs(&mut self, _runs: u64) {}
    /// Called once a chunk's runs are drawn.
    fn finish_chunk(&mut self) {}
    fn merge(&mut self, other: Self);
}

/// A hit count.
#[derive(Debug, Default)]
pub(super) struct Hits(pub(super) u64);

impl Merge for Hits {
    fn merge(&mut self, other: Self) {
        self.0 += other.0;
    }
}

impl Merge for Vec<f64> {
    fn reserve_runs(&mut self, runs: u64) {
        self.reserve(runs as usize);
    }

    fn merge(&mut self, other: Self) {
        self.extend(other);
    }
}

/// Counts of finite outputs: (value, count), sorted by value.
pub(super) type Counts = Vec<(u64, u64)>;

/// Finite outputs of a chunk (raw while drawing, then counted) or of several merged
/// chunks, so memory grows with the distinct values, not the runs.
#[derive(Debug, Default)]
pub(super) struct FiniteCounts {
    pub(super) raw: Vec<u64>,
    pub(super) counts: Counts,
}

impl Merge for FiniteCounts {
    fn reserve_runs(&mut self, runs: u64) {
        self.raw.reserve(runs as usize);
    }

    fn finish_chunk(&mut self) {
        let mut raw = std::mem::take(&mut self.raw);
        raw.sort_unstable();
        for value in raw {
            match self.counts.last_mut() {
                Some((last, count)) if *last == value => *count += 1,
                _ => self.counts.push((value, 1)),
            }
        }
    }

    fn merge(&mut self, other: Self) {
        let mine = std::mem::take(&mut self.counts);
        let mut merged = Vec::with_capacity(mine.len().max(other.counts.len()));
        let (mut left, mut right) = (
            mine.into_iter().peekable(),
            other.counts.into_iter().peekable(),
        );
        loop {
            let next = match (left.peek(), right.peek()) {
                (Some(&(x, cx)), Some(&(y, cy))) => {
                    if x == y {
                        left.next();
                        right.next();
                        (x, cx + cy)
                    } else if x < y {
                        left.next();
                        (x, cx)
                    } else {
                        right.next();
                        (y, cy)
                    }
                }
                (Some(_), None) => match left.next() {
                    Some(item) => item,
                    None => break,
                },
                (None, Some(_)) => match right.next() {
                    Some(item) => item,
                    None => break,
                },
                (None, None) => break,
            };
            merged.push(next);
        }
        self.counts = merged;
    }
}

/// The count of `value` in sorted counts.
pub(super) fn count_of(counts: &Counts, value: u64) -> u64 {
    counts
        .binary_search_by_key(&value, |&(v, _)| v)
        .map_or(0, |i| counts[i].1)
}

/// The selection score: the bound certification would give.
#[derive(Debug, Clone, Copy)]
pub(super) struct Scorer {
    /// The selection stage (its ranking runs per input set the ranking uncertainty).
    pub(super) stage: Stage,
    /// Certification runs per input.
    pub(super) runs: u64,
    /// The normal quantile of one certified one-sided bound.
    pub(super) z: f64,
    /// The audited δ.
    pub(super) delta: f64,
}

impl Scorer {
    /// The (uncertified) score of an event hit `large` and `small` times in the ranking
    /// runs: `ln((p̲ − δ)/p̄)` with Wilson bounds around the ranking frequencies whose
    /// width combines the certification's own uncertainty (`z` at `runs`) with the ranking
    /// estimate's ([`RANKING_Z`] standard deviations at the stage's ranking runs): Wilson bounds at
    /// the normal quantile `z` and the effective size `n` with
    /// `z²/n = RANKING_Z²/ranking_runs + z²/runs`. The ranking term keeps rare events,
    /// whose few hits make their ratios mostly noise, from winning the selection on luck;
    /// the certification term makes the score track the certified Clopper–Pearson bound.
    fn score(&self, large: u64, small: u64) -> f64 {
        let n_rank = self.stage.ranking_runs as f64;
        let z2 = self.z * self.z;
        let effective = z2 / (RANKING_Z * RANKING_Z / n_rank + z2 / self.runs as f64);
        let low = wilson_at(large as f64 / n_rank, effective, -self.z);
        let high = wilson_at(small as f64 / n_rank, effective, self.z);
        if low - self.delta <= 0.0 || high <= 0.0 {
            f64::NEG_INFINITY
        } else {
            ((low - self.delta) / high).ln()
        }
    }
}

/// The Wilson score bound at frequency `p` in `n` runs (lower for `z < 0`, upper for
/// `z > 0`).
pub(super) fn wilson_at(p: f64, n: f64, z: f64) -> f64 {
    let z2 = z * z;
    let center = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center + spread) / (1.0 + z2 / n)).clamp(0.0, 1.0)
}

/// The best top set, in either direction: candidates from the proposal counts, ranked on
/// the ranking counts.
pub(super) fn best_finite_event(
    proposal: &(Counts, Counts),
    ranking: &(Counts, Counts),
    scorer: &Scorer,
) -> Candidate {
    let (a, b) = proposal;
    let mut values: Vec<u64> = a.iter().chain(b).map(|&(v, _)| v).collect();
    values.sort_unstable();
    values.dedup();
    // The best candidate: (score, swapped, the value order of its direction, prefix
    // length).
    let mut best: (f64, bool, Vec<u64>, usize) = (f64::NEG_INFINITY, false, Vec::new(), 0);
    for (swapped, prior) in [false, true]
        .into_iter()
        .flat_map(|swapped| RATIO_PRIORS.map(|prior| (swapped, prior)))
    {
        let (large, small) = if swapped { (b, a) } else { (a, b) };
        let (rank_large, rank_small) = if swapped {
            (&ranking.1, &ranking.0)
        } else {
            (&ranking.0, &ranking.1)
        };
        // Values by decreasing smoothed likelihood ratio on the proposal runs; every
        // prefix is a candidate (a single value in the middle of the order, the other
        // natural candidate, is a rare event whose ranking score is mostly luck).
        let mut keyed: Vec<(f64, u64)> = values
            .iter()
            .map(|&v| {
                let ratio =
                    (count_of(large, v) as f64 + prior) / (count_of(small, v) as f64 + prior);
                (ratio, v)
            })
            .collect();
        keyed.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let order: Vec<u64> = keyed.into_iter().map(|(_, v)| v).collect();
        let (mut hits_large, mut hits_small) = (0, 0);
        let mut found: Option<(f64, usize)> = None;
        for (i, &v) in order.iter().enumerate() {
            hits_large += count_of(rank_large, v);
            hits_small += count_of(rank_small, v);
            let prefix = scorer.score(hits_large, hits_small);
            if prefix > found.map_or(best.0, |f| f.0) {
                found = Some((prefix, i + 1));
            }
        }
        if let Some((score, which)) = found {
            best = (score, swapped, order, which);
        }
    }
    let (score, swapped, order, len) = best;
    if score == f64::NEG_INFINITY {
        // Nothing looks violating: the most frequent value of the first input.
        let fallback = a.iter().max_by_key(|&&(_, c)| c).map_or(0, |&(v, _)| v);
        return (false, Event::Values(vec![fallback]), score);
    }
    let mut event = order[..len].to_vec();
    // Sorted, for membership by binary search during certification.
    event.sort_unstable();
    (swapped, Event::Values(event), score)
}

/// The best half-line or interval between quantiles of the pooled proposal samples, in
/// either direction, ranked on the ranking samples (all sorted).
pub(super) fn best_real_event(
    proposal: &(Vec<f64>, Vec<f64>),
    ranking: &(Vec<f64>, Vec<f64>),
    scorer: &Scorer,
) -> Candidate {
    let mut pooled: Vec<f64> = proposal.0.iter().chain(&proposal.1).copied().collect();
    pooled.sort_by(f64::total_cmp);
    pooled.dedup();
    if pooled.is_empty() {
        return (false, Event::AtMost(0.0), f64::NEG_INFINITY);
    }
    let quantiles = |grid: usize| -> Vec<f64> {
        let mut q: Vec<f64> = (0..=grid)
            .map(|i| pooled[(i * (pooled.len() - 1)) / grid])
            .collect();
        q.dedup();
        q
    };
    let (a, b) = (&ranking.0, &ranking.1);
    // Number of samples ≤ t and < t (sorted input).
    let at_most = |s: &[f64], t: f64| s.partition_point(|&o| o <= t) as u64;
    let below = |s: &[f64], t: f64| s.partition_point(|&o| o < t) as u64;
    let mut best = (false, Event::AtMost(pooled[0]), f64::NEG_INFINITY);
    let mut consider = |score: f64, swapped: bool, event: Event| {
        if score > best.2 {
            best = (swapped, event, score);
        }
    };
    let score = |large: u64, small: u64| scorer.score(large, small);
    for t in quantiles(THRESHOLD_GRID) {
        let (la, lb) = (at_most(a, t), at_most(b, t));
        let (ua, ub) = (a.len() as u64 - la, b.len() as u64 - lb);
        consider(score(la, lb), false, Event::AtMost(t));
        consider(score(lb, la), true, Event::AtMost(t));
        consider(score(ua, ub), false, Event::Above(t));
        consider(score(ub, ua), true, Event::Above(t));
    }
    let grid = quantiles(INTERVAL_GRID);
    for (i, &low) in grid.iter().enumerate() {
        for &high in &grid[i + 1..] {
            let ia = below(a, high) - below(a, low);
            let ib = below(b, high) - below(b, low);
            let event = || Event::Interval { low, high };
            consider(score(ia, ib), false, event());
            consider(score(ib, ia), true, event());
        }
    }
    best
}
