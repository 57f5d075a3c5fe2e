//! Tests of the mechanisms as seen by the accounting they stand on: every mechanism is a
//! [`Private`] run an accountant records, the exponential mechanism's privacy-loss step, the
//! auto traits of the public types, and constructors that never panic.

use privpac_accounting::{Accountant, CompositionRule, PldMechanism, Privacy, Private};

#[test]
fn records_any_private_algorithm() {
    let rr = crate::RandomizedResponse::new(Privacy::pure(0.3).unwrap());
    let mut accountant = Accountant::new();
    accountant.record_run("labels", &rr);
    let total = accountant.total(CompositionRule::Basic).unwrap().epsilon();
    assert!((0.3..0.3 + 1e-15).contains(&total));
}

#[test]
fn records_boxed_algorithms() {
    let boxed: Box<dyn Private> =
        Box::new(crate::RandomizedResponse::new(Privacy::pure(0.3).unwrap()));
    let mut accountant = Accountant::new();
    accountant.record_run("boxed", &boxed);
    accountant.record_run("unsized", boxed.as_ref());
    let total = accountant.total(CompositionRule::Basic).unwrap().epsilon();
    assert!((0.6..0.6 + 1e-15).contains(&total));
}

#[test]
fn the_exponential_mechanisms_step_is_a_hair_wider_than_epsilon() {
    let each = 0.1;
    // The exponential mechanism's own step is a hair wider than ε.
    let mech = crate::ExponentialMechanism::new(Privacy::pure(each).unwrap(), 1.0).unwrap();
    let step = mech.pld_step();
    match step.mechanism() {
        PldMechanism::BoundedRange { epsilon } => {
            assert!(epsilon > each && epsilon < each + 1e-10)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn public_types_have_autotraits() {
    fn assert_auto<T: Send + Sync + Unpin>() {}
    assert_auto::<crate::Error>();
    assert_auto::<crate::DiscreteLaplace>();
    assert_auto::<crate::DiscreteLaplaceMechanism>();
    #[cfg(feature = "unsound-float-laplace")]
    assert_auto::<crate::Laplace>();
    assert_auto::<crate::LaplaceMechanism>();
    assert_auto::<crate::ExponentialMechanism>();
    assert_auto::<crate::ReportNoisyMax>();
    assert_auto::<crate::StableSelection>();
    assert_auto::<crate::SparseVector>();
    assert_auto::<crate::RandomizedResponse>();
}

proptest::proptest! {
    /// Constructors return `Ok` or a typed error for every float, never panic.
    #[test]
    fn constructors_never_panic(epsilon in proptest::num::f64::ANY, delta in proptest::num::f64::ANY,
                                other in proptest::num::f64::ANY) {
        let privacy = Privacy::new(epsilon, delta);
        if let Ok(p) = privacy {
            let _ = crate::ExponentialMechanism::new(Privacy::pure(p.epsilon()).unwrap(), other);
            let _ = crate::LaplaceMechanism::new(Privacy::pure(p.epsilon()).unwrap(), other);
            let _ = crate::LaplaceMechanism::with_grid(Privacy::pure(p.epsilon()).unwrap(), 1.0, other as i32);
            let _ = crate::DiscreteLaplace::for_epsilon(p.epsilon(), 3);
        }
        let _ = crate::DiscreteLaplace::new(other);
        #[cfg(feature = "unsound-float-laplace")]
        let _ = crate::Laplace::new(other);
        let _ = crate::epsilon_for_flip_probability(other);
    }
}

/// The accounting's old paths still work for one release: aliases name the moved types,
/// functions forward to the moved ones with the same results, and their errors arrive as
/// this crate's `Error::Accounting` with the accounting's message.
#[test]
#[allow(deprecated)]
fn the_moved_accounting_paths_forward() {
    let each = Privacy::pure(0.1).unwrap();
    assert_eq!(
        crate::advanced_composition(each, 100, 1e-6).unwrap(),
        privpac_accounting::advanced_composition(each, 100, 1e-6).unwrap()
    );
    let steps = [crate::PldStep::bounded_range(0.1).unwrap(); 10];
    assert_eq!(
        crate::pld_steps_bounds(&steps, 1e-6, None).unwrap(),
        privpac_accounting::pld_steps_bounds(&steps, 1e-6, None).unwrap()
    );
    let mut accountant = crate::Accountant::new();
    accountant.record("a", each);
    assert_eq!(
        accountant.total(crate::CompositionRule::Basic).unwrap(),
        privpac_accounting::basic_composition(&[each]).unwrap()
    );
    let refused = crate::group_privacy(each, 0).unwrap_err();
    let moved = privpac_accounting::group_privacy(each, 0).unwrap_err();
    assert_eq!(refused.to_string(), moved.to_string());
    assert_eq!(refused, crate::Error::Accounting(moved));
    assert_eq!(crate::MAX_PLD_CELLS, privpac_accounting::MAX_PLD_CELLS);
}
