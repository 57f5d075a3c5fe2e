//! Exact privacy audits with privpac-audit: exact output distributions on all neighbouring data
//! sets of tiny domains (enumerated by `privpac_audit::neighbouring_histograms`), plus χ² checks
//! that the samplers follow those distributions.

use privpac_audit::{
    Error as AuditError, OutputPair, check_claim, check_pure_claim, chi_square_gof, output_pairs,
};
use privpac_classes::{ConceptClass, Domain, Points, Thresholds};
use privpac_mechanisms::{DiscreteLaplace, Privacy};
use privpac_sanitizers::{BlumLigettRoth, PointSanitizer, Sanitizer};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// All ordered neighbouring pairs (replace one point) of data sets of size `n` over `k`
/// points, as count vectors: `counts` and `counts − e_u + e_v`.
fn neighbours(k: usize, n: u64) -> Vec<(Vec<u64>, Vec<u64>)> {
    privpac_audit::neighbouring_histograms(k, n).unwrap()
}

/// The data set (sorted points) with the given counts.
fn points_of(counts: &[u64]) -> Vec<u64> {
    counts
        .iter()
        .enumerate()
        .flat_map(|(x, &c)| std::iter::repeat_n(x as u64, c as usize))
        .collect()
}

// ---- The point sanitizer's thresholding step. ----

/// Bins of one point's release: ⊥, the values τ, …, τ + window − 1, and "≥ τ + window".
/// Binning is post-processing, so auditing binned outputs is sound; the last bin keeps the
/// whole tail, so no mass is dropped.
fn point_bins(noise: DiscreteLaplace, threshold: i64, count: i64, window: i64) -> Vec<f64> {
    let mut bins = vec![0.0; window as usize + 2];
    if count == 0 {
        bins[0] = 1.0;
        return bins;
    }
    bins[0] = 1.0 - noise.survival(threshold - count);
    for j in 0..window {
        bins[1 + j as usize] = noise.pmf(threshold + j - count);
    }
    bins[window as usize + 1] = noise.survival(threshold + window - count);
    bins
}

/// The exact (binned) distribution of the whole release: a product over points.
fn release_distribution(
    noise: DiscreteLaplace,
    threshold: i64,
    counts: &[u64],
    window: i64,
) -> Vec<f64> {
    let mut joint = vec![1.0];
    for &count in counts {
        let bins = point_bins(noise, threshold, count as i64, window);
        joint = joint
            .iter()
            .flat_map(|&p| bins.iter().map(move |&q| p * q))
            .collect();
    }
    joint
}

/// Exact release distributions on all neighbouring pairs of data sets of size `n` over `k`
/// points.
fn release_pairs(
    noise: DiscreteLaplace,
    threshold: i64,
    k: usize,
    n: u64,
    window: i64,
) -> Vec<OutputPair> {
    output_pairs(&neighbours(k, n), |counts| {
        release_distribution(noise, threshold, counts, window)
    })
}

/// Two families of neighbours: three points with n = 2 (points appear and disappear), and
/// two points with n = 2τ + 12 (both counts can sit above the threshold at once, so that
/// released values carry most of the mass).
fn point_audit_families(noise: DiscreteLaplace, threshold: i64) -> [Vec<OutputPair>; 2] {
    let tail = (30.0 * noise.scale()).ceil() as i64;
    let n = 2 * threshold + 12;
    [
        release_pairs(noise, threshold, 3, 2, 2 + tail),
        release_pairs(noise, threshold, 2, n as u64, n - threshold + tail),
    ]
}

#[test]
fn point_release_is_exactly_epsilon_delta_private() {
    for (epsilon, delta) in [(1.0, 1e-3), (0.5, 1e-2), (2.0, 0.05), (1.0, 1e-6)] {
        let sanitizer = PointSanitizer::new(Privacy::new(epsilon, delta).unwrap(), 0.1).unwrap();
        let s = sanitizer.release_delta();
        assert!(s <= delta);
        let [appear, around] = point_audit_families(sanitizer.noise(), sanitizer.threshold());
        for (name, pairs) in [("appear", &appear), ("around", &around)] {
            let report = check_claim(pairs.iter().map(|(p, q)| (p, q)), epsilon, delta, 1e-12)
                .unwrap_or_else(|e| panic!("ε = {epsilon}, δ = {delta}, {name}: {e}"));
            assert!(
                report.worst_delta <= s * (1.0 + 1e-9) + 1e-14,
                "{name}: {report:?}"
            );
        }
        // The worst pair (a point that appears) costs exactly s = Pr[Z ≥ τ − 1].
        let report =
            check_claim(appear.iter().map(|(p, q)| (p, q)), epsilon, delta, 1e-12).unwrap();
        assert!(
            (report.worst_delta - s).abs() <= 1e-9 * s + 1e-14,
            "measured {} vs s = {s}",
            report.worst_delta
        );
        // Negative control: half of s is refuted, so the audit has teeth.
        let refuted = check_claim(appear.iter().map(|(p, q)| (p, q)), epsilon, s / 2.0, 1e-12);
        assert!(matches!(refuted, Err(AuditError::ClaimViolated { .. })));
    }
}

#[test]
fn miscalibrated_point_release_fails_the_same_audit() {
    let (epsilon, delta) = (1.0, 1e-3);
    let sanitizer = PointSanitizer::new(Privacy::new(epsilon, delta).unwrap(), 0.1).unwrap();
    // Noise calibrated to sensitivity 1 instead of 2 (a replacement moves two counts).
    let wrong_noise = DiscreteLaplace::for_epsilon(epsilon, 1).unwrap();
    let [_, around] = point_audit_families(wrong_noise, sanitizer.threshold());
    let verdict = check_claim(around.iter().map(|(p, q)| (p, q)), epsilon, delta, 1e-12);
    assert!(
        matches!(verdict, Err(AuditError::ClaimViolated { .. })),
        "{verdict:?}"
    );
    // A threshold two below the calibrated one leaks more than δ when a point appears.
    let [appear, _] = point_audit_families(sanitizer.noise(), sanitizer.threshold() - 2);
    let verdict = check_claim(appear.iter().map(|(p, q)| (p, q)), epsilon, delta, 1e-12);
    assert!(
        matches!(verdict, Err(AuditError::ClaimViolated { .. })),
        "{verdict:?}"
    );
}

#[test]
fn point_release_sampler_follows_the_audited_distribution() {
    // δ = 0.2 keeps τ small so that every bin is visited; χ² at α = 1e-6.
    let sanitizer = PointSanitizer::new(Privacy::new(1.0, 0.2).unwrap(), 0.1).unwrap();
    let (noise, threshold) = (sanitizer.noise(), sanitizer.threshold());
    let window = 12;
    let counts = [3u64, 1];
    let expected = release_distribution(noise, threshold, &counts, window);
    let domain = Domain::ordered(2).unwrap();
    let data = points_of(&counts);
    let width = window as usize + 2;
    let bin = |released: &[(u64, i64)], x: u64| -> usize {
        match released.iter().find(|p| p.0 == x) {
            None => 0,
            Some(&(_, v)) => (1 + (v - threshold) as usize).min(width - 1),
        }
    };
    let mut observed = vec![0u64; expected.len()];
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for _ in 0..200_000 {
        let released = sanitizer.release(&domain, &data, &mut rng).unwrap();
        observed[bin(&released, 0) * width + bin(&released, 1)] += 1;
    }
    let outcome = chi_square_gof(&observed, &expected, 1e-6).unwrap();
    assert!(!outcome.rejected, "{outcome:?}");
}

// ---- Blum–Ligett–Roth. ----

/// Exact BLR output distributions on every neighbouring pair of data sets of size n.
fn blr_pairs(
    blr: &BlumLigettRoth,
    class: &dyn ConceptClass,
    k: usize,
    n: u64,
) -> Vec<(Vec<f64>, Vec<f64>)> {
    neighbours(k, n)
        .into_iter()
        .map(|(d, d_prime)| {
            let p = blr.output_distribution(class, &points_of(&d)).unwrap();
            let q = blr
                .output_distribution(class, &points_of(&d_prime))
                .unwrap();
            assert!(p.iter().zip(&q).all(|(a, b)| a.0 == b.0));
            (
                p.into_iter().map(|c| c.1).collect(),
                q.into_iter().map(|c| c.1).collect(),
            )
        })
        .collect()
}

#[test]
fn blr_is_exactly_epsilon_private_on_tiny_domains() {
    let thresholds = Thresholds::new(3).unwrap();
    let points = Points::new(Domain::ordered(3).unwrap());
    for epsilon in [0.5, 1.0, 3.0] {
        for (class, m, n) in [
            (&thresholds as &dyn ConceptClass, 2, 3),
            (&points as &dyn ConceptClass, 2, 3),
            (&thresholds as &dyn ConceptClass, 3, 2),
        ] {
            let blr = BlumLigettRoth::new(Privacy::pure(epsilon).unwrap(), m).unwrap();
            let pairs = blr_pairs(&blr, class, 3, n);
            let report = check_pure_claim(pairs.iter().map(|(p, q)| (p, q)), epsilon, 1e-9)
                .unwrap_or_else(|e| panic!("ε = {epsilon}, {}: {e}", class.name()));
            // The exponential mechanism's loss is up to ε; here it is a sizeable fraction.
            assert!(report.worst_epsilon > 0.3 * epsilon, "{report:?}");
            // Negative control: a quarter of ε is refuted.
            let refuted = check_pure_claim(pairs.iter().map(|(p, q)| (p, q)), epsilon / 4.0, 1e-9);
            assert!(matches!(refuted, Err(AuditError::PureClaimViolated { .. })));
        }
    }
}

#[test]
fn blr_sampler_follows_its_exact_distribution() {
    let class = Thresholds::new(3).unwrap();
    let blr = BlumLigettRoth::new(Privacy::pure(1.0).unwrap(), 2).unwrap();
    let data = [0, 0, 2, 1];
    let exact = blr.output_distribution(&class, &data).unwrap();
    let mut observed = vec![0u64; exact.len()];
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for _ in 0..50_000 {
        let synthetic = blr.sanitize(&class, &data, &mut rng).unwrap();
        let points = synthetic.points().unwrap();
        let index = exact.iter().position(|c| c.0 == points).unwrap();
        observed[index] += 1;
    }
    let probabilities: Vec<f64> = exact.iter().map(|c| c.1).collect();
    // χ² at α = 1e-6.
    let outcome = chi_square_gof(&observed, &probabilities, 1e-6).unwrap();
    assert!(!outcome.rejected, "{outcome:?}");
}
