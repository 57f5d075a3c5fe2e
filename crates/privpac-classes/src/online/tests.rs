//! Tests of the online learners: mistake bounds on realizable sequences (property tests on
//! random classes), the tree adversary's forced mistakes, tie rules and errors.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::dimension::{Budget, Engine, LittlestoneSolver};
use crate::error::Error;
use crate::matrix::{ClassMatrix, DEFAULT_CELL_LIMIT};

fn thresholds(n: usize) -> ClassMatrix {
    ClassMatrix::from_fn(n, n, DEFAULT_CELL_LIMIT, |t, y| y <= t).unwrap()
}

fn ldim_of(matrix: &ClassMatrix) -> i32 {
    let mut solver = LittlestoneSolver::new(matrix, Engine::Pruned, Budget::default());
    solver.ldim(&matrix.all_concepts()).unwrap()
}

/// Plays a fixed realizable sequence (labels from `target`) and counts mistakes.
fn mistakes_on(
    learner: &mut dyn OnlineLearner,
    matrix: &ClassMatrix,
    target: usize,
    points: &[usize],
) -> usize {
    let mut mistakes = 0;
    for &x in points {
        let y = matrix.get(target, x);
        if learner.predict(x).unwrap() != y {
            mistakes += 1;
        }
        learner.update(x, y).unwrap();
    }
    mistakes
}

#[test]
fn tree_adversary_forces_exactly_ldim_mistakes() {
    for n in [2usize, 5, 16, 33] {
        let matrix = thresholds(n);
        let d = ldim_of(&matrix);
        assert_eq!(d, (n as f64).log2().floor() as i32, "thresholds:{n}");
        let mut solver = LittlestoneSolver::new(&matrix, Engine::Pruned, Budget::default());
        let tree = solver.tree(&matrix.all_concepts()).unwrap();
        let adversary = Adversary::Tree(tree);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for tie_rule in [TieRule::PredictOne, TieRule::PredictZero] {
            let mut soa = Soa::new(&matrix, tie_rule, Budget::default());
            let report =
                run_online(&mut soa, &matrix, &adversary, d as usize + 20, &mut rng).unwrap();
            assert_eq!(report.mistakes, d as usize, "SOA on thresholds:{n}");
            let mut halving = Halving::new(&matrix, tie_rule);
            let report =
                run_online(&mut halving, &matrix, &adversary, d as usize, &mut rng).unwrap();
            assert_eq!(
                report.mistakes, d as usize,
                "every learner errs on every tree level"
            );
        }
    }
}

#[test]
fn random_adversary_respects_the_bounds() {
    let matrix = ClassMatrix::from_fn(64, 6, DEFAULT_CELL_LIMIT, |c, x| c >> x & 1 == 1).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..20 {
        let mut soa = Soa::new(&matrix, TieRule::PredictOne, Budget::default());
        let report = run_online(&mut soa, &matrix, &Adversary::Random, 50, &mut rng).unwrap();
        assert!(report.mistakes <= 6);
        let mut halving = Halving::new(&matrix, TieRule::PredictZero);
        let report = run_online(&mut halving, &matrix, &Adversary::Random, 50, &mut rng).unwrap();
        assert!(report.mistakes <= 6);
    }
}

#[test]
fn inconsistent_labels_are_reported() {
    let matrix = thresholds(4);
    let mut halving = Halving::new(&matrix, TieRule::PredictOne);
    halving.update(2, true).unwrap();
    assert_eq!(
        halving.update(1, false),
        Err(Error::NotRealizable { round: 2 })
    );
    let mut soa = Soa::new(&matrix, TieRule::PredictOne, Budget::default());
    soa.update(3, false).unwrap(); // thresholds 0, 1, 2 remain
    assert_eq!(soa.update(3, true), Err(Error::NotRealizable { round: 2 }));
}

#[test]
fn tie_rule_decides_balanced_votes() {
    // Two concepts that disagree on point 0: the vote is tied.
    let matrix = ClassMatrix::parse("0\n1\n").unwrap();
    assert!(
        Halving::new(&matrix, TieRule::PredictOne)
            .predict(0)
            .unwrap()
    );
    assert!(
        !Halving::new(&matrix, TieRule::PredictZero)
            .predict(0)
            .unwrap()
    );
    assert!(
        Soa::new(&matrix, TieRule::PredictOne, Budget::default())
            .predict(0)
            .unwrap()
    );
    assert!(
        !Soa::new(&matrix, TieRule::PredictZero, Budget::default())
            .predict(0)
            .unwrap()
    );
}

#[test]
fn halving_uses_fewer_than_log2_mistakes_per_round_budget() {
    let matrix = thresholds(64);
    let mut halving = Halving::new(&matrix, TieRule::PredictOne);
    assert_eq!(halving.version_space_size(), 64);
    halving.update(10, false).unwrap();
    assert_eq!(halving.version_space_size(), 10);
}

fn random_matrix() -> impl Strategy<Value = ClassMatrix> {
    (1usize..14, 1usize..7, any::<u64>()).prop_map(|(concepts, points, seed)| {
        let mut state = seed | 1;
        ClassMatrix::from_fn(concepts, points, DEFAULT_CELL_LIMIT, |_, _| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state & 1 == 1
        })
        .unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn soa_never_exceeds_ldim_and_halving_never_exceeds_log2(
        matrix in random_matrix(),
        target_seed in any::<usize>(),
        points in prop::collection::vec(any::<usize>(), 0..30),
        tie_one in any::<bool>(),
    ) {
        let target = target_seed % matrix.n_concepts();
        let points: Vec<usize> = points.into_iter().map(|x| x % matrix.n_points()).collect();
        let tie_rule = if tie_one { TieRule::PredictOne } else { TieRule::PredictZero };
        let d = ldim_of(&matrix);
        let mut soa = Soa::new(&matrix, tie_rule, Budget::default());
        prop_assert!(mistakes_on(&mut soa, &matrix, target, &points) as i32 <= d);
        let log2 = (matrix.n_concepts() as f64).log2().floor() as usize;
        let mut halving = Halving::new(&matrix, tie_rule);
        prop_assert!(mistakes_on(&mut halving, &matrix, target, &points) <= log2);
    }
}

#[test]
fn huge_round_counts_are_refused_before_allocating() {
    let matrix = ClassMatrix::parse("01\n11").unwrap();
    let mut learner = crate::online::Halving::new(&matrix, crate::online::TieRule::default());
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let result = crate::online::run_online(
        &mut learner,
        &matrix,
        &crate::online::Adversary::Random,
        1_000_000_000_000,
        &mut rng,
    );
    assert!(
        matches!(
            result,
            Err(crate::Error::TooLarge {
                needed: 1_000_000_000_000,
                ..
            })
        ),
        "{result:?}"
    );
}
