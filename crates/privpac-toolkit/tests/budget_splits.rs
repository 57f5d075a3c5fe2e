//! The budget splits the CLI uses, through the same builders (`build_multi_learner`,
//! `build_learner`), over k = 1 … 1024 and totals (ε, δ) with δ ∈ {0, 10⁻¹², 10⁻⁶, 10⁻³}:
//! every multi-learner that builds reports an (ε, δ) guarantee within the total (compared
//! exactly, as reported: rounded up), and every refusal is the typed error that the spec's
//! documented requirement explains (δ > 0 for the point sanitizer and the parity and point
//! learners; ERM is not private). The sanitizer-based single learner (ε/2 to the sanitizer,
//! ε/2 to the selection) is checked the same way over the ε grid.

// clippy's allow-unwrap-in-tests does not cover helper functions of integration tests.
#![allow(clippy::unwrap_used)]

use privpac_accounting::Privacy;
use privpac_toolkit::{
    Error, LearnerParams, LearnerSpec, MultiLearnerSpec, SanitizerSpec, build_learner,
    build_multi_learner,
};

const EPSILONS: [f64; 6] = [0.01, 0.1, 0.5, 1.0, 2.0, 8.0];
const DELTAS: [f64; 4] = [0.0, 1e-12, 1e-6, 1e-3];

fn totals() -> impl Iterator<Item = Privacy> {
    EPSILONS
        .iter()
        .flat_map(|&e| DELTAS.iter().map(move |&d| Privacy::new(e, d).unwrap()))
}

fn specs() -> Vec<MultiLearnerSpec> {
    let mut specs = vec![
        MultiLearnerSpec::DirectSum(LearnerSpec::Generic),
        MultiLearnerSpec::Parity,
        MultiLearnerSpec::Point,
    ];
    for sanitizer in SanitizerSpec::ALL {
        specs.push(MultiLearnerSpec::Generic(sanitizer));
        specs.push(MultiLearnerSpec::DirectSum(LearnerSpec::Sanitizer(
            sanitizer,
        )));
    }
    specs
}

/// Whether the spec documents that it needs δ > 0.
fn needs_delta(spec: MultiLearnerSpec) -> bool {
    matches!(
        spec,
        MultiLearnerSpec::Parity
            | MultiLearnerSpec::Point
            | MultiLearnerSpec::Generic(SanitizerSpec::Point)
            | MultiLearnerSpec::DirectSum(LearnerSpec::Sanitizer(SanitizerSpec::Point))
            | MultiLearnerSpec::Generic(SanitizerSpec::TreelogQuantiles)
            | MultiLearnerSpec::DirectSum(LearnerSpec::Sanitizer(SanitizerSpec::TreelogQuantiles))
    )
}

#[test]
fn every_multi_learner_split_fits_the_total() {
    let params = LearnerParams::default();
    // Every k up to 64, then every 7th (non-powers of two included) up to 1024 and 1024.
    let ks: Vec<usize> = (1..=64)
        .chain((65..=1024).step_by(7))
        .chain([1024])
        .collect();
    let mut built = 0usize;
    for spec in specs() {
        for total in totals() {
            for &k in &ks {
                match build_multi_learner(spec, total, k, &params, 200) {
                    Ok(learner) => {
                        built += 1;
                        let reported = learner
                            .guarantee(200, k)
                            .privacy()
                            .unwrap_or_else(|| panic!("{spec}, k = {k}: no (ε, δ) guarantee"));
                        assert!(
                            reported.epsilon() <= total.epsilon()
                                && reported.delta() <= total.delta(),
                            "{spec}, k = {k}: reports {reported:?} > {total:?}"
                        );
                    }
                    Err(Error::Multi(privpac_multi::Error::DeltaRequired { .. }))
                        if total.is_pure() && needs_delta(spec) => {}
                    Err(Error::Sanitizer(privpac_sanitizers::Error::DeltaRequired { .. }))
                    | Err(Error::Multi(privpac_multi::Error::Sanitizer(
                        privpac_sanitizers::Error::DeltaRequired { .. },
                    ))) if total.is_pure() && needs_delta(spec) => {}
                    Err(e) => panic!("{spec}, k = {k}, {total:?}: {e}"),
                }
            }
        }
    }
    // Every (spec, total, k) built except the δ = 0 cases of the six δ-needing specs.
    let cases = specs().len() * totals().count() * ks.len();
    let refused = 6 * EPSILONS.len() * ks.len();
    assert_eq!(built, cases - refused);
}

#[test]
fn the_sanitizer_learner_split_fits_epsilon() {
    for sanitizer in SanitizerSpec::ALL {
        for total in totals() {
            let params = LearnerParams {
                epsilon: Some(total.epsilon()),
                delta: total.delta(),
                ..LearnerParams::default()
            };
            match build_learner(LearnerSpec::Sanitizer(sanitizer), &params, 200) {
                Ok(learner) => {
                    let reported = learner.guarantee(200).privacy().unwrap();
                    assert!(
                        reported.epsilon() <= total.epsilon() && reported.delta() <= total.delta(),
                        "{sanitizer:?}: {reported:?} > {total:?}"
                    );
                }
                Err(e) => {
                    // The point sanitizer needs δ > 0; the pure-only ones refuse δ > 0.
                    let typed = matches!(e, Error::Sanitizer(_));
                    assert!(typed, "{sanitizer:?}, {total:?}: {e}");
                }
            }
        }
    }
}
