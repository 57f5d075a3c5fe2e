//! Benches of the coverage table's slow cells (the `coverage` experiment of
//! privpac-experiments): whole `sample-complexity` requests (ε = 1, α = 0.1, β = 0.2, 20
//! trials, seed 1) through `privpac_toolkit::run_sample_complexity`, as the CLI runs them:
//! - the Dagan–Feldman learner on thresholds over 2^20 points, which ends with its proven
//!   error floor (η + (1 − 2η)·η_v ≈ 0.123 > α) after building the learner at every size of
//!   the doubling and running no trial;
//! - the vote and the stable learner on thresholds over 2^8 points, measured;
//! - the sanitizer learner with the binary-tree sanitizer on thresholds over 2^20 points
//!   (2^20 − 1 exact noise draws per sanitization, and a search runs hundreds), measured.
//!
//! Each iteration is one whole request (the same seed: the same work every time).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use privpac_toolkit::{SampleComplexityRequest, run_sample_complexity};

fn request(class: &str, learner: &str) -> SampleComplexityRequest {
    let mut request = SampleComplexityRequest::new(class, learner, 1.0, 0.1, 0.2, 1);
    request.trials = 20;
    if learner == "stable" {
        request.epsilon = None;
        request.em_epsilon = Some(1.0);
    }
    request
}

fn cells(c: &mut Criterion) {
    let mut group = c.benchmark_group("coverage");
    group.sample_size(10);
    for (class, learner) in [
        ("thresholds:1048576", "dagan-feldman"),
        ("thresholds:256", "voting"),
        ("thresholds:256", "stable"),
        ("thresholds:1048576", "sanitizer:tree"),
    ] {
        let request = request(class, learner);
        group.bench_function(format!("{learner} on {class}"), |b| {
            b.iter(|| black_box(run_sample_complexity(&request, &mut |_| {})))
        });
    }
    group.finish();
}

criterion_group! {
    name = coverage;
    config = benches::config();
    targets = cells
}
criterion_main!(coverage);
