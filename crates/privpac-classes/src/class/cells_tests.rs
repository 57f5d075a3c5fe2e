//! `labeling_cells` against brute force: on intervals, not(intervals) and both(intervals)
//! over 1 to 12 points, on random samples and point lists (repeats included), grouping the
//! cells by labeling gives exactly the dichotomies of the class on the points, each with its
//! smallest concept (by id and, where given, by parts), that concept's mistakes and the
//! fewest mistakes of any concept inducing it.

use std::collections::BTreeMap;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::class::{Both, ConceptClass, Intervals, Not, brute_force_error_counts};
use crate::domain::Point;
use crate::sample::LabeledSample;

/// Per labeling (as the labels of `points`): (smallest id, its mistakes, fewest mistakes).
type Dichotomies = BTreeMap<Vec<bool>, (u64, u64, u64)>;

fn brute_force(class: &dyn ConceptClass, points: &[Point], sample: &LabeledSample) -> Dichotomies {
    let errors = brute_force_error_counts(class, sample).unwrap();
    let mut found = Dichotomies::new();
    for (id, &mistakes) in errors.iter().enumerate() {
        let labels: Vec<bool> = points.iter().map(|&x| class.eval(id as u64, x)).collect();
        let entry = found
            .entry(labels)
            .or_insert((id as u64, mistakes, mistakes));
        entry.2 = entry.2.min(mistakes);
    }
    found
}

fn from_cells(class: &dyn ConceptClass, points: &[Point], sample: &LabeledSample) -> Dichotomies {
    let cells = class.labeling_cells(points, sample).unwrap().unwrap();
    let sorted = crate::class::sorted_distinct(points);
    let mut found = Dichotomies::new();
    let mut last_first = None;
    for cell in cells {
        let first = cell.first.unwrap();
        assert!(last_first < Some(first), "cells out of id order");
        last_first = Some(first);
        let labels: Vec<bool> = points
            .iter()
            .map(|x| cell.positives.contains(sorted.binary_search(x).unwrap()))
            .collect();
        for &x in points {
            assert_eq!(
                labels[points.iter().position(|&p| p == x).unwrap()],
                class.eval(first, x),
                "the first concept's labels"
            );
        }
        if let Some(parts) = cell.parts {
            let named = |x: Point| parts.contains(x);
            for x in 0..class.domain().size() as Point {
                assert_eq!(
                    named(x),
                    class.eval(first, x),
                    "parts and id name one concept"
                );
            }
        }
        let entry = found
            .entry(labels)
            .or_insert((first, cell.first_errors, cell.fewest_errors));
        entry.2 = entry.2.min(cell.fewest_errors);
    }
    found
}

#[test]
fn labeling_cells_are_the_brute_force_dichotomies() {
    let mut rng = ChaCha8Rng::seed_from_u64(3801);
    for _ in 0..200 {
        let size = rng.random_range(1u64..13);
        let n = rng.random_range(0usize..15);
        let pairs: Vec<(u64, bool)> = (0..n)
            .map(|_| (rng.random_range(0..size), rng.random_bool(0.5)))
            .collect();
        let t = rng.random_range(1usize..7);
        let points: Vec<Point> = (0..t).map(|_| rng.random_range(0..size)).collect();
        let classes: Vec<Box<dyn ConceptClass>> = vec![
            Box::new(Intervals::new(size).unwrap()),
            Box::new(Not::new(Intervals::new(size).unwrap())),
            Box::new(Both::new(Intervals::new(size).unwrap()).unwrap()),
        ];
        for class in classes {
            let sample = LabeledSample::from_pairs(class.domain(), &pairs).unwrap();
            assert_eq!(
                from_cells(class.as_ref(), &points, &sample),
                brute_force(class.as_ref(), &points, &sample),
                "{} on {pairs:?}, points {points:?}",
                class.name()
            );
        }
    }
}

/// A point outside the domain is refused, as `labeling_ranges` refuses it.
#[test]
fn labeling_cells_refuse_points_outside_the_domain() {
    let class = Intervals::new(5).unwrap();
    let sample = LabeledSample::from_pairs(class.domain(), &[(1, true)]).unwrap();
    assert!(class.labeling_cells(&[2, 5], &sample).is_err());
}
