//! Exact tests of the structured MWEM against brute force over all N² pairs on small
//! domains, and its accuracy on large ones.

use privpac_accounting::Privacy;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

/// A distribution with a few random interval reweightings, and the dense vector of the
/// same updates.
fn random_distribution(
    size: u64,
    updates: usize,
    rng: &mut ChaCha8Rng,
) -> (PiecewiseDistribution, Vec<f64>) {
    let mut pieces = PiecewiseDistribution::uniform(size).unwrap();
    let mut dense = vec![1.0 / size as f64; size as usize];
    for _ in 0..updates {
        let a = rng.random_range(0..=size);
        let b = rng.random_range(0..=size);
        let (a, b) = (a.min(b), a.max(b));
        let inside = rng.random_range(0.2..3.0);
        let outside = rng.random_range(0.2..3.0);
        pieces.reweight(a, b, inside, outside);
        let mut total = 0.0;
        for (x, w) in dense.iter_mut().enumerate() {
            *w *= if (a..b).contains(&(x as u64)) {
                inside
            } else {
                outside
            };
            total += *w;
        }
        dense.iter_mut().for_each(|w| *w /= total);
    }
    (pieces, dense)
}

fn random_data(size: u64, n: usize, rng: &mut ChaCha8Rng) -> Vec<Point> {
    let mut data: Vec<Point> = (0..n).map(|_| rng.random_range(0..size)).collect();
    data.sort_unstable();
    data
}

/// The brute-force H over cut points 1..=N.
fn brute_h(dist: &PiecewiseDistribution, sorted: &[Point]) -> Vec<i64> {
    let n = sorted.len() as f64;
    (1..=dist.size())
        .map(|g| {
            (n * dist.mass_below(g)).floor() as i64 - sorted.partition_point(|&x| x < g) as i64
        })
        .collect()
}

#[test]
fn pieces_equal_the_dense_histogram_of_the_same_updates() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for size in [1u64, 2, 3, 7, 64, 200] {
        for updates in [0, 1, 5, 20] {
            let (pieces, dense) = random_distribution(size, updates, &mut rng);
            assert!(pieces.len() <= 2 * updates + 1);
            for (x, &w) in dense.iter().enumerate() {
                let m = pieces.mass_of(x as u64);
                assert!(
                    (m - w).abs() <= 1e-12 * w.max(1e-300),
                    "N = {size}, x = {x}: {m} vs {w}"
                );
            }
            let mut below = 0.0;
            for x in 0..=size {
                let p = pieces.mass_below(x);
                assert!(
                    (p - below).abs() < 1e-12,
                    "N = {size}, P({x}) = {p} vs {below}"
                );
                assert!(x == 0 || p >= pieces.mass_below(x - 1), "P is monotone");
                if x < size {
                    below += dense[x as usize];
                }
            }
        }
    }
}

#[test]
fn score_runs_equal_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for size in [1u64, 2, 5, 17, 60] {
        for n in [1usize, 3, 40] {
            let (dist, _) = random_distribution(size, 6, &mut rng);
            let data = random_data(size, n, &mut rng);
            let runs = score_runs(&dist, &data);
            let expanded: Vec<i64> = runs
                .iter()
                .flat_map(|&(_, len, value)| std::iter::repeat_n(value, len as usize))
                .collect();
            assert_eq!(expanded, brute_h(&dist, &data), "N = {size}, n = {n}");
            assert_eq!(runs[0].0, 1);
            for w in runs.windows(2) {
                assert_eq!(w[0].0 + w[0].1, w[1].0);
                assert_ne!(w[0].2, w[1].2, "runs are maximal");
            }
        }
    }
}

/// The level counts are the brute-force histogram of the N² scores, `pair_at` enumerates
/// every level exactly once, and `pair_rank` inverts it.
#[test]
fn levels_enumerate_every_pair_exactly_once() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for size in [1u64, 2, 4, 9, 23] {
        let (dist, _) = random_distribution(size, 4, &mut rng);
        let data = random_data(size, 30, &mut rng);
        let runs = score_runs(&dist, &data);
        let levels = Levels::new(&runs);
        let h = brute_h(&dist, &data);
        let mut brute: BTreeMap<u64, u128> = BTreeMap::new();
        for &a in &h {
            for &b in &h {
                *brute.entry(a.abs_diff(b)).or_default() += 1;
            }
        }
        let counts = level_counts(&levels);
        assert_eq!(counts, brute, "N = {size}");
        for (&k, &count) in &counts {
            let mut seen = std::collections::BTreeSet::new();
            for rank in 0..count {
                let (gi, gj) = pair_at(&levels, k, rank);
                assert_eq!(h[gi as usize - 1].abs_diff(h[gj as usize - 1]), k);
                assert!(seen.insert((gi, gj)), "pair {gi}, {gj} twice");
                assert_eq!(pair_rank(&levels, &runs, gi, gj), (k, rank));
            }
        }
    }
}

/// Sensitivity 1, checked exhaustively: replacing any one data point by any other moves
/// every pair's score by at most 1 (for a fixed synthetic distribution, which depends on
/// the data only through released outputs).
#[test]
fn scores_have_sensitivity_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for size in [2u64, 5, 11] {
        let (dist, _) = random_distribution(size, 5, &mut rng);
        let data = random_data(size, 7, &mut rng);
        let h = brute_h(&dist, &data);
        for i in 0..data.len() {
            for y in 0..size {
                let mut other = data.clone();
                other[i] = y;
                other.sort_unstable();
                let h2 = brute_h(&dist, &other);
                for a in 0..h.len() {
                    for b in 0..h.len() {
                        let s1 = h[a].abs_diff(h[b]);
                        let s2 = h2[a].abs_diff(h2[b]);
                        assert!(s1.abs_diff(s2) <= 1, "N = {size}: {s1} vs {s2}");
                    }
                }
            }
        }
    }
}

/// The structured selection (a level by `select_levels`, then the offset-th unmeasured
/// pair) has exactly the distribution of the exponential mechanism over the unmeasured
/// pairs one by one: the per-pair probabilities agree, and the offset-to-pair map is a
/// bijection onto the unmeasured pairs of the level.
#[test]
fn structured_selection_is_the_exponential_mechanism_over_the_pairs() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mechanism = ExponentialMechanism::new(Privacy::pure(0.7).unwrap(), 1.0).unwrap();
    for size in [3u64, 6, 10] {
        let (dist, _) = random_distribution(size, 3, &mut rng);
        let data = random_data(size, 12, &mut rng);
        let runs = score_runs(&dist, &data);
        let levels = Levels::new(&runs);
        let h = brute_h(&dist, &data);
        let measured: Vec<(u64, u64)> = (0..3)
            .map(|_| (rng.random_range(0..size), rng.random_range(0..size)))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        // Brute force over the unmeasured pairs.
        let mut pairs = Vec::new();
        let mut scores = Vec::new();
        for i in 0..size {
            for j in 0..size {
                if !measured.contains(&(i, j)) {
                    pairs.push((i + 1, j + 1));
                    scores.push(h[i as usize].abs_diff(h[j as usize]) as i64);
                }
            }
        }
        let brute = mechanism.log_probabilities_integer(&scores).unwrap();
        // Structured: level probabilities, uniform inside a level.
        let mut counts = level_counts(&levels);
        let mut excluded: BTreeMap<u64, Vec<u128>> = BTreeMap::new();
        for &(i, j) in &measured {
            let (k, rank) = pair_rank(&levels, &runs, i + 1, j + 1);
            *counts.get_mut(&k).unwrap() -= 1;
            excluded.entry(k).or_default().push(rank);
        }
        let score_levels: Vec<ScoreLevel> = counts
            .iter()
            .filter(|&(_, &c)| c > 0)
            .map(|(&k, &c)| ScoreLevel {
                score: k as i64,
                count: c as u64,
            })
            .collect();
        let level_p = mechanism.level_probabilities(&score_levels).unwrap();
        for (level, sl) in score_levels.iter().enumerate() {
            let k = sl.score as u64;
            let mut ranks = excluded.get(&k).cloned().unwrap_or_default();
            ranks.sort_unstable();
            let mut seen = std::collections::BTreeSet::new();
            for offset in 0..sl.count {
                let mut rank = u128::from(offset);
                for &r in &ranks {
                    if r <= rank {
                        rank += 1;
                    }
                }
                let pair = pair_at(&levels, k, rank);
                assert!(seen.insert(pair));
                let index = pairs.iter().position(|&p| p == pair).expect("unmeasured");
                let structured = level_p[level] / sl.count as f64;
                let exact = brute[index].exp();
                assert!(
                    (structured - exact).abs() <= 1e-12 * exact,
                    "N = {size}, pair {pair:?}: {structured} vs {exact}"
                );
            }
        }
    }
}

/// Above 2^60 pairs the level is drawn by the wide sampler: its level probabilities on the
/// structured levels give every unmeasured pair exactly the brute-force exponential
/// mechanism's probability (small domains, all pairs), and the structured `select` with a
/// pair count above 2^60 draws levels with those probabilities (seeded χ² test,
/// false-failure rate 1e-6 per domain).
#[test]
fn wide_selection_is_the_exponential_mechanism_over_the_pairs() {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let mechanism = ExponentialMechanism::new(Privacy::pure(0.7).unwrap(), 1.0).unwrap();
    for size in [3u64, 6, 10] {
        let (dist, _) = random_distribution(size, 3, &mut rng);
        let data = random_data(size, 12, &mut rng);
        let runs = score_runs(&dist, &data);
        let levels = Levels::new(&runs);
        let h = brute_h(&dist, &data);
        let mut pairs = Vec::new();
        let mut scores = Vec::new();
        for i in 0..size {
            for j in 0..size {
                pairs.push((i + 1, j + 1));
                scores.push(h[i as usize].abs_diff(h[j as usize]) as i64);
            }
        }
        let brute = mechanism.log_probabilities_integer(&scores).unwrap();
        let wide: Vec<WideScoreLevel> = level_counts(&levels)
            .iter()
            .map(|(&k, &c)| WideScoreLevel {
                score: k as i64,
                count: c,
            })
            .collect();
        let level_p = mechanism.wide_level_probabilities(&wide).unwrap();
        for (level, wl) in wide.iter().enumerate() {
            for rank in 0..wl.count {
                let pair = pair_at(&levels, wl.score as u64, rank);
                let index = pairs.iter().position(|&p| p == pair).unwrap();
                let structured = level_p[level] / wl.count as f64;
                let exact = brute[index].exp();
                assert!(
                    (structured - exact).abs() <= 1e-12 * exact,
                    "N = {size}, pair {pair:?}: {structured} vs {exact}"
                );
            }
        }
        let mut observed = vec![0u64; wide.len()];
        for _ in 0..20_000 {
            let (level, offset) = select(&mechanism, NARROW_PAIRS + 1, &wide, &mut rng).unwrap();
            assert!(offset < wide[level].count);
            observed[level] += 1;
        }
        let outcome = privpac_audit::chi_square_gof(&observed, &level_p, 1e-6).unwrap();
        assert!(!outcome.rejected, "N = {size}: {outcome:?}");
    }
}

/// The maximum error of the synthetic distribution over all intervals `[a, b)`:
/// `max G − min G` for `G(g) = P(g) − D(g)/n`, which is linear between the breakpoints.
fn max_interval_error(dist: &PiecewiseDistribution, sorted: &[Point]) -> f64 {
    let n = sorted.len() as f64;
    let mut points: Vec<u64> = dist.pieces().flat_map(|(s, e, _)| [s, e]).collect();
    points.extend(sorted.iter().flat_map(|&x| [x, x + 1]));
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for g in points {
        let v = dist.mass_below(g) - sorted.partition_point(|&x| x < g) as f64 / n;
        lo = lo.min(v);
        hi = hi.max(v);
    }
    hi - lo
}

/// Accuracy on large domains (seeded; the error bound is loose, a run above it would mean
/// the structured selection or update is wrong): 5,000 points from a skewed distribution.
#[test]
fn structured_mwem_is_accurate_for_all_intervals_on_large_domains() {
    let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 20).unwrap();
    for (size, seed) in [(1u64 << 20, 6u64), (1 << 30, 7), (1 << 40, 11)] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut data: Vec<Point> = (0..5000)
            .map(|_| {
                let u: f64 = rng.random();
                ((u * u * u) * size as f64) as u64
            })
            .collect();
        data.sort_unstable();
        let uniform = PiecewiseDistribution::uniform(size).unwrap();
        let before = max_interval_error(&uniform, &data);
        let run = mwem.run_threshold_xor(size, 1, &data, &mut rng).unwrap();
        assert_eq!(run.measured.len(), 20);
        let distinct: std::collections::BTreeSet<_> = run.measured.iter().collect();
        assert_eq!(
            distinct.len(),
            20,
            "a measured pair is never measured again"
        );
        let after = max_interval_error(&run.synthetic, &data);
        assert!(before > 0.3, "{before}");
        assert!(after < 0.1, "N = {size}: error {after}");
        assert!(run.synthetic.len() <= 41);
    }
}

#[test]
fn refusals_and_errors() {
    let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 5).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    assert!(matches!(
        mwem.run_threshold_xor(ORDERED_XOR_LIMIT + 1, 1, &[0], &mut rng),
        Err(Error::TooLarge { .. })
    ));
    assert!(matches!(
        mwem.run_threshold_xor(10, 1, &[], &mut rng),
        Err(Error::EmptyData)
    ));
    assert!(matches!(
        mwem.run_threshold_xor(10, 1, &[10], &mut rng),
        Err(Error::Class(_))
    ));
    assert!(matches!(
        mwem.run_threshold_xor(2, 1, &[0, 1], &mut rng),
        Err(Error::TooManyRounds { .. })
    ));
    // T = N² measures every pair exactly once, the diagonal included.
    let run = Mwem::new(Privacy::pure(1.0).unwrap(), 4)
        .unwrap()
        .run_threshold_xor(2, 1, &[0, 1, 1], &mut rng)
        .unwrap();
    let mut pairs = run.measured.clone();
    pairs.sort_unstable();
    assert_eq!(pairs, vec![0u128, 1, 2, 3]);
    // both(thresholds:2): 16 candidates, each measured once; ids of Xor(both).
    let run = Mwem::new(Privacy::pure(1.0).unwrap(), 16)
        .unwrap()
        .run_threshold_xor(2, 2, &[0, 1, 1], &mut rng)
        .unwrap();
    let mut ids = run.measured.clone();
    ids.sort_unstable();
    assert_eq!(ids, (0..16).collect::<Vec<u128>>());
    assert!(matches!(
        mwem.run_threshold_xor(ORDERED_XOR_LIMIT + 1, 2, &[0], &mut rng),
        Err(Error::TooLarge { .. })
    ));
    // Above 2^60 pairs (the wide sampler) both orientations run, with ids beyond u64.
    let run = mwem
        .run_threshold_xor(1 << 40, 2, &[0, 5, 1 << 39], &mut rng)
        .unwrap();
    assert_eq!(run.measured.len(), 5);
    assert!(run.measured.iter().all(|&id| id < 1 << 84));
    assert!(matches!(
        mwem.run_threshold_xor(10, 3, &[0], &mut rng),
        Err(Error::InvalidParameter { .. })
    ));
}

#[test]
fn average_of_iterates_is_a_distribution_refining_every_iterate() {
    let mwem = Mwem::new(Privacy::pure(1.0).unwrap(), 8)
        .unwrap()
        .with_variant(MwemVariant::AverageOfIterates)
        .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let data = random_data(1 << 16, 2000, &mut rng);
    let run = mwem.run_threshold_xor(1 << 16, 1, &data, &mut rng).unwrap();
    let total: f64 = run.synthetic.pieces().map(|(_, _, m)| m).sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert!(max_interval_error(&run.synthetic, &data) < 0.5);
}

/// The sanitizers that cannot run on a threshold class's XOR class say why at once, and
/// leave small domains to the class path; MWEM runs on every size up to its limit, the tree
/// up to its own.
#[test]
fn threshold_xor_entry_points_refuse_with_the_cost() {
    use crate::{BlumLigettRoth, PrivateMultiplicativeWeights, Sanitizer, ThresholdSanitizer};
    use privpac_classes::ThresholdStructure;
    let pure = Privacy::pure(1.0).unwrap();
    let sanitizers: Vec<Box<dyn Sanitizer>> = vec![
        Box::new(PrivateMultiplicativeWeights::new(pure, 0.1).unwrap()),
        Box::new(ThresholdSanitizer::new(pure).unwrap()),
        Box::new(BlumLigettRoth::new(pure, 4).unwrap()),
        Box::new(Mwem::new(pure, 20).unwrap()),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for sanitizer in &sanitizers {
        for structure in [
            ThresholdStructure::Plain(1 << 40),
            ThresholdStructure::Both(1 << 40),
        ] {
            let outcome = sanitizer.sanitize_threshold_xor(structure, &[0, 1], &mut rng);
            if sanitizer.name().starts_with("mwem") {
                assert!(matches!(outcome, Some(Ok(_))), "{outcome:?}");
            } else {
                assert!(
                    matches!(outcome, Some(Err(Error::TooLarge { .. }))),
                    "{}: {outcome:?}",
                    sanitizer.name()
                );
            }
        }
        let small =
            sanitizer.sanitize_threshold_xor(ThresholdStructure::Plain(8), &[0, 1], &mut rng);
        if sanitizer.name().starts_with("mwem") || sanitizer.name() == "threshold-tree" {
            assert!(matches!(small, Some(Ok(_))));
        } else {
            assert!(small.is_none(), "{}", sanitizer.name());
        }
    }
}
