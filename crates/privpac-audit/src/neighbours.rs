//! Every pair of neighbouring datasets over a tiny domain, and the worst privacy loss of a
//! mechanism over all of them: the exhaustive half of an exact audit.
//!
//! An exact audit ([`check_claim`](crate::check_claim) and friends) only confirms a claim for
//! the pairs it is given. On a small enough domain we can give it *all* of them, and these
//! helpers enumerate them so that tests do not each re-implement the enumeration.
//!
//! # Datasets and neighbours
//!
//! A **dataset** of size `n` over a domain of `k` points is a sequence `D ∈ {0, …, k−1}^n` of
//! plain `u64` points. Two datasets are **neighbours** ("replace one", the relation of
//! Dwork–Roth 2014, §2.3, for datasets of a fixed size) when they differ in exactly one position.
//! [`neighbouring_datasets`] lists every ordered pair `(D, D')`, so both directions of each
//! unordered pair appear.
//!
//! When the mechanism only looks at the multiset of points, the same relation reads on
//! **histograms** (count vectors `h ∈ ℕ^k` with `Σ h = n`): `h` and `h'` are neighbours when
//! `h' = h − e_u + e_v` for points `u ≠ v` with `h_u ≥ 1`. [`neighbouring_histograms`] lists
//! those pairs; there are far fewer of them than ordered datasets.
//!
//! Richer data map onto plain points: a labeled example `(x, y)` over `m` points is the point
//! `2x + y` of a domain of `2m` points (see the example of [`worst_case_loss`]).
//!
//! # Measuring
//!
//! [`output_pairs`] turns pairs of datasets into pairs of output distributions, computing each
//! dataset's distribution once, ready for [`check_claim`](crate::check_claim) or
//! [`check_pure_claim`](crate::check_pure_claim). [`worst_case_loss`] returns the largest
//! [`max_divergence`] (the pure ε the mechanism needs on these inputs),
//! and [`worst_case_by`] the largest of any other measure, such as
//! [`prediction_privacy_loss`](crate::prediction_privacy_loss).
//!
//! # Limits
//!
//! Every enumeration is refused with [`Error::TooManyDatasets`] above [`MAX_DATASETS`] items,
//! before allocating, so a mistyped size fails fast instead of exhausting memory.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;

use crate::error::{Error, Result};
use crate::exact::max_divergence;

/// The largest number of datasets, histograms or neighbouring pairs one call enumerates
/// (2²⁰ ≈ 10⁶). Exact audits are meant for tiny instances.
pub const MAX_DATASETS: usize = 1 << 20;

/// Fails unless `count` (saturated at `u128::MAX`) is at most [`MAX_DATASETS`].
fn within_limit(what: &'static str, count: Option<u128>) -> Result<usize> {
    match count {
        Some(count) if count <= MAX_DATASETS as u128 => Ok(count as usize),
        _ => Err(Error::TooManyDatasets {
            what,
            count: count.unwrap_or(u128::MAX),
            limit: MAX_DATASETS,
        }),
    }
}

/// `k^n`, or `None` on overflow.
fn sequence_count(domain_size: u64, n: usize) -> Option<u128> {
    let n = u32::try_from(n).ok()?;
    u128::from(domain_size).checked_pow(n)
}

/// Every dataset of `n` points from `{0, …, domain_size − 1}`, in lexicographic order (`[0, 0]`,
/// `[0, 1]`, …). There are `domain_size^n` of them; `n = 0` gives the one empty dataset.
///
/// # Errors
///
/// [`Error::TooManyDatasets`] if `domain_size^n` exceeds [`MAX_DATASETS`].
///
/// # Example
///
/// ```
/// let all = privpac_audit::datasets(2, 2)?;
/// assert_eq!(all, [[0, 0], [0, 1], [1, 0], [1, 1]]);
/// # Ok::<(), privpac_audit::Error>(())
/// ```
pub fn datasets(domain_size: u64, n: usize) -> Result<Vec<Vec<u64>>> {
    let count = within_limit("datasets", sequence_count(domain_size, n))?;
    let mut all = Vec::with_capacity(count);
    if count == 0 {
        return Ok(all);
    }
    let mut current = vec![0u64; n];
    loop {
        all.push(current.clone());
        // An odometer: increment the last position, carrying leftwards.
        let Some(position) = current.iter().rposition(|&point| point + 1 < domain_size) else {
            return Ok(all);
        };
        current[position] += 1;
        current[position + 1..].fill(0);
    }
}

/// Every ordered pair `(D, D')` of datasets of `n` points from `{0, …, domain_size − 1}` that
/// differ in exactly one position: `domain_size^n · n · (domain_size − 1)` pairs, grouped by
/// `D` in the order of [`datasets`], then by position, then by the replacing point.
///
/// # Errors
///
/// [`Error::TooManyDatasets`] if the number of pairs exceeds [`MAX_DATASETS`].
///
/// # Example
///
/// ```
/// let pairs = privpac_audit::neighbouring_datasets(2, 2)?;
/// assert_eq!(pairs.len(), 8); // 4 datasets × 2 positions × 1 other point
/// assert_eq!(pairs[0], (vec![0, 0], vec![1, 0]));
/// assert_eq!(pairs[1], (vec![0, 0], vec![0, 1]));
/// assert!(pairs.iter().all(|(d, e)| d.iter().zip(e).filter(|(a, b)| a != b).count() == 1));
/// # Ok::<(), privpac_audit::Error>(())
/// ```
pub fn neighbouring_datasets(domain_size: u64, n: usize) -> Result<Vec<(Vec<u64>, Vec<u64>)>> {
    let count = sequence_count(domain_size, n)
        .and_then(|count| count.checked_mul(n as u128))
        .and_then(|count| count.checked_mul(u128::from(domain_size.saturating_sub(1))));
    let count = within_limit("neighbouring pairs of datasets", count)?;
    let mut pairs = Vec::with_capacity(count);
    if count == 0 {
        return Ok(pairs);
    }
    for dataset in datasets(domain_size, n)? {
        for position in 0..n {
            for point in (0..domain_size).filter(|&point| point != dataset[position]) {
                let mut neighbour = dataset.clone();
                neighbour[position] = point;
                pairs.push((dataset.clone(), neighbour));
            }
        }
    }
    Ok(pairs)
}

/// `C(n + k − 1, k − 1)`, the number of histograms of `n` points over `k` points, or `None` on
/// overflow.
fn histogram_count(domain_size: usize, n: u64) -> Option<u128> {
    if domain_size == 0 {
        return Some(u128::from(n == 0));
    }
    // C(s + t, s) with {s, t} = {k − 1, n}, as a running product that stays an integer: after
    // step i it equals C(t + i, i). Looping over the smaller of the two ends in at most about
    // 130 steps when both are large, because the count then overflows.
    let (r, n) = (domain_size as u128 - 1, u128::from(n));
    let (s, t) = (r.min(n), r.max(n));
    let mut count: u128 = 1;
    for i in 1..=s {
        count = count.checked_mul(t + i)? / i;
    }
    Some(count)
}

/// Every histogram of `n` points over `domain_size` points: the count vectors `h` of length
/// `domain_size` with `Σ h = n`, with the first count varying slowest (`[0, …, 0, n]` first).
///
/// # Errors
///
/// [`Error::TooManyDatasets`] if there are more than [`MAX_DATASETS`] of them.
///
/// # Example
///
/// ```
/// let all = privpac_audit::histograms(3, 2)?;
/// assert_eq!(all.len(), 6); // C(4, 2)
/// assert_eq!(all[0], [0, 0, 2]);
/// assert_eq!(all[5], [2, 0, 0]);
/// # Ok::<(), privpac_audit::Error>(())
/// ```
pub fn histograms(domain_size: usize, n: u64) -> Result<Vec<Vec<u64>>> {
    let count = within_limit("histograms", histogram_count(domain_size, n))?;
    let mut all = Vec::with_capacity(count);
    if count == 0 {
        return Ok(all);
    }
    let mut prefix = Vec::with_capacity(domain_size);
    push_histograms(domain_size, n, &mut prefix, &mut all);
    Ok(all)
}

/// Appends to `out` every histogram that starts with `prefix` and puts the remaining `left`
/// points on the other positions.
fn push_histograms(domain_size: usize, left: u64, prefix: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
    if prefix.len() + 1 == domain_size {
        prefix.push(left);
        out.push(prefix.clone());
        prefix.pop();
        return;
    }
    for first in 0..=left {
        prefix.push(first);
        push_histograms(domain_size, left - first, prefix, out);
        prefix.pop();
    }
}

/// Every ordered pair `(h, h − e_u + e_v)` of histograms of `n` points over `domain_size`
/// points with `u ≠ v` and `h_u ≥ 1`: the replace-one neighbours of datasets seen as multisets.
/// Both directions of each unordered pair appear.
///
/// # Errors
///
/// [`Error::TooManyDatasets`] if the histograms, or the pairs, exceed [`MAX_DATASETS`].
///
/// # Example
///
/// ```
/// let pairs = privpac_audit::neighbouring_histograms(2, 2)?;
/// // [0, 2] ↔ [1, 1] ↔ [2, 0], in both directions.
/// assert_eq!(pairs.len(), 4);
/// assert!(pairs.contains(&(vec![1, 1], vec![2, 0])));
/// assert!(pairs.contains(&(vec![2, 0], vec![1, 1])));
/// # Ok::<(), privpac_audit::Error>(())
/// ```
pub fn neighbouring_histograms(domain_size: usize, n: u64) -> Result<Vec<(Vec<u64>, Vec<u64>)>> {
    let all = histograms(domain_size, n)?;
    // At most k (k − 1) neighbours each.
    let bound = (all.len() as u128)
        .checked_mul(domain_size as u128)
        .and_then(|count| count.checked_mul(domain_size.saturating_sub(1) as u128));
    within_limit("neighbouring pairs of histograms", bound)?;
    let mut pairs = Vec::new();
    for counts in all {
        for from in (0..domain_size).filter(|&from| counts[from] >= 1) {
            for to in (0..domain_size).filter(|&to| to != from) {
                let mut neighbour = counts.clone();
                neighbour[from] -= 1;
                neighbour[to] += 1;
                pairs.push((counts.clone(), neighbour));
            }
        }
    }
    Ok(pairs)
}

/// A mechanism's output distributions on the two datasets of a pair, shared between pairs.
pub type OutputPair = (Rc<[f64]>, Rc<[f64]>);

/// The output distributions of a mechanism on both sides of every pair, computing the
/// distribution of each distinct dataset once (pairs share them through `Rc`).
///
/// `distribution(D)` returns the mechanism's output probabilities on `D` (or anything else
/// the caller wants to compare, such as log-probabilities). The result feeds
/// [`check_claim`](crate::check_claim), [`check_pure_claim`](crate::check_pure_claim) and
/// [`check_pure_claim_log`](crate::check_pure_claim_log) directly.
///
/// # Example
///
/// Randomized response on each of two bits (each bit kept with probability `e^ε/(1+e^ε)`,
/// outputs the four possible reports) is ε-DP under replace-one neighbours, and not
/// (ε/2)-DP:
///
/// ```
/// use privpac_audit::{Error, check_pure_claim, neighbouring_datasets, output_pairs};
///
/// let epsilon = 1.0_f64;
/// let keep = epsilon.exp() / (1.0 + epsilon.exp());
/// let mechanism = |data: &[u64]| -> Vec<f64> {
///     (0..4u64)
///         .map(|report| {
///             data.iter()
///                 .enumerate()
///                 .map(|(i, &bit)| if (report >> i) & 1 == bit { keep } else { 1.0 - keep })
///                 .product()
///         })
///         .collect()
/// };
/// let pairs = output_pairs(&neighbouring_datasets(2, 2)?, mechanism);
/// let report = check_pure_claim(pairs.iter().cloned(), epsilon, 1e-12)?;
/// assert!((report.worst_epsilon - epsilon).abs() < 1e-12);
/// let refuted = check_pure_claim(pairs.iter().cloned(), epsilon / 2.0, 1e-12);
/// assert!(matches!(refuted, Err(Error::PureClaimViolated { .. })));
/// # Ok::<(), Error>(())
/// ```
pub fn output_pairs<'a, F>(
    pairs: &'a [(Vec<u64>, Vec<u64>)],
    mut distribution: F,
) -> Vec<OutputPair>
where
    F: FnMut(&[u64]) -> Vec<f64>,
{
    let mut cache: HashMap<&[u64], Rc<[f64]>> = HashMap::new();
    let mut outputs = Vec::with_capacity(pairs.len());
    for (d, d_prime) in pairs {
        let mut output = |dataset: &'a [u64]| -> Rc<[f64]> {
            Rc::clone(
                cache
                    .entry(dataset)
                    .or_insert_with(|| Rc::from(distribution(dataset))),
            )
        };
        let pair = (output(d), output(d_prime));
        outputs.push(pair);
    }
    outputs
}

/// The largest value of a measure over all pairs, and where it was attained.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct WorstCase {
    /// The largest measured value (for [`worst_case_loss`], the pure ε these pairs need;
    /// `f64::INFINITY` if some pair has different supports).
    pub value: f64,
    /// Index of the pair attaining it (the first such pair on ties).
    pub pair_index: usize,
    /// How many pairs were measured.
    pub pairs_checked: usize,
}

/// The worst [`max_divergence`] of a mechanism over all `pairs` of datasets: the smallest ε
/// for which it is ε-DP on these inputs.
///
/// # Errors
///
/// [`Error::NoPairs`] for no pairs, and [`Error::InvalidPair`] wrapping the validation error
/// of [`max_divergence`] for the first pair whose distributions are not probability vectors
/// of the same length.
///
/// # Example
///
/// A learner's output distribution over labeled samples: the example `(x, y)` over a domain
/// of two points is the point `2x + y` of a domain of four. This "learner" outputs the label
/// of the first example it sees with probability 3/4 (randomized response with ε = ln 3), and
/// looks at nothing else:
///
/// ```
/// use privpac_audit::{neighbouring_datasets, worst_case_loss};
///
/// let learner = |sample: &[u64]| -> Vec<f64> {
///     let (_x, y) = (sample[0] / 2, sample[0] % 2 == 1);
///     if y { vec![0.25, 0.75] } else { vec![0.75, 0.25] }
/// };
/// let worst = worst_case_loss(&neighbouring_datasets(4, 2)?, learner)?;
/// assert!((worst.value - 3.0_f64.ln()).abs() < 1e-12);
/// assert_eq!(worst.pairs_checked, 16 * 2 * 3);
/// # Ok::<(), privpac_audit::Error>(())
/// ```
pub fn worst_case_loss<F>(pairs: &[(Vec<u64>, Vec<u64>)], distribution: F) -> Result<WorstCase>
where
    F: FnMut(&[u64]) -> Vec<f64>,
{
    worst_case_by(pairs, distribution, max_divergence)
}

/// The worst value of `measure(distribution(D), distribution(D'))` over all `pairs` of
/// datasets, computing each dataset's distribution once.
///
/// Use it with [`prediction_privacy_loss`](crate::prediction_privacy_loss) or
/// [`prediction_stability`](crate::prediction_stability) when `distribution` returns, for
/// every point, the probability of predicting 1 there.
///
/// # Errors
///
/// [`Error::NoPairs`] for no pairs, and [`Error::InvalidPair`] wrapping the first error of
/// `measure`.
///
/// # Example
///
/// ```
/// use privpac_audit::{neighbouring_histograms, prediction_stability, worst_case_by};
///
/// // Predict 1 everywhere with probability (#ones + 1) / (n + 2): one replaced example moves
/// // it by at most 1 / (n + 2).
/// let n = 4;
/// let predictor = |counts: &[u64]| vec![(counts[1] as f64 + 1.0) / (n as f64 + 2.0); 3];
/// let worst = worst_case_by(&neighbouring_histograms(2, n)?, predictor, prediction_stability)?;
/// assert!((worst.value - 1.0 / 6.0).abs() < 1e-15);
/// # Ok::<(), privpac_audit::Error>(())
/// ```
pub fn worst_case_by<F, M>(
    pairs: &[(Vec<u64>, Vec<u64>)],
    distribution: F,
    mut measure: M,
) -> Result<WorstCase>
where
    F: FnMut(&[u64]) -> Vec<f64>,
    M: FnMut(&[f64], &[f64]) -> Result<f64>,
{
    let mut worst: Option<WorstCase> = None;
    for (pair_index, (p, q)) in output_pairs(pairs, distribution).iter().enumerate() {
        let value = measure(p, q).map_err(|error| Error::InvalidPair {
            pair_index,
            error: Box::new(error),
        })?;
        worst = Some(match worst {
            Some(previous) if value.partial_cmp(&previous.value) != Some(Ordering::Greater) => {
                WorstCase {
                    pairs_checked: pair_index + 1,
                    ..previous
                }
            }
            _ => WorstCase {
                value,
                pair_index,
                pairs_checked: pair_index + 1,
            },
        });
    }
    worst.ok_or(Error::NoPairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_pure_claim;

    #[test]
    fn datasets_are_all_sequences_in_order() {
        let all = datasets(3, 2).unwrap();
        assert_eq!(all.len(), 9);
        assert_eq!(all[0], [0, 0]);
        assert_eq!(all[1], [0, 1]);
        assert_eq!(all[3], [1, 0]);
        assert_eq!(all[8], [2, 2]);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, all);
        assert_eq!(datasets(5, 0).unwrap(), [Vec::<u64>::new()]);
        assert!(datasets(0, 2).unwrap().is_empty());
        assert_eq!(datasets(1, 3).unwrap(), [[0, 0, 0]]);
    }

    #[test]
    fn neighbouring_datasets_differ_in_exactly_one_position_and_cover_every_pair() {
        let (k, n) = (3, 3);
        let pairs = neighbouring_datasets(k, n).unwrap();
        assert_eq!(pairs.len(), 27 * 3 * 2);
        let all = datasets(k, n).unwrap();
        let mut expected = Vec::new();
        for d in &all {
            for e in &all {
                if d.iter().zip(e).filter(|(a, b)| a != b).count() == 1 {
                    expected.push((d.clone(), e.clone()));
                }
            }
        }
        let mut found = pairs.clone();
        found.sort();
        expected.sort();
        assert_eq!(found, expected);
        assert!(neighbouring_datasets(1, 4).unwrap().is_empty());
        assert!(neighbouring_datasets(4, 0).unwrap().is_empty());
    }

    #[test]
    fn histograms_are_all_count_vectors() {
        for (k, n) in [(1, 3), (2, 0), (3, 2), (4, 3)] {
            let all = histograms(k, n).unwrap();
            assert_eq!(all.len() as u128, histogram_count(k, n).unwrap());
            assert!(
                all.iter()
                    .all(|h| h.len() == k && h.iter().sum::<u64>() == n)
            );
            // Exactly the multisets of the datasets.
            let mut from_datasets: Vec<Vec<u64>> = datasets(k as u64, n as usize)
                .unwrap()
                .iter()
                .map(|d| {
                    let mut h = vec![0; k];
                    d.iter().for_each(|&x| h[x as usize] += 1);
                    h
                })
                .collect();
            from_datasets.sort();
            from_datasets.dedup();
            let mut sorted = all.clone();
            sorted.sort();
            assert_eq!(sorted, from_datasets);
        }
        assert_eq!(histogram_count(0, 0), Some(1));
        assert!(histograms(0, 1).unwrap().is_empty());
        assert_eq!(histogram_count(10, 5), Some(2002));
    }

    #[test]
    fn neighbouring_histograms_move_one_point() {
        let pairs = neighbouring_histograms(3, 2).unwrap();
        for (h, e) in &pairs {
            let moved: i64 = h
                .iter()
                .zip(e)
                .map(|(&a, &b)| (a as i64 - b as i64).abs())
                .sum();
            assert_eq!(moved, 2, "{h:?} {e:?}");
            assert!(pairs.contains(&(e.clone(), h.clone())), "symmetric");
        }
        // [2,0,0] has 2 neighbours; [1,1,0] has 4; three of each kind.
        assert_eq!(pairs.len(), 3 * 2 + 3 * 4);
    }

    #[test]
    fn enumerations_refuse_huge_sizes_before_allocating() {
        let too_many = |result: Result<Vec<Vec<u64>>>| {
            matches!(
                result,
                Err(Error::TooManyDatasets {
                    limit: MAX_DATASETS,
                    ..
                })
            )
        };
        assert!(too_many(datasets(2, 21)));
        assert!(too_many(datasets(u64::MAX, 1_000)));
        assert!(too_many(histograms(1_000, 1_000)));
        assert!(matches!(
            neighbouring_datasets(2, 20),
            Err(Error::TooManyDatasets { count, .. }) if count == 20 << 20
        ));
        assert!(neighbouring_histograms(usize::MAX, 1).is_err());
        assert_eq!(datasets(2, 20).unwrap().len(), MAX_DATASETS);
    }

    #[test]
    fn output_pairs_compute_each_dataset_once() {
        let pairs = neighbouring_datasets(2, 3).unwrap();
        let mut calls = 0;
        let outputs = output_pairs(&pairs, |d| {
            calls += 1;
            vec![
                d.iter().sum::<u64>() as f64 / 3.0,
                1.0 - d.iter().sum::<u64>() as f64 / 3.0,
            ]
        });
        assert_eq!(calls, 8);
        assert_eq!(outputs.len(), pairs.len());
        assert_eq!(&*outputs[0].0, [0.0, 1.0]);
        assert_eq!(&*outputs[0].1, [1.0 / 3.0, 1.0 - 1.0 / 3.0]);
    }

    /// Randomized response on the first point's parity, keeping it with probability `keep`.
    fn first_bit(keep: f64) -> impl Fn(&[u64]) -> Vec<f64> {
        move |d: &[u64]| {
            if d[0] % 2 == 1 {
                vec![1.0 - keep, keep]
            } else {
                vec![keep, 1.0 - keep]
            }
        }
    }

    #[test]
    fn worst_case_loss_finds_the_first_worst_pair() {
        let keep: f64 = 0.8;
        let pairs = neighbouring_datasets(3, 2).unwrap();
        let worst = worst_case_loss(&pairs, first_bit(keep)).unwrap();
        assert!((worst.value - (keep / (1.0 - keep)).ln()).abs() < 1e-12);
        assert_eq!(worst.pairs_checked, pairs.len());
        // The first pair that changes the first point's parity: [0,0] → [1,0].
        assert_eq!(pairs[worst.pair_index], (vec![0, 0], vec![1, 0]));
        // The same number as check_pure_claim, which refutes anything smaller.
        let outputs = output_pairs(&pairs, first_bit(keep));
        let report = check_pure_claim(outputs.iter().cloned(), worst.value, 0.0).unwrap();
        assert_eq!(report.worst_epsilon, worst.value);
        assert!(check_pure_claim(outputs.iter().cloned(), worst.value * 0.99, 0.0).is_err());
    }

    #[test]
    fn worst_case_reports_bad_distributions_and_no_pairs() {
        assert_eq!(
            worst_case_loss(&[], first_bit(0.5)).unwrap_err(),
            Error::NoPairs
        );
        let pairs = neighbouring_datasets(2, 1).unwrap();
        let error = worst_case_loss(&pairs, |_| vec![0.5, 0.6]).unwrap_err();
        assert!(
            matches!(error, Error::InvalidPair { pair_index: 0, ref error } if matches!(**error, Error::NotNormalized { .. })),
            "{error:?}"
        );
        // A measure's own errors are wrapped the same way.
        let error = worst_case_by(&pairs, first_bit(0.5), |_, _| Err(Error::NoPairs)).unwrap_err();
        assert_eq!(
            error,
            Error::InvalidPair {
                pair_index: 0,
                error: Box::new(Error::NoPairs)
            }
        );
    }
}
