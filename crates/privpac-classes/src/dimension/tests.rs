//! Cross-checks of the dimension calculators: closed-form families, independent brute-force
//! oracles on thousands of small random classes, invariances, witness checking, shared-memo
//! use as the SOA learner makes it, and budgets.

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::ConceptSet;
use crate::dimension::{
    Budget, Engine, LdimResult, LittlestoneSolver, LittlestoneTree, VcResult,
    check_littlestone_tree, check_shattered, littlestone_dimension, vc_dimension,
};
use crate::error::Error;
use crate::matrix::{ClassMatrix, DEFAULT_CELL_LIMIT};

// ---- Families with closed-form dimensions. ----

/// Points over `n`: `c_i(y) = 1` iff `y = i`.
fn points(n: usize) -> ClassMatrix {
    ClassMatrix::from_fn(n, n, DEFAULT_CELL_LIMIT, |i, y| i == y).unwrap()
}

/// Thresholds over `n`: `c_t(y) = 1` iff `y ≤ t`, plus the all-zero concept if asked.
fn thresholds(n: usize, with_empty: bool) -> ClassMatrix {
    let rows = n + usize::from(with_empty);
    ClassMatrix::from_fn(rows, n, DEFAULT_CELL_LIMIT, |t, y| t < n && y <= t).unwrap()
}

/// Parities over `{0,1}^d`: concept `a` labels `y` by the parity of `a & y`.
fn parities(d: u32) -> ClassMatrix {
    let n = 1usize << d;
    ClassMatrix::from_fn(n, n, DEFAULT_CELL_LIMIT, |a, y| {
        (a & y).count_ones() % 2 == 1
    })
    .unwrap()
}

/// All `2^n` functions on `n` points.
fn all_functions(n: usize) -> ClassMatrix {
    ClassMatrix::from_fn(1 << n, n, DEFAULT_CELL_LIMIT, |c, y| c >> y & 1 == 1).unwrap()
}

/// A random class: each cell is 1 with probability `density`.
fn random_class(n_concepts: usize, n_points: usize, density: f64, seed: u64) -> ClassMatrix {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    ClassMatrix::from_fn(n_concepts, n_points, DEFAULT_CELL_LIMIT, |_, _| {
        rng.random_bool(density)
    })
    .unwrap()
}

/// Computes both dimensions with every engine, checks the witnesses, and compares.
#[track_caller]
fn check(matrix: &ClassMatrix, vc: u32, ldim: u32, engines: &[Engine]) {
    let budget = Budget::default();
    let VcResult {
        dimension,
        shattered,
    } = vc_dimension(matrix, &budget).unwrap();
    assert_eq!(dimension, vc, "VC dimension");
    assert_eq!(shattered.len(), vc as usize);
    check_shattered(matrix, &shattered).unwrap();
    for &engine in engines {
        let LdimResult { dimension, tree } =
            littlestone_dimension(matrix, engine, &budget).unwrap();
        assert_eq!(dimension, ldim, "Littlestone dimension with {engine:?}");
        assert_eq!(check_littlestone_tree(matrix, &tree).unwrap(), ldim);
    }
}

const BOTH: &[Engine] = &[Engine::Pruned, Engine::Plain];
const PRUNED: &[Engine] = &[Engine::Pruned];

#[test]
fn points_have_vc_1_and_ldim_1() {
    check(&points(2), 1, 1, BOTH);
    check(&points(5), 1, 1, BOTH);
    check(&points(10), 1, 1, BOTH);
    // The plain engine visits all 2^n version spaces of this class.
    check(&points(200), 1, 1, PRUNED);
}

#[test]
fn thresholds_have_vc_1_and_ldim_log2_n() {
    check(&thresholds(1, false), 0, 0, BOTH);
    check(&thresholds(2, false), 1, 1, BOTH);
    check(&thresholds(3, false), 1, 1, BOTH);
    check(&thresholds(7, false), 1, 2, BOTH);
    check(&thresholds(8, false), 1, 3, BOTH);
    check(&thresholds(64, false), 1, 6, BOTH);
    check(&thresholds(100, false), 1, 6, BOTH);
    check(&thresholds(1000, false), 1, 9, PRUNED);
    check(&thresholds(1024, false), 1, 10, PRUNED);
}

#[test]
fn thresholds_with_the_empty_concept_have_ldim_log2_n_plus_1() {
    check(&thresholds(1, true), 1, 1, BOTH);
    check(&thresholds(3, true), 1, 2, BOTH);
    check(&thresholds(7, true), 1, 3, BOTH);
    check(&thresholds(8, true), 1, 3, BOTH);
    check(&thresholds(63, true), 1, 6, BOTH);
    check(&thresholds(100, true), 1, 6, BOTH);
    check(&thresholds(1023, true), 1, 10, PRUNED);
}

#[test]
fn parities_have_vc_d_and_ldim_d() {
    check(&parities(1), 1, 1, BOTH);
    check(&parities(2), 2, 2, BOTH);
    check(&parities(3), 3, 3, BOTH);
    check(&parities(4), 4, 4, BOTH);
    check(&parities(6), 6, 6, PRUNED);
    check(&parities(8), 8, 8, PRUNED);
}

#[test]
fn all_functions_have_vc_n_and_ldim_n() {
    check(&all_functions(1), 1, 1, BOTH);
    check(&all_functions(3), 3, 3, BOTH);
    check(&all_functions(5), 5, 5, BOTH);
    check(&all_functions(8), 8, 8, PRUNED);
}

#[test]
fn a_single_concept_has_both_dimensions_0() {
    check(&ClassMatrix::parse("0110\n").unwrap(), 0, 0, BOTH);
    check(
        &ClassMatrix::parse("0110\n0110\n0110\n").unwrap(),
        0,
        0,
        BOTH,
    );
    check(&ClassMatrix::parse("1\n").unwrap(), 0, 0, BOTH);
}

#[test]
fn duplicate_rows_and_columns_do_not_change_the_answer() {
    // Thresholds over 8 points with every row repeated and every column doubled (once
    // complemented).
    let base = thresholds(8, false);
    let doubled = ClassMatrix::from_fn(16, 16, DEFAULT_CELL_LIMIT, |c, y| {
        let value = base.get(c / 2, y / 2);
        if y % 2 == 0 { value } else { !value }
    })
    .unwrap();
    check(&doubled, 1, 3, BOTH);
}

/// Intervals `[a, b]` over `n` points plus the empty concept.
fn intervals(n: usize) -> ClassMatrix {
    let mut spans = vec![(1, 0)];
    for a in 0..n {
        for b in a..n {
            spans.push((a, b));
        }
    }
    ClassMatrix::from_fn(spans.len(), n, DEFAULT_CELL_LIMIT, |c, y| {
        spans[c].0 <= y && y <= spans[c].1
    })
    .unwrap()
}

#[test]
fn intervals_agree_between_engines() {
    for n in 1..=12 {
        let m = intervals(n);
        let pruned = littlestone_dimension(&m, Engine::Pruned, &Budget::default()).unwrap();
        let plain = littlestone_dimension(&m, Engine::Plain, &Budget::default()).unwrap();
        assert_eq!(pruned.dimension, plain.dimension, "intervals over {n}");
        assert_eq!(
            vc_dimension(&m, &Budget::default()).unwrap().dimension,
            2.min(n as u32)
        );
    }
}

// ---- Independent brute-force oracles. ----

/// The VC dimension by enumerating every subset of points and counting distinct labelings.
fn brute_vc(matrix: &ClassMatrix) -> u32 {
    let n = matrix.n_points();
    assert!(n <= 16);
    let mut best = 0;
    for subset in 0u32..1 << n {
        let size = subset.count_ones();
        if size <= best {
            continue;
        }
        let labelings: HashSet<u32> = (0..matrix.n_concepts())
            .map(|c| {
                (0..n)
                    .filter(|&y| subset >> y & 1 == 1 && matrix.get(c, y))
                    .fold(0, |a, y| a | 1 << y)
            })
            .collect();
        if labelings.len() == 1 << size {
            best = size;
        }
    }
    best
}

/// The Littlestone dimension by the defining recursion over explicit lists of concepts.
fn brute_ldim(
    matrix: &ClassMatrix,
    concepts: &[usize],
    memo: &mut HashMap<Vec<usize>, i32>,
) -> i32 {
    match concepts.len() {
        0 => return -1,
        1 => return 0,
        _ => {}
    }
    if let Some(&value) = memo.get(concepts) {
        return value;
    }
    let mut best = 0;
    for x in 0..matrix.n_points() {
        let (ones, zeros): (Vec<usize>, Vec<usize>) =
            concepts.iter().partition(|&&c| matrix.get(c, x));
        if ones.is_empty() || zeros.is_empty() {
            continue;
        }
        best = best.max(1 + brute_ldim(matrix, &zeros, memo).min(brute_ldim(matrix, &ones, memo)));
    }
    memo.insert(concepts.to_vec(), best);
    best
}

fn distinct_rows(matrix: &ClassMatrix) -> usize {
    (0..matrix.n_concepts())
        .map(|c| matrix.row(c).to_vec())
        .collect::<HashSet<_>>()
        .len()
}

fn matrix_strategy(max_concepts: usize, max_points: usize) -> impl Strategy<Value = ClassMatrix> {
    (1..=max_concepts, 1..=max_points, 0.05f64..0.95).prop_flat_map(|(m, n, density)| {
        proptest::collection::vec(proptest::bool::weighted(density), m * n).prop_map(move |cells| {
            ClassMatrix::from_fn(m, n, DEFAULT_CELL_LIMIT, |c, x| cells[c * n + x]).unwrap()
        })
    })
}

/// Everything we know about one class, checked against the oracles.
#[track_caller]
fn check_against_oracles(matrix: &ClassMatrix) {
    let budget = Budget::default();
    let vc = vc_dimension(matrix, &budget).unwrap();
    assert_eq!(vc.dimension, brute_vc(matrix), "VC of\n{matrix:?}");
    check_shattered(matrix, &vc.shattered).unwrap();
    // Adding any point to a maximum shattered set must break it.
    for y in (0..matrix.n_points()).filter(|y| !vc.shattered.contains(y)) {
        let mut larger = vc.shattered.clone();
        larger.push(y);
        assert!(matches!(
            check_shattered(matrix, &larger),
            Err(Error::InvalidWitness { .. })
        ));
    }
    let all: Vec<usize> = (0..matrix.n_concepts()).collect();
    let expected = brute_ldim(matrix, &all, &mut HashMap::new());
    for engine in [Engine::Pruned, Engine::Plain] {
        let result = littlestone_dimension(matrix, engine, &budget).unwrap();
        assert_eq!(
            result.dimension as i32, expected,
            "Ldim with {engine:?} of\n{matrix:?}"
        );
        assert_eq!(
            check_littlestone_tree(matrix, &result.tree).unwrap(),
            result.dimension
        );
        // Growing every leaf by the same point gives a deeper tree, which cannot verify.
        for x in 0..matrix.n_points() {
            let deeper = grow_leaves(&result.tree, x);
            assert!(matches!(
                check_littlestone_tree(matrix, &deeper),
                Err(Error::InvalidWitness { .. })
            ));
        }
    }
    let log2 = distinct_rows(matrix).ilog2();
    assert!(vc.dimension <= expected as u32 && expected as u32 <= log2);
}

fn grow_leaves(tree: &LittlestoneTree, point: usize) -> LittlestoneTree {
    match tree {
        LittlestoneTree::Leaf => LittlestoneTree::Node {
            point,
            zero: Box::new(LittlestoneTree::Leaf),
            one: Box::new(LittlestoneTree::Leaf),
        },
        LittlestoneTree::Node {
            point: p,
            zero,
            one,
        } => LittlestoneTree::Node {
            point: *p,
            zero: Box::new(grow_leaves(zero, point)),
            one: Box::new(grow_leaves(one, point)),
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn small_random_classes_match_the_oracles(matrix in matrix_strategy(12, 6)) {
        check_against_oracles(&matrix);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn larger_random_classes_match_the_oracles(matrix in matrix_strategy(40, 9)) {
        check_against_oracles(&matrix);
    }

    #[test]
    fn dimensions_are_invariant_under_permutations(
        matrix in matrix_strategy(24, 10),
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut concept_order: Vec<usize> = (0..matrix.n_concepts()).collect();
        let mut point_order: Vec<usize> = (0..matrix.n_points()).collect();
        concept_order.shuffle(&mut rng);
        point_order.shuffle(&mut rng);
        let permuted = matrix.permuted(&concept_order, &point_order).unwrap();
        let budget = Budget::default();
        prop_assert_eq!(
            vc_dimension(&matrix, &budget).unwrap().dimension,
            vc_dimension(&permuted, &budget).unwrap().dimension
        );
        let ldim = littlestone_dimension(&matrix, Engine::Pruned, &budget).unwrap();
        let permuted_ldim = littlestone_dimension(&permuted, Engine::Pruned, &budget).unwrap();
        prop_assert_eq!(ldim.dimension, permuted_ldim.dimension);
        prop_assert_eq!(check_littlestone_tree(&permuted, &permuted_ldim.tree).unwrap(), ldim.dimension);
    }

    /// The SOA learner's use: one solver, `ldim` on both halves of a shrinking version
    /// space every round; every answer must match the oracle.
    #[test]
    fn shared_memo_answers_every_round_exactly(
        matrix in matrix_strategy(48, 10),
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let target = rng.random_range(0..matrix.n_concepts());
        let mut pruned = LittlestoneSolver::new(&matrix, Engine::Pruned, Budget::default());
        let mut plain = LittlestoneSolver::new(&matrix, Engine::Plain, Budget::default());
        let mut memo = HashMap::new();
        let mut version_space = matrix.all_concepts().as_words().to_vec();
        for _ in 0..2 * matrix.n_points() {
            let x = rng.random_range(0..matrix.n_points());
            for label in [false, true] {
                let half: Vec<u64> = version_space
                    .iter()
                    .zip(matrix.column(x))
                    .map(|(v, c)| if label { v & c } else { v & !c })
                    .collect();
                let concepts: Vec<usize> = (0..matrix.n_concepts())
                    .filter(|&c| half[c / 64] >> (c % 64) & 1 == 1)
                    .collect();
                let expected = brute_ldim(&matrix, &concepts, &mut memo);
                let set = ConceptSet::from_words(matrix.n_concepts(), half.clone()).unwrap();
                prop_assert_eq!(pruned.ldim(&set).unwrap(), expected);
                prop_assert_eq!(plain.ldim(&set).unwrap(), expected);
                if expected >= 0 {
                    let tree = pruned.tree(&set).unwrap();
                    prop_assert_eq!(tree.depth() as i32, expected);
                    prop_assert!(realized_within(&matrix, &tree, &half));
                }
            }
            let label = matrix.get(target, x);
            for (v, c) in version_space.iter_mut().zip(matrix.column(x)) {
                *v &= if label { *c } else { !*c };
            }
        }
    }
}

/// Whether every path of `tree` is realized by a concept of `version_space`.
fn realized_within(matrix: &ClassMatrix, tree: &LittlestoneTree, version_space: &[u64]) -> bool {
    if version_space.iter().all(|&w| w == 0) {
        return false;
    }
    match tree {
        LittlestoneTree::Leaf => true,
        LittlestoneTree::Node { point, zero, one } => {
            let column = matrix.column(*point);
            let zeros: Vec<u64> = version_space
                .iter()
                .zip(column)
                .map(|(v, c)| v & !c)
                .collect();
            let ones: Vec<u64> = version_space
                .iter()
                .zip(column)
                .map(|(v, c)| v & c)
                .collect();
            realized_within(matrix, zero, &zeros) && realized_within(matrix, one, &ones)
        }
    }
}

#[test]
fn engines_agree_on_medium_random_classes() {
    for seed in 0..12 {
        let density = [0.1, 0.3, 0.5][seed as usize % 3];
        let m = random_class(200, 12, density, seed);
        let budget = Budget::default();
        let pruned = littlestone_dimension(&m, Engine::Pruned, &budget).unwrap();
        let plain = littlestone_dimension(&m, Engine::Plain, &budget).unwrap();
        assert_eq!(pruned.dimension, plain.dimension, "seed {seed}");
        check_littlestone_tree(&m, &pruned.tree).unwrap();
        let vc = vc_dimension(&m, &budget).unwrap();
        assert_eq!(vc.dimension, brute_vc(&m), "seed {seed}");
        assert!(vc.dimension <= pruned.dimension);
    }
}

#[test]
fn tiny_budgets_are_typed_errors() {
    let m = random_class(64, 32, 0.5, 7);
    let tiny = Budget { max_states: 2 };
    assert_eq!(
        vc_dimension(&m, &tiny),
        Err(Error::StateBudgetExceeded {
            what: "vc dimension",
            limit: 2
        })
    );
    for engine in [Engine::Pruned, Engine::Plain] {
        assert_eq!(
            littlestone_dimension(&m, engine, &tiny),
            Err(Error::StateBudgetExceeded {
                what: "littlestone dimension",
                limit: 2
            })
        );
        let mut solver = LittlestoneSolver::new(&m, engine, tiny);
        assert!(solver.ldim(&m.all_concepts()).is_err());
        assert!(solver.states() <= 2);
    }
    // The solver stays usable after a budget error: questions that need no new state are
    // still answered.
    let mut solver = LittlestoneSolver::new(&m, Engine::Pruned, tiny);
    assert!(solver.ldim(&m.all_concepts()).is_err());
    let two = ConceptSet::from_indices(m.n_concepts(), [0, 1]).unwrap();
    assert_eq!(solver.ldim(&two), Ok(1));
}

#[test]
fn witnesses_of_closed_form_families_fail_when_corrupted() {
    let m = parities(4);
    let vc = vc_dimension(&m, &Budget::default()).unwrap();
    let mut too_many = vc.shattered.clone();
    too_many.push(if vc.shattered.contains(&0) { 15 } else { 0 });
    assert!(check_shattered(&m, &too_many).is_err());
    let ldim = littlestone_dimension(&m, Engine::Pruned, &Budget::default()).unwrap();
    // Cut one subtree short: the tree is no longer complete.
    let LittlestoneTree::Node { point, zero, .. } = ldim.tree else {
        panic!("a depth-4 tree has a root node");
    };
    let cut = LittlestoneTree::Node {
        point,
        zero,
        one: Box::new(LittlestoneTree::Leaf),
    };
    assert!(matches!(
        check_littlestone_tree(&m, &cut),
        Err(Error::InvalidWitness { .. })
    ));
}

#[test]
fn public_types_are_send_sync_unpin() {
    fn has_autotraits<T: Send + Sync + Unpin>() {}
    has_autotraits::<LittlestoneSolver<'static>>();
    has_autotraits::<VcResult>();
    has_autotraits::<LdimResult>();
    has_autotraits::<Budget>();
    has_autotraits::<Engine>();
    has_autotraits::<LittlestoneTree>();
}

// ---- Witnesses saved and reloaded (serde) still verify. ----

#[test]
fn witnesses_round_trip_through_serde_and_recheck() {
    let class = crate::class::Thresholds::new(32).unwrap();
    let matrix = crate::materialize(&class, DEFAULT_CELL_LIMIT).unwrap();
    let vc = vc_dimension(&matrix, &Budget::default()).unwrap();
    let ldim = littlestone_dimension(&matrix, Engine::Pruned, &Budget::default()).unwrap();
    let vc_back: VcResult = serde_json::from_str(&serde_json::to_string(&vc).unwrap()).unwrap();
    let ldim_back: LdimResult =
        serde_json::from_str(&serde_json::to_string(&ldim).unwrap()).unwrap();
    assert_eq!(vc_back, vc);
    assert_eq!(ldim_back, ldim);
    check_shattered(&matrix, &vc_back.shattered).unwrap();
    assert_eq!(check_littlestone_tree(&matrix, &ldim_back.tree).unwrap(), 5);
    // A tampered witness is caught after reloading: two points are never shattered by
    // thresholds.
    let tampered: VcResult =
        serde_json::from_str(r#"{"dimension": 2, "shattered": [3, 9]}"#).unwrap();
    assert!(matches!(
        check_shattered(&matrix, &tampered.shattered),
        Err(Error::InvalidWitness { .. })
    ));
}
