//! Benches of the streaming data-file reader (`privpac_toolkit::read_table` and its
//! wrappers): throughput in bytes per second on generated `x,y` rows over
//! `thresholds:2^20`'s domain (seeded from [`INPUT_SEED`], about 9 bytes per row).
//!
//! - `data/labeled/memory`: 10^6 rows parsed from memory (the parser alone);
//! - `data/labeled/file`: 10^7 rows (about 89 MB) written once to a temporary file and read
//!   through `read_labeled_csv` (open, page-cache reads, parse), as `privpac learn --data`
//!   does;
//! - `data/multi/memory`: 10^6 rows of 8 labels, `x,y1,…,y8`.

use std::hint::black_box;
use std::io::Write as _;

use benches::{INPUT_SEED, config};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use privpac_classes::Domain;
use privpac_toolkit::{DataOptions, read_labeled, read_labeled_csv, read_multi_labeled};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const DOMAIN: u64 = 1 << 20;

/// `rows` rows `x,y1,…,yk` (a header first), x uniform on the domain, labels fair coins.
fn generate(rows: usize, k: usize) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(INPUT_SEED);
    let mut text = Vec::with_capacity(rows * (9 + 2 * k));
    text.extend_from_slice(if k == 1 { b"x,y\n" } else { b"x" });
    if k > 1 {
        for j in 1..=k {
            write!(text, ",y{j}").expect("in memory");
        }
        text.push(b'\n');
    }
    for _ in 0..rows {
        write!(text, "{}", rng.random_range(0..DOMAIN)).expect("in memory");
        for _ in 0..k {
            text.extend_from_slice(if rng.random_bool(0.5) { b",1" } else { b",0" });
        }
        text.push(b'\n');
    }
    text
}

fn bench_data(c: &mut Criterion) {
    let domain = Domain::ordered(DOMAIN).expect("valid");
    let options = DataOptions::default();
    let mut group = c.benchmark_group("data");

    let memory = generate(1_000_000, 1);
    group.throughput(Throughput::Bytes(memory.len() as u64));
    group.bench_function(BenchmarkId::new("labeled/memory", 1_000_000), |b| {
        b.iter(|| {
            let sample = read_labeled(black_box(memory.as_slice()), &domain, &options);
            black_box(sample.expect("valid").len())
        });
    });

    let multi = generate(1_000_000, 8);
    group.throughput(Throughput::Bytes(multi.len() as u64));
    group.bench_function(BenchmarkId::new("multi/memory", 1_000_000), |b| {
        b.iter(|| {
            let sample = read_multi_labeled(black_box(multi.as_slice()), &domain, &options);
            black_box(sample.expect("valid").len())
        });
    });

    let big = generate(10_000_000, 1);
    let path = std::env::temp_dir().join(format!("privpac-bench-data-{}.csv", std::process::id()));
    std::fs::write(&path, &big).expect("a writable temporary directory");
    group.throughput(Throughput::Bytes(big.len() as u64));
    drop(big);
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("labeled/file", 10_000_000), |b| {
        b.iter(|| {
            let sample = read_labeled_csv(black_box(&path), &domain);
            black_box(sample.expect("valid").len())
        });
    });
    group.finish();
    std::fs::remove_file(&path).expect("created above");
}

criterion_group! {
    name = benches;
    config = config();
    targets = bench_data
}
criterion_main!(benches);
