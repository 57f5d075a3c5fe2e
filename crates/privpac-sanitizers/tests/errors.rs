//! Typed errors for every invalid input, a no-panic property test for the constructors,
//! and the auto traits of every public type.

use privpac_accounting::Privacy;
use privpac_classes::{ConceptClass, Domain, Parities, Points, Thresholds};
use privpac_sanitizers::{
    BlumLigettRoth, Error, Mwem, PointSanitizer, PrivateMultiplicativeWeights, Sanitizer,
    SyntheticDatabase, ThresholdSanitizer,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn pure(epsilon: f64) -> Privacy {
    Privacy::pure(epsilon).unwrap()
}

fn approx(epsilon: f64, delta: f64) -> Privacy {
    Privacy::new(epsilon, delta).unwrap()
}

/// One of each sanitizer, built with valid parameters.
fn all_sanitizers() -> Vec<Box<dyn Sanitizer>> {
    vec![
        Box::new(PointSanitizer::new(approx(1.0, 1e-6), 0.1).unwrap()),
        Box::new(BlumLigettRoth::new(pure(1.0), 2).unwrap()),
        Box::new(Mwem::new(pure(1.0), 3).unwrap()),
        Box::new(PrivateMultiplicativeWeights::new(pure(1.0), 0.3).unwrap()),
        Box::new(ThresholdSanitizer::new(pure(1.0)).unwrap()),
    ]
}

#[track_caller]
fn check_sanitize(
    sanitizer: &dyn Sanitizer,
    class: &dyn ConceptClass,
    data: &[u64],
    expected: &Error,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let got = sanitizer.sanitize(class, data, &mut rng).unwrap_err();
    assert_eq!(&got, expected, "{}", sanitizer.name());
}

#[test]
fn approximate_privacy_is_required_where_needed() {
    assert_eq!(
        PointSanitizer::new(pure(1.0), 0.1),
        Err(Error::DeltaRequired {
            algorithm: "the point-function sanitizer"
        })
    );
}

#[test]
fn pure_algorithms_reject_delta() {
    let p = approx(1.0, 1e-6);
    assert!(matches!(
        BlumLigettRoth::new(p, 2),
        Err(Error::PureRequired { .. })
    ));
    assert!(matches!(Mwem::new(p, 2), Err(Error::PureRequired { .. })));
    assert!(matches!(
        ThresholdSanitizer::new(p),
        Err(Error::PureRequired { .. })
    ));
    // Private multiplicative weights accepts both.
    assert!(PrivateMultiplicativeWeights::new(p, 0.1).is_ok());
    assert!(PrivateMultiplicativeWeights::new(pure(1.0), 0.1).is_ok());
}

#[test]
fn empty_data_is_rejected_by_every_sanitizer() {
    let class = Thresholds::new(4).unwrap();
    for sanitizer in all_sanitizers() {
        check_sanitize(sanitizer.as_ref(), &class, &[], &Error::EmptyData);
    }
}

#[test]
fn points_outside_the_domain_are_rejected_by_every_sanitizer() {
    let class = Thresholds::new(4).unwrap();
    let expected = Error::Class(privpac_classes::Error::PointOutsideDomain {
        point: 4,
        domain: "[4]".into(),
    });
    for sanitizer in all_sanitizers() {
        check_sanitize(sanitizer.as_ref(), &class, &[1, 4, 2], &expected);
    }
}

#[test]
fn blr_refuses_what_it_cannot_enumerate() {
    let blr = BlumLigettRoth::new(pure(1.0), 5).unwrap();
    let class = Thresholds::new(1000).unwrap();
    let needed = 8_416_958_750_200; // C(1004, 5)
    assert_eq!(blr.candidate_count(class.domain()), needed);
    check_sanitize(
        &blr,
        &class,
        &[1, 2],
        &Error::TooLarge {
            what: "Blum-Ligett-Roth candidate enumeration",
            needed,
            unit: "candidate databases (multisets of m points)",
            limit: privpac_sanitizers::DEFAULT_CANDIDATE_LIMIT,
        },
    );
    // The limit can be raised, but the score work (candidates × concepts) is capped too.
    let raised = BlumLigettRoth::new(pure(1.0), 3)
        .unwrap()
        .with_candidate_limit(u128::MAX);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let got = raised.sanitize(&Thresholds::new(500).unwrap(), &[1], &mut rng);
    assert!(
        matches!(
            got,
            Err(Error::TooLarge {
                what: "Blum-Ligett-Roth scoring",
                ..
            })
        ),
        "{got:?}"
    );
    // |X|^m for huge domains saturates instead of overflowing.
    let cube = Parities::new(64).unwrap();
    assert_eq!(blr.candidate_count(cube.domain()), u128::MAX);
    assert!(matches!(
        BlumLigettRoth::new(pure(1.0), 0),
        Err(Error::InvalidParameter { .. })
    ));
}

#[test]
fn histogram_sanitizers_refuse_huge_domains_and_query_sets() {
    let huge = Points::new(Domain::ordered(1 << 40).unwrap());
    let mwem = Mwem::new(pure(1.0), 2).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let got = mwem.sanitize_queries(&huge, &[0, 1], &[3], &mut rng);
    assert!(
        matches!(got, Err(Error::TooLarge { needed, .. }) if needed == 1 << 40),
        "{got:?}"
    );
    // All 2^16 thresholds over 2^16 points need a 2^32-bit matrix: pass a subset instead.
    let class = Thresholds::new(1 << 16).unwrap();
    assert!(matches!(
        mwem.sanitize(&class, &[3], &mut rng),
        Err(Error::TooLarge { .. })
    ));
    assert!(matches!(
        ThresholdSanitizer::new(pure(1.0)).unwrap().sanitize(
            &Thresholds::new(1 << 40).unwrap(),
            &[3],
            &mut rng
        ),
        Err(Error::TooLarge { .. })
    ));
}

#[test]
fn mwem_needs_a_fresh_query_per_round() {
    let class = Thresholds::new(8).unwrap();
    let mwem = Mwem::new(pure(1.0), 5).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert_eq!(
        mwem.run(&class, &[1, 2, 3], &[0, 5], &mut rng),
        Err(Error::TooManyRounds {
            rounds: 5,
            queries: 3
        })
    );
    assert_eq!(
        mwem.run(&class, &[], &[0, 5], &mut rng),
        Err(Error::NoQueries)
    );
    assert!(matches!(
        mwem.run(&class, &[1, 2, 3, 4, 8], &[0, 5], &mut rng),
        Err(Error::Class(privpac_classes::Error::ConceptOutOfRange {
            id: 8,
            ..
        }))
    ));
    assert!(matches!(
        Mwem::new(pure(1.0), 0),
        Err(Error::InvalidParameter { .. })
    ));
    // ε/(2T) below the exponential mechanism's minimum ε.
    assert!(matches!(
        Mwem::new(pure(1e-6), 1000),
        Err(Error::Mechanism(_))
    ));
}

#[test]
fn threshold_sanitizer_needs_an_ordered_domain() {
    let class = Parities::new(3).unwrap();
    let sanitizer = ThresholdSanitizer::new(pure(1.0)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert!(matches!(
        sanitizer.sanitize(&class, &[1], &mut rng),
        Err(Error::UnsupportedDomain { .. })
    ));
}

#[test]
fn parameters_out_of_range_are_typed_errors() {
    for alpha in [0.0, -0.1, 1.5, f64::NAN, f64::INFINITY, 1e-12] {
        assert!(
            matches!(
                PointSanitizer::new(approx(1.0, 1e-6), alpha),
                Err(Error::InvalidParameter { name: "alpha", .. })
            ),
            "{alpha}"
        );
    }
    for alpha in [0.0, -0.1, 1.5, f64::NAN] {
        assert!(matches!(
            PrivateMultiplicativeWeights::new(pure(1.0), alpha),
            Err(Error::InvalidParameter { name: "alpha", .. })
        ));
    }
    let point = PointSanitizer::new(approx(1.0, 1e-6), 0.1).unwrap();
    assert!(matches!(
        point.clone().with_database_size(0),
        Err(Error::InvalidParameter { .. })
    ));
    let tiny = Domain::ordered(10).unwrap();
    assert!(matches!(
        point.error_bound(&tiny, 100, 0.1),
        Err(Error::InvalidParameter { .. })
    ));
    assert!(matches!(
        point.error_bound(&Domain::ordered(1 << 20).unwrap(), 100, 1.0),
        Err(Error::InvalidParameter { name: "beta", .. })
    ));
}

proptest::proptest! {
    /// Constructors and bounds return `Ok` or a typed error for every float, never panic.
    #[test]
    fn constructors_never_panic(epsilon in proptest::num::f64::ANY, delta in proptest::num::f64::ANY,
                                alpha in proptest::num::f64::ANY, rounds in 0usize..100_000,
                                m in 0usize..10) {
        if let Ok(privacy) = Privacy::new(epsilon, delta) {
            let _ = PointSanitizer::new(privacy, alpha);
            let _ = BlumLigettRoth::new(privacy, m);
            let _ = ThresholdSanitizer::new(privacy).map(|s| s.error_bound(1 << 20, m, alpha));
            if let Ok(mwem) = Mwem::new(privacy, rounds) {
                let _ = mwem.error_bound(1 << 20, rounds, m, alpha);
                let theory = mwem.with_variant(privpac_sanitizers::MwemVariant::AverageOfIterates).unwrap();
                let _ = theory.error_bound(1 << 20, rounds, m, alpha);
            }
            if let Ok(pmw) = PrivateMultiplicativeWeights::new(privacy, alpha) {
                let _ = pmw.min_sample_size(1 << 20, m, alpha);
            }
        }
        let domain = Domain::ordered(16).unwrap();
        let _ = SyntheticDatabase::from_weights(&domain, vec![(1, epsilon), (2, delta), (3, alpha)]);
        let _ = SyntheticDatabase::from_dense(&Domain::ordered(3).unwrap(), vec![epsilon, delta, alpha]);
    }
}

#[test]
fn public_types_have_autotraits() {
    fn assert_auto<T: Send + Sync + Unpin>() {}
    assert_auto::<Error>();
    assert_auto::<SyntheticDatabase>();
    assert_auto::<privpac_sanitizers::SyntheticKind>();
    assert_auto::<PointSanitizer>();
    assert_auto::<BlumLigettRoth>();
    assert_auto::<Mwem>();
    assert_auto::<privpac_sanitizers::MwemVariant>();
    assert_auto::<privpac_sanitizers::MwemRun>();
    assert_auto::<PrivateMultiplicativeWeights>();
    assert_auto::<privpac_sanitizers::PmwRun>();
    assert_auto::<ThresholdSanitizer>();
    assert_auto::<Box<dyn Sanitizer>>();
}
