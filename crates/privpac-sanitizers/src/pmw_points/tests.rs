//! Tests of PMW on `POINT ⊕ POINT` by structure: every chunk lists the dense answers in the
//! dense order (one by one and as prefix counts), the first update follows the exact law on
//! the structured and the dense path, and runs at 2^40 points.

use privpac_accounting::Privacy;
use privpac_classes::{Points, Xor};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

/// Dense answers of every query `a·N + b` on the state's weights, in id order.
fn dense_answers(state: &PointState) -> Vec<i64> {
    let size = state.size;
    let weights: Vec<f64> = (0..size).map(|x| state.weight(x) / state.total).collect();
    let mut out = Vec::new();
    for a in 0..size {
        for b in 0..size {
            if a == b {
                out.push(floor_abs_gap(0.0, 0));
            } else {
                let current = weights[a as usize] + weights[b as usize];
                out.push(floor_abs_gap(
                    state.n * current,
                    state.count(a) + state.count(b),
                ));
            }
        }
    }
    out
}

/// Every chunk, from every start position, lists the dense answers in the dense order:
/// one by one and as prefix counts; chunks tile the pass (whole rows and blocks, and
/// windows of a few special columns).
#[test]
fn chunks_list_the_dense_answers_in_order() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for (size, window) in [
        (1u64, 256),
        (2, 256),
        (5, 256),
        (9, 256),
        (9, 2),
        (13, 1),
        (13, 3),
    ] {
        let data: Vec<Point> = (0..13).map(|i| (i * 7 + i / 3) % size.min(7)).collect();
        let mut state = PointState::new(size, &data).unwrap();
        state.window = window;
        for step in 0..6 {
            let answers = dense_answers(&state);
            let total = u128::from(size * size);
            let mut p = 0;
            while p < total {
                let chunk = state.chunk_at(p, step % 3 == 2 && p % 2 == 0);
                assert_eq!(chunk.start(), p);
                let len = chunk.questions();
                assert!(len >= 1 && p + len <= total);
                for i in 0..len {
                    assert_eq!(
                        chunk.answer(i),
                        answers[(p + i) as usize],
                        "N {size} p {p} i {i}"
                    );
                }
                // Prefix counts from every start inside the chunk.
                for m in 0..=len {
                    let mut expected: BTreeMap<i64, u128> = BTreeMap::new();
                    for &v in &answers[p as usize..(p + m) as usize] {
                        *expected.entry(v).or_insert(0) += 1;
                    }
                    let got: BTreeMap<i64, u128> = chunk.prefix_counts(m).into_iter().collect();
                    assert_eq!(
                        got,
                        expected,
                        "N {size} w {window} step {step} p {p} m {m} chunk {:?} touched {:?}",
                        (
                            chunk.row,
                            chunk.rows_end,
                            chunk.column,
                            chunk.column_end,
                            chunk.special,
                            chunk.windowed
                        ),
                        state.touched
                    );
                }
                // Start in the middle of the chunk, as after an "above".
                p += 1 + u128::from(step as u64 % 2) * (len - 1);
            }
            // An update on a random pair changes the weights (and the special points).
            let a = rng.random_range(0..size);
            let b = rng.random_range(0..size);
            if a != b {
                state.scale_pair(a, b, if step % 2 == 0 { 1.3 } else { 0.7 });
            }
        }
    }
}

/// A pass over 2^20 points with more special points than the window is walked in few
/// chunks: one block per run of gap rows (a gap row is never cut into windows) and at most
/// `⌈S/window⌉ + 1` windows per special row. Before the fix, every row was its own chunk above
/// the window (2N chunks for 300 distinct data points), so a quiet pass at 2^40 never ended.
#[test]
fn a_pass_above_the_window_has_few_chunks() {
    let size = 1u64 << 20;
    let data: Vec<Point> = (0..300u64).map(|i| i * 3491 + 17).collect();
    let state = PointState::new(size, &data).unwrap();
    let specials = 300u128;
    assert!(specials as usize > state.window);
    let total = u128::from(size) * u128::from(size);
    let (mut p, mut gap_chunks, mut special_chunks) = (0u128, 0u128, 0u128);
    while p < total {
        let chunk = state.chunk_at(p, false);
        assert_eq!(chunk.start(), p);
        if chunk.special {
            special_chunks += 1;
        } else {
            assert!(!chunk.windowed, "a gap block is windowed at {p}");
            gap_chunks += 1;
        }
        p += chunk.questions();
    }
    assert_eq!(p, total);
    assert!(gap_chunks <= specials + 1, "{gap_chunks} gap chunks");
    let per_row = specials.div_ceil(state.window as u128) + 1;
    assert!(
        special_chunks <= specials * per_row,
        "{special_chunks} special chunks"
    );
}

/// Exact law of the first update's query id (or none in the first pass) on the uniform
/// start: a mixture over the threshold noise of the first "above" among the dense answers,
/// for the sparse-vector threshold `threshold`.
fn first_update_law(
    pmw: &PrivateMultiplicativeWeights,
    size: u64,
    data: &[Point],
    threshold: i64,
) -> Vec<f64> {
    let state = PointState::new(size, data).unwrap();
    let answers = dense_answers(&state);
    let c = pmw.max_updates(u128::from(size));
    let e0 = SparseVector::round_epsilon(pmw.svt_privacy().unwrap(), c);
    let tn = DiscreteLaplace::for_epsilon(e0, 2).unwrap();
    let qn = DiscreteLaplace::for_epsilon(e0, 4).unwrap();
    let window = (tn.scale() * 45.0).ceil() as i64 + 2; // all but ~e^-45 of its mass
    let mut out = vec![0.0; answers.len() + 1];
    for z in -window..=window {
        let weight = tn.pmf(z);
        let mut still = 1.0;
        for (i, &a) in answers.iter().enumerate() {
            let above = qn.survival(threshold + z - a);
            out[i] += weight * still * above;
            still *= 1.0 - above;
        }
        out[answers.len()] += weight * still;
    }
    out
}

/// The first update of the structured run and of the dense run both follow the exact law
/// (χ² at false-failure rate 1e-6 each, one bin per query id and one for "no update",
/// adjacent small bins merged), with a negative control. The data sit on points 32..63,
/// so rows 0..31 form one chunk of 2048 questions, and "above" answers have probability
/// about 1e-3 each: the first update falls mostly past the 64 explicit questions, where
/// the structured path's skip sampler decides it.
#[test]
fn first_update_follows_the_exact_law_on_both_paths() {
    let size = 64u64;
    let data: Vec<Point> = (0..2000u64).map(|i| 32 + (i * 7) % 32).collect();
    let pmw = PrivateMultiplicativeWeights::new(Privacy::pure(2.0).unwrap(), 1.0).unwrap();
    let threshold = (0.75 * data.len() as f64).ceil() as i64;
    let law = first_update_law(&pmw, size, &data, threshold);
    let questions = (size * size) as usize;
    let skipped: f64 = law[64..questions].iter().sum();
    assert!(skipped > 0.5, "{skipped}");
    let xor = Xor::new(Points::new(privpac_classes::Domain::ordered(size).unwrap())).unwrap();
    let queries: Vec<u64> = (0..size * size).collect();
    let mut structured = vec![0u64; questions + 1];
    let mut dense = vec![0u64; questions + 1];
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for _ in 0..300 {
        let run = pmw.run_point_xor(size, &data, &mut rng).unwrap();
        structured[run.updates.first().map_or(questions, |&q| q as usize)] += 1;
        let run = pmw.run(&xor, &queries, &data, &mut rng).unwrap();
        dense[run.updates.first().map_or(questions, |&q| q as usize)] += 1;
    }
    for counts in [&structured, &dense] {
        let outcome = privpac_audit::chi_square_gof(counts, &law, 1e-6).unwrap();
        assert!(!outcome.rejected, "{outcome:?}");
    }
    // Negative control: the law at a threshold 20% lower is rejected.
    let wrong = first_update_law(&pmw, size, &data, threshold * 8 / 10);
    let outcome = privpac_audit::chi_square_gof(&structured, &wrong, 1e-6).unwrap();
    assert!(outcome.rejected, "{outcome:?}");
}

#[test]
fn the_structured_run_works_at_two_to_the_forty() {
    let size = 1u64 << 40;
    let data: Vec<Point> = (0..500u64)
        .map(|i| (i * 2_654_435_761) % 1000 + (i % 4) * (1 << 38))
        .collect();
    let pmw = PrivateMultiplicativeWeights::new(Privacy::pure(1.0).unwrap(), 0.1).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let run = pmw.run_point_xor(size, &data, &mut rng).unwrap();
    // n = 500 is far below the sparse vector's noise: the budget is spent in the first pass.
    assert!(run.exhausted);
    assert_eq!(run.updates.len() as u64, pmw.max_updates(u128::from(size)));
    let total: f64 = run.synthetic.pieces().map(|(_, _, m)| m).sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    assert_eq!(run.synthetic.size(), size);
    // Through the trait, as the learners call it.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let via_trait = crate::Sanitizer::sanitize_point_xor(&pmw, size, &data, &mut rng)
        .unwrap()
        .unwrap();
    assert_eq!(via_trait, run.synthetic);
}

#[test]
fn invalid_input_gives_typed_errors() {
    let pmw = PrivateMultiplicativeWeights::new(Privacy::pure(1.0).unwrap(), 0.1).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    assert!(matches!(
        pmw.run_point_xor(10, &[], &mut rng),
        Err(Error::EmptyData)
    ));
    assert!(matches!(
        pmw.run_point_xor(10, &[10], &mut rng),
        Err(Error::Class(_))
    ));
    assert!(matches!(
        pmw.run_point_xor(0, &[0], &mut rng),
        Err(Error::Class(_) | Error::InvalidParameter { .. })
    ));
    // Below the dense matrix limit the trait leaves the class path to run.
    assert!(crate::Sanitizer::sanitize_point_xor(&pmw, 1000, &[1, 2], &mut rng).is_none());
}

/// Exact privacy audit of the first sparse-vector round on the structured answers: the law
/// of the first update's query id (mixture over the threshold noise, the answers read from
/// the chunks) on every neighbour of a small data set (one point replaced) is within the
/// round's budget ε₀ of the original's, in both directions.
#[test]
fn first_round_is_exactly_private_on_the_structured_answers() {
    let size = 6u64;
    let pmw = PrivateMultiplicativeWeights::new(Privacy::pure(30.0).unwrap(), 1.0).unwrap();
    let c = pmw.max_updates(u128::from(size));
    let e0 = SparseVector::round_epsilon(pmw.svt_privacy().unwrap(), c);
    let tn = DiscreteLaplace::for_epsilon(e0, 2).unwrap();
    let qn = DiscreteLaplace::for_epsilon(e0, 4).unwrap();
    let law = |data: &[Point]| -> Vec<f64> {
        let state = PointState::new(size, data).unwrap();
        let mut answers = Vec::new();
        let mut p = 0;
        while p < u128::from(size * size) {
            let chunk = state.chunk_at(p, false);
            answers.extend((0..chunk.questions()).map(|i| chunk.answer(i)));
            p += chunk.questions();
        }
        let threshold = (0.75 * pmw.alpha() * data.len() as f64).ceil() as i64;
        let window = (tn.scale() * 80.0).ceil() as i64 + 2;
        let mut out = vec![0.0; answers.len() + 1];
        for z in -window..=window {
            let weight = tn.pmf(z);
            let mut still = 1.0;
            for (i, &a) in answers.iter().enumerate() {
                let above = qn.survival(threshold + z - a);
                out[i] += weight * still * above;
                still *= 1.0 - above;
            }
            out[answers.len()] += weight * still;
        }
        out
    };
    let data: Vec<Point> = vec![0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 5, 5];
    let base = law(&data);
    let mut largest: f64 = 0.0;
    for i in 0..data.len() {
        for x in 0..size {
            let mut neighbour = data.clone();
            neighbour[i] = x;
            let other = law(&neighbour);
            let forward = privpac_audit::max_divergence(&base, &other).unwrap();
            let backward = privpac_audit::max_divergence(&other, &base).unwrap();
            assert!(
                forward <= e0 + 1e-9 && backward <= e0 + 1e-9,
                "{forward} {backward} {e0}"
            );
            largest = largest.max(forward).max(backward);
        }
    }
    // The audit can fail: replacing a point moves the law by a visible fraction of ε₀.
    assert!(largest > 0.1 * e0, "{largest} {e0}");
}
