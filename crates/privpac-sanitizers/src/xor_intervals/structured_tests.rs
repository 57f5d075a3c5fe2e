//! Exact tests of MWEM on `INTERVAL ⊕ INTERVAL` by structure: the level counts and the
//! pair of every rank against brute force over all ordered pairs of intervals, the
//! selection against the exponential mechanism over the pairs one by one, an exact privacy
//! audit of one selection, the update against the dense [`Mwem`]'s, and runs on large
//! domains.

use std::collections::{BTreeMap, BTreeSet};

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Intervals, Point, Xor};
use privpac_mechanisms::{ExponentialMechanism, WideScoreLevel};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::count::{Count, U192, U256};
use super::levels::{Cut, IntervalPairLevels};
use super::run::{apply_round, query_ranges, select_unmeasured};
use crate::pieces::PiecewiseDistribution;
use crate::{Mwem, MwemVariant, Sanitizer};

/// A distribution after a few random updates on unions of two ranges.
fn random_distribution(size: u64, updates: usize, rng: &mut ChaCha8Rng) -> PiecewiseDistribution {
    let mut dist = PiecewiseDistribution::uniform(size).unwrap();
    for _ in 0..updates {
        let mut ends: Vec<u64> = (0..4).map(|_| rng.random_range(0..=size)).collect();
        ends.sort_unstable();
        let ranges = [(ends[0], ends[1]), (ends[2], ends[3])];
        dist.reweight_ranges(&ranges, rng.random_range(0.05..3.0), 1.0);
    }
    dist
}

/// Data with repeats (a few heavy points) over `[size]`.
fn random_data(size: u64, n: usize, rng: &mut ChaCha8Rng) -> Vec<Point> {
    let heavy: Vec<Point> = (0..2).map(|_| rng.random_range(0..size)).collect();
    (0..n)
        .map(|_| {
            if rng.random_bool(0.4) {
                heavy[rng.random_range(0..heavy.len())]
            } else {
                rng.random_range(0..size)
            }
        })
        .collect()
}

/// Every interval of the class in id order, by its cut points.
fn all_intervals(size: u64) -> Vec<Cut> {
    let class = Intervals::new(size).unwrap();
    (0..class.len() as u64)
        .map(|id| class.bounds(id).map(|(a, b)| (a, b + 1)))
        .collect()
}

/// The score of every ordered pair, computed from its definition: the alternating sum of
/// `G(g) = ⌊n·P(g)⌋ − D(g)` over the sorted ends, P by [`PiecewiseDistribution::mass_below`].
fn brute_scores(dist: &PiecewiseDistribution, data: &[Point]) -> Vec<((Cut, Cut), i64)> {
    let n = data.len() as f64;
    let g = |c: u64| {
        (n * dist.mass_below(c)).floor() as i64 - data.iter().filter(|&&x| x < c).count() as i64
    };
    let intervals = all_intervals(dist.size());
    let mut out = Vec::new();
    for &x in &intervals {
        for &y in &intervals {
            let mut ends: Vec<u64> = [x, y]
                .into_iter()
                .flatten()
                .flat_map(|(u, v)| [u, v])
                .collect();
            ends.sort_unstable();
            let sum: i64 = ends
                .iter()
                .enumerate()
                .map(|(r, &e)| if r % 2 == 0 { -g(e) } else { g(e) })
                .sum();
            out.push(((x, y), sum.abs()));
        }
    }
    out
}

fn levels_of(dist: &PiecewiseDistribution, data: &[Point]) -> IntervalPairLevels<u128> {
    let mut sorted = data.to_vec();
    sorted.sort_unstable();
    IntervalPairLevels::new(dist, &sorted)
}

/// The `u128` levels of `dist` and `data` against brute force over all pairs: the count of
/// every score, and every rank of every level mapped to a distinct pair of that score.
fn levels_match_brute_force(
    dist: &PiecewiseDistribution,
    data: &[Point],
    size: u64,
) -> IntervalPairLevels<u128> {
    let brute = brute_scores(dist, data);
    let mut expected: BTreeMap<i64, u128> = BTreeMap::new();
    for &(_, s) in &brute {
        *expected.entry(s).or_default() += 1;
    }
    let levels = levels_of(dist, data);
    assert_eq!(levels.counts(), &expected, "N = {size}, data {data:?}");
    let score_of: BTreeMap<(Cut, Cut), i64> = brute.into_iter().collect();
    let mut seen = BTreeSet::new();
    for (&score, &count) in levels.counts() {
        for rank in 0..count {
            let pair = levels.pair_at(score, rank);
            assert_eq!(score_of[&pair], score, "N = {size}: {pair:?}");
            assert!(seen.insert(pair), "N = {size}: {pair:?} twice");
        }
    }
    assert_eq!(seen.len(), score_of.len());
    levels
}

/// On many random distributions and data sets over small domains, the level counts are the
/// brute-force histogram of the scores of all `(1 + N(N+1)/2)²` ordered pairs, and the
/// offsets `0..count` of every level map one to one onto the pairs of that score.
#[test]
fn level_counts_and_ranks_match_brute_force_over_all_pairs() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut cases = 0;
    for size in [1u64, 2, 3, 4, 6, 9, 13] {
        for _ in 0..12 {
            let dist = random_distribution(size, rng.random_range(0..5), &mut rng);
            let n = rng.random_range(1..12);
            let data = random_data(size, n, &mut rng);
            let levels = levels_match_brute_force(&dist, &data, size);
            // The 256-bit program (above 2^32 points) counts and ranks the same way.
            let mut sorted = data.clone();
            sorted.sort_unstable();
            // With budget 0 it keeps checkpoints every √R runs and recomputes between.
            let wide = IntervalPairLevels::<U256>::with_budget(
                super::levels::runs_from_zero(&dist, &sorted),
                0,
            );
            let wide_counts: BTreeMap<i64, u128> = wide
                .counts()
                .iter()
                .map(|(&k, c)| (k, c.parts().1))
                .collect();
            assert_eq!(&wide_counts, levels.counts());
            // And the 192-bit one (between 2^32 and 2^48 points), with a snapshot before
            // every run.
            let narrow = IntervalPairLevels::<U192>::new(&dist, &sorted);
            let narrow_counts: BTreeMap<i64, u128> = narrow
                .counts()
                .iter()
                .map(|(&k, c)| (k, c.parts().1))
                .collect();
            assert_eq!(&narrow_counts, levels.counts());
            for (&score, &count) in levels.counts() {
                for rank in 0..count {
                    assert_eq!(
                        wide.pair_at(score, U256::from_u128(rank)),
                        levels.pair_at(score, rank)
                    );
                    assert_eq!(
                        narrow.pair_at(score, U192::from_u128(rank)),
                        levels.pair_at(score, rank)
                    );
                }
            }
            cases += 1;
        }
    }
    assert_eq!(cases, 84);
}

/// The hostile corners of the data: every point at 0, every point at N − 1, both ends
/// with repeats, on N = 1 to 5 (N = 1: the ends coincide) and on the uniform and random
/// distributions; the counts against brute force and every rank mapped back to a distinct
/// pair of its score.
#[test]
fn level_counts_match_brute_force_with_data_at_the_ends() {
    let mut rng = ChaCha8Rng::seed_from_u64(38);
    let mut cases = 0;
    for size in 1u64..=5 {
        for updates in [0, 3] {
            let dist = random_distribution(size, updates, &mut rng);
            let last = size - 1;
            for data in [
                vec![0; 5],
                vec![last; 7],
                vec![0, last, 0, last, last],
                vec![last, 0],
                vec![0],
            ] {
                levels_match_brute_force(&dist, &data, size);
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 50);
}

/// The structured selection's exact probability of every unmeasured pair: the level's
/// probability over its count (every pair of the level has the same), renormalized over
/// the unmeasured pairs (the redraw of a measured one).
fn selection_probabilities(
    mechanism: &ExponentialMechanism,
    dist: &PiecewiseDistribution,
    data: &[Point],
    measured: &[(Cut, Cut)],
) -> BTreeMap<(Cut, Cut), f64> {
    let levels = levels_of(dist, data);
    let wide: Vec<WideScoreLevel> = levels
        .counts()
        .iter()
        .map(|(&score, &count)| WideScoreLevel { score, count })
        .collect();
    let p = mechanism.wide_level_probabilities(&wide).unwrap();
    let mut out = BTreeMap::new();
    for (level, wl) in wide.iter().enumerate() {
        for rank in 0..wl.count {
            let pair = levels.pair_at(wl.score, rank);
            if !measured.contains(&pair) {
                out.insert(pair, p[level] / wl.count as f64);
            }
        }
    }
    let total: f64 = out.values().sum();
    out.values_mut().for_each(|p| *p /= total);
    out
}

/// Every unmeasured pair gets exactly the probability of the exponential mechanism over
/// the unmeasured pairs one by one with the same scores.
#[test]
fn structured_selection_is_the_exponential_mechanism_over_the_unmeasured_pairs() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mechanism = ExponentialMechanism::new(Privacy::pure(0.7).unwrap(), 1.0).unwrap();
    for size in [2u64, 4, 7, 10] {
        let dist = random_distribution(size, 4, &mut rng);
        let data = random_data(size, 15, &mut rng);
        let intervals = all_intervals(size);
        let measured: Vec<(Cut, Cut)> = (0..4)
            .map(|_| {
                (
                    intervals[rng.random_range(0..intervals.len())],
                    intervals[rng.random_range(0..intervals.len())],
                )
            })
            .collect();
        let (pairs, scores): (Vec<_>, Vec<_>) = brute_scores(&dist, &data)
            .into_iter()
            .filter(|(p, _)| !measured.contains(p))
            .unzip();
        let dense = mechanism.log_probabilities_integer(&scores).unwrap();
        let structured = selection_probabilities(&mechanism, &dist, &data, &measured);
        assert_eq!(structured.len(), pairs.len());
        for (pair, log_p) in pairs.iter().zip(dense) {
            let (s, d) = (structured[pair], log_p.exp());
            assert!(
                (s - d).abs() <= 1e-9 * d,
                "N = {size}, {pair:?}: {s} vs {d}"
            );
        }
    }
}

/// The sampler itself (level, offset, pair, redraw of a measured pair), run with `u128` and
/// with 256-bit counts, against the exact probabilities of the exponential mechanism over
/// the unmeasured pairs: a seeded χ² goodness-of-fit test at false-failure rate 10⁻⁶ per
/// case, with a negative control (the same draws against the law with one more pair
/// measured, which must be rejected).
#[test]
fn the_selection_sampler_draws_the_mechanism_over_the_unmeasured_pairs() {
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mechanism = ExponentialMechanism::new(Privacy::pure(0.9).unwrap(), 1.0).unwrap();
    for size in [3u64, 4] {
        let dist = random_distribution(size, 3, &mut rng);
        let data = random_data(size, 9, &mut rng);
        let mut sorted = data.clone();
        sorted.sort_unstable();
        let narrow = IntervalPairLevels::<u128>::new(&dist, &sorted);
        let wide = IntervalPairLevels::<U256>::new(&dist, &sorted);
        // Measure the most likely pairs, so that redraws happen often.
        let exact_all = selection_probabilities(&mechanism, &dist, &data, &[]);
        let mut by_mass: Vec<_> = exact_all.iter().collect();
        by_mass.sort_by(|a, b| b.1.total_cmp(a.1));
        let measured_list: Vec<(Cut, Cut)> = by_mass.iter().take(3).map(|(p, _)| **p).collect();
        let measured: BTreeSet<(Cut, Cut)> = measured_list.iter().copied().collect();
        let exact = selection_probabilities(&mechanism, &dist, &data, &measured_list);
        let pairs: Vec<(Cut, Cut)> = exact.keys().copied().collect();
        let law: Vec<f64> = pairs.iter().map(|p| exact[p]).collect();
        let concepts = 1 + u128::from(size) * u128::from(size + 1) / 2;
        let draws = 40_000;
        for use_wide in [false, true] {
            let mut counts = vec![0u64; pairs.len()];
            for _ in 0..draws {
                let pair = if use_wide {
                    let total = U256::from_u128(concepts).mul_small(concepts);
                    select_unmeasured(&mechanism, total, &wide, &measured, &mut rng).unwrap()
                } else {
                    select_unmeasured(
                        &mechanism,
                        concepts * concepts,
                        &narrow,
                        &measured,
                        &mut rng,
                    )
                    .unwrap()
                };
                assert!(!measured.contains(&pair), "a measured pair was returned");
                let index = pairs.binary_search(&pair).expect("a pair of the domain");
                counts[index] += 1;
            }
            let outcome = privpac_audit::chi_square_gof(&counts, &law, 1e-6).unwrap();
            assert!(
                !outcome.rejected,
                "N = {size}, wide {use_wide}: {outcome:?}"
            );
            // Negative control: one more (the likeliest unmeasured) pair measured.
            let mut more = measured_list.clone();
            more.push(*by_mass[3].0);
            let shifted = selection_probabilities(&mechanism, &dist, &data, &more);
            let wrong: Vec<f64> = pairs
                .iter()
                .map(|p| shifted.get(p).copied().unwrap_or(0.0))
                .collect();
            let control = privpac_audit::chi_square_gof(&counts, &wrong, 1e-6).unwrap();
            assert!(control.rejected, "N = {size}: the control was not rejected");
        }
    }
}

/// Exact audit of one structured selection step (the new randomized step; the measurement
/// and the composition are [`Mwem`]'s): on every replace-one neighbour of small data sets,
/// for a fixed synthetic distribution and measured set (they depend on the data only
/// through released outputs), every pair's probability changes by a factor of at most
/// `e^ε`; and the realized loss is above ε/2, so the audit can fail.
#[test]
fn one_structured_selection_is_exactly_epsilon_private() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let epsilon = 0.8;
    let mechanism = ExponentialMechanism::new(Privacy::pure(epsilon).unwrap(), 1.0).unwrap();
    let mut worst = 0.0f64;
    for size in [3u64, 4] {
        let dist = random_distribution(size, 3, &mut rng);
        let data = random_data(size, 4, &mut rng);
        let measured = [(Some((0, size)), None), (None, None)];
        let base = selection_probabilities(&mechanism, &dist, &data, &measured);
        for position in 0..data.len() {
            for value in 0..size {
                let mut neighbour = data.clone();
                neighbour[position] = value;
                let other = selection_probabilities(&mechanism, &dist, &neighbour, &measured);
                assert_eq!(base.len(), other.len());
                for (pair, &p) in &base {
                    let loss = (p.ln() - other[pair].ln()).abs();
                    assert!(loss <= epsilon + 1e-9, "N = {size}, {pair:?}: loss {loss}");
                    worst = worst.max(loss);
                }
            }
        }
    }
    assert!(worst > epsilon / 2.0, "realized loss {worst}");
}

/// The dense [`Mwem`] on the XOR class of the intervals (query matrix, histogram, atom
/// replay), with its measured pairs and noisy counts replayed through the structured
/// update, gives the same synthetic distribution up to rounding, for both variants.
#[test]
fn updates_equal_the_dense_mwem_on_its_own_transcript() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for size in [3u64, 6, 10] {
        let class = Intervals::new(size).unwrap();
        let xor = Xor::new(&class as &dyn ConceptClass).unwrap();
        let queries: Vec<u64> = (0..xor.len() as u64).collect();
        let intervals = all_intervals(size);
        let concepts = intervals.len() as u64;
        for variant in [
            MwemVariant::Replay { passes: 7 },
            MwemVariant::AverageOfIterates,
        ] {
            let mwem = Mwem::new(Privacy::pure(2.0).unwrap(), 6)
                .unwrap()
                .with_variant(variant)
                .unwrap();
            let data = random_data(size, 25, &mut rng);
            let dense = mwem.run(&xor, &queries, &data, &mut rng).unwrap();
            let passes = match variant {
                MwemVariant::Replay { passes } => passes,
                MwemVariant::AverageOfIterates => 0,
            };
            let n = data.len() as f64;
            let mut dist = PiecewiseDistribution::uniform(size).unwrap();
            let mut history = Vec::new();
            let mut iterates = Vec::new();
            for (&id, &noisy) in dense.measured.iter().zip(&dense.measurements) {
                let pair = (
                    intervals[(id / concepts) as usize],
                    intervals[(id % concepts) as usize],
                );
                history.push((query_ranges(pair), noisy as f64 / n));
                apply_round(&mut dist, &history, passes);
                iterates.push(dist.clone());
            }
            let structured = if passes == 0 {
                crate::xor_points::average(&iterates, &dist)
            } else {
                dist
            };
            for x in 0..size {
                let (s, d) = (structured.mass_of(x), dense.synthetic.mass_of(x));
                assert!(
                    (s - d).abs() <= 1e-12,
                    "N = {size}, {variant}, point {x}: {s} vs {d}"
                );
            }
        }
    }
}

/// The largest error of the distribution over single intervals (a subclass of the
/// queries, and every query is the sum of two such): `max − min` of `P(g) − D(g)/n` over
/// the cut points where either changes.
fn max_interval_error(dist: &PiecewiseDistribution, sorted: &[Point]) -> f64 {
    let n = sorted.len() as f64;
    let mut cuts: Vec<u64> = dist.pieces().flat_map(|(s, e, _)| [s, e]).collect();
    cuts.extend(sorted.iter().flat_map(|&x| [x, x + 1]));
    let diffs: Vec<f64> = cuts
        .iter()
        .map(|&g| dist.mass_below(g) - sorted.partition_point(|&x| x < g) as f64 / n)
        .collect();
    let max = diffs.iter().copied().fold(f64::MIN, f64::max);
    let min = diffs.iter().copied().fold(f64::MAX, f64::min);
    max - min
}

/// On 2^20 points MWEM runs by structure (the dense matrix would need 10^29 bits), its
/// measured pairs are distinct, and the synthetic distribution fits the data's intervals
/// far better than the uniform start (seeded; the data sit on 1% of the domain, so the
/// uniform distribution errs by about 0.99).
#[test]
fn structured_mwem_runs_and_fits_on_a_million_points() {
    let size = 1u64 << 20;
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let data: Vec<Point> = (0..400)
        .map(|_| 500_000 + rng.random_range(0..10_000u64))
        .collect();
    let mut sorted = data.clone();
    sorted.sort_unstable();
    let uniform = PiecewiseDistribution::uniform(size).unwrap();
    assert!(max_interval_error(&uniform, &sorted) > 0.98);
    let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 10).unwrap();
    let run = mwem.run_interval_xor(size, &data, &mut rng).unwrap();
    assert_eq!(run.measured.len(), 10);
    assert_eq!(run.measured.iter().collect::<BTreeSet<_>>().len(), 10);
    let error = max_interval_error(&run.synthetic, &sorted);
    assert!(error < 0.3, "max interval error {error}");
    // The trait's entry point runs the same structured path above the dense cap.
    let out = mwem
        .sanitize_interval_xor(size, &data, &mut rng)
        .unwrap()
        .unwrap();
    assert!(matches!(out, crate::IntervalXorSynthetic::Pieces(ref p) if p.size() == size));
}

/// On 2^40 points (about 2^158 pairs, counted in 256 bits and drawn by the huge level
/// sampler) MWEM runs by structure, its measured pairs are distinct and inside the domain,
/// and the synthetic distribution fits the data's intervals far better than the uniform
/// start (seeded); the level counts add up to `(1 + N(N+1)/2)²` exactly.
#[test]
fn structured_mwem_runs_on_two_to_the_forty_points() {
    let size = 1u64 << 40;
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let data: Vec<Point> = (0..400)
        .map(|_| (1 << 38) + rng.random_range(0..1u64 << 36))
        .collect();
    let mut sorted = data.clone();
    sorted.sort_unstable();
    let uniform = PiecewiseDistribution::uniform(size).unwrap();
    assert!(max_interval_error(&uniform, &sorted) > 0.9);
    let levels = IntervalPairLevels::<U256>::new(&uniform, &sorted);
    let total = levels
        .counts()
        .values()
        .fold(U256::default(), |sum, &c| sum.add(c));
    let n = u128::from(size);
    let concepts = 1 + n * (n + 1) / 2;
    assert_eq!(total, U256::from_u128(concepts).mul_small(concepts));
    let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 10).unwrap();
    let run = mwem.run_interval_xor(size, &data, &mut rng).unwrap();
    assert_eq!(run.measured.iter().collect::<BTreeSet<_>>().len(), 10);
    for pair in &run.measured {
        for &(a, b) in pair.iter().flatten() {
            assert!(a <= b && b < size, "{pair:?}");
        }
    }
    let error = max_interval_error(&run.synthetic, &sorted);
    assert!(error < 0.3, "max interval error {error}");
}

/// At 2^40 points the run counts in 192 bits; the same run with 256-bit counts (the width
/// used before, and above 2^48 points) makes exactly the same draws: same pairs, same
/// measurements, bit-identical synthetic distribution (seeded, several seeds).
#[test]
fn the_count_width_changes_no_draw() {
    let size = 1u64 << 40;
    for seed in 0..3 {
        let mut rng = ChaCha8Rng::seed_from_u64(40 + seed);
        let data: Vec<Point> = (0..120)
            .map(|i| {
                if i % 2 == 0 {
                    (1 << 37) + rng.random_range(0..1u64 << 35)
                } else {
                    rng.random_range(0..size)
                }
            })
            .collect();
        let mut sorted = data.clone();
        sorted.sort_unstable();
        let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 6).unwrap();
        let narrow = mwem
            .run_interval_xor(size, &data, &mut ChaCha8Rng::seed_from_u64(seed))
            .unwrap();
        let n = u128::from(size);
        let concepts = 1 + n * (n + 1) / 2;
        let total = U256::from_u128(concepts).mul_small(concepts);
        let wide = mwem
            .interval_rounds(
                PiecewiseDistribution::uniform(size).unwrap(),
                &sorted,
                total,
                &mut ChaCha8Rng::seed_from_u64(seed),
            )
            .unwrap();
        assert_eq!(narrow.measured, wide.measured);
        assert_eq!(narrow.measurements, wide.measurements);
        let bits = |d: &PiecewiseDistribution| -> Vec<(u64, u64, u64)> {
            d.pieces().map(|(a, b, m)| (a, b, m.to_bits())).collect()
        };
        assert_eq!(bits(&narrow.synthetic), bits(&wide.synthetic));
    }
}
