//! Multi-learners: `multi-learn` and `sample-complexity --k`.

use super::*;

/// Points over [64], 3 label columns: targets 5, 9, 20.
fn multi_data(name: &str, n: u64) -> std::path::PathBuf {
    let mut csv = String::from("x,y1,y2,y3\n");
    for i in 0..n {
        let x = (i * 37) % 64;
        csv.push_str(&format!(
            "{x},{},{},{}\n",
            u8::from(x == 5),
            u8::from(x == 9),
            u8::from(x == 20)
        ));
    }
    data_file(name, &csv)
}

#[test]
fn multi_learn_json_schema() {
    let path = multi_data("schema-multi.csv", 1000);
    let data = path.to_str().unwrap();
    let fields = [
        ("class", Ty::Str),
        ("learner", Ty::Str),
        ("learner_spec", Ty::Str),
        ("examples", Ty::Int),
        ("k", Ty::Int),
        ("columns", Ty::Arr),
        ("max_empirical_error", Ty::Num),
        ("guarantee", Ty::Guarantee),
        ("epsilon", Ty::NumOrNull),
        ("delta", Ty::NumOrNull),
        ("guarantee_text", Ty::Str),
        ("per_column", Ty::ObjOrNull),
        ("composition", Ty::StrOrNull),
    ];
    let column_fields = [
        ("column", Ty::Int),
        ("name", Ty::Str),
        ("hypothesis", Ty::Obj),
        ("hypothesis_text", Ty::Str),
        ("empirical_error", Ty::Num),
    ];
    for (learner, delta) in [
        ("direct-sum:generic", "0"),
        ("generic:point", "1e-6"),
        ("point", "1e-6"),
    ] {
        let parsed = json_of(&[
            "multi-learn",
            "--class",
            "points:64",
            "--learner",
            learner,
            "--epsilon",
            "2",
            "--delta",
            delta,
            "--data",
            data,
            "--seed",
            "1",
            "--json",
        ]);
        check_schema(&parsed, &fields, learner);
        assert_eq!(parsed["learner_spec"], learner);
        assert_eq!(parsed["k"], 3);
        let columns = parsed["columns"].as_array().unwrap();
        assert_eq!(columns.len(), 3);
        for (j, column) in columns.iter().enumerate() {
            check_schema(column, &column_fields, "column");
            assert_eq!(column["column"], j + 1);
            assert_eq!(column["name"], format!("y{}", j + 1));
        }
        // ε and δ are numbers, equal to the guarantee's, and within the requested total.
        let epsilon = parsed["epsilon"].as_f64().unwrap();
        let delta_out = parsed["delta"].as_f64().unwrap();
        assert_eq!(parsed["guarantee"]["epsilon"].as_f64(), Some(epsilon));
        assert_eq!(parsed["guarantee"]["delta"].as_f64(), Some(delta_out));
        assert!(epsilon <= 2.0, "{parsed}");
        assert!(delta_out <= delta.parse::<f64>().unwrap(), "{parsed}");
    }
    // The pure direct sum finds the three targets from 1000 examples at total ε = 2... the
    // point learner too; check the direct sum's columns name the targets.
    let parsed = json_of(&[
        "multi-learn",
        "--class",
        "points:64",
        "--learner",
        "direct-sum",
        "--epsilon",
        "6",
        "--data",
        data,
        "--seed",
        "2",
        "--json",
    ]);
    let ids: Vec<u64> = parsed["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["hypothesis"]["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, vec![5, 9, 20], "{parsed}");
}

#[test]
fn multi_learn_rejects_bad_input_with_typed_errors() {
    let path = multi_data("multi-errors.csv", 200);
    let data = path.to_str().unwrap();
    let run = |learner: &str, epsilon: &str, delta: &str, data: &str, needle: &str| {
        check_error(
            &[
                "multi-learn",
                "--class",
                "points:64",
                "--learner",
                learner,
                "--epsilon",
                epsilon,
                "--delta",
                delta,
                "--data",
                data,
            ],
            needle,
        );
    };
    run("magic", "1", "0", data, "unknown multi-learner \"magic\"");
    run("direct-sum:magic", "1", "0", data, "unknown learner");
    run("parity", "1", "1e-6", data, "needs the hypercube domain");
    run(
        "point",
        "1",
        "0",
        data,
        "needs approximate differential privacy",
    );
    run("direct-sum", "2e-9", "0", data, "too small to split");
    let ragged = data_file("multi-ragged.csv", "x,y1,y2\n1,0,1\n2,1\n");
    run("point", "1", "1e-6", ragged.to_str().unwrap(), "line 3");
    let bad_label = data_file("multi-label.csv", "1,0,1\n2,1,7\n");
    run("point", "1", "1e-6", bad_label.to_str().unwrap(), "line 2");
    let outside = data_file("multi-outside.csv", "1,0,1\n64,1,0\n");
    run("point", "1", "1e-6", outside.to_str().unwrap(), "line 2");
    // Hypercube points as bit strings.
    let cube = data_file("multi-cube.csv", "x,y1,y2\n1100,0,1\n0011,1,0\n");
    let parsed = json_of(&[
        "multi-learn",
        "--class",
        "parities:4",
        "--learner",
        "direct-sum",
        "--epsilon",
        "1",
        "--data",
        cube.to_str().unwrap(),
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(parsed["examples"], 2);
    assert_eq!(parsed["k"], 2);
}

#[test]
fn sample_complexity_with_k_fits_a_slope_and_checks_counts() {
    let parsed = json_of(&[
        "sample-complexity",
        "--class",
        "parities:6",
        "--learner",
        "parity",
        "--epsilon",
        "1",
        "--delta",
        "1e-6",
        "--alpha",
        "0.1",
        "--beta",
        "0.1",
        "--k",
        "1,4,16",
        "--trials",
        "20",
        "--seed",
        "3",
        "--json",
    ]);
    check_schema(
        &parsed,
        &[
            ("class", Ty::Str),
            ("learner_spec", Ty::Str),
            ("distribution", Ty::Str),
            ("label_noise", Ty::Num),
            ("scenario", Ty::Str),
            ("epsilon", Ty::Num),
            ("delta", Ty::Num),
            ("alpha", Ty::Num),
            ("beta", Ty::Num),
            ("trials", Ty::Int),
            ("seed", Ty::Int),
            ("curve", Ty::Obj),
            ("column_splits", Ty::Arr),
        ],
        "sample-complexity --k",
    );
    // The parity learner has no per-column split: one entry per k, nulls.
    let splits = parsed["column_splits"].as_array().unwrap();
    let split_ks: Vec<u64> = splits.iter().map(|s| s["k"].as_u64().unwrap()).collect();
    assert_eq!(split_ks, [1, 4, 16], "{parsed}");
    for split in splits {
        assert!(
            split["per_column"].is_null() && split["composition"].is_null(),
            "{split}"
        );
    }
    let curve = &parsed["curve"];
    check_schema(
        curve,
        &[
            ("learner", Ty::Str),
            ("points", Ty::Arr),
            ("trivial", Ty::Arr),
            ("fit", Ty::Obj),
        ],
        "curve",
    );
    let points = curve["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    for point in points {
        check_schema(
            point,
            &[
                ("k", Ty::Int),
                ("sample_size", Ty::Int),
                ("guarantee", Ty::Guarantee),
                ("outcome", Ty::Obj),
            ],
            "point",
        );
    }
    let slope = curve["fit"]["slope"].as_f64().unwrap();
    assert!(slope.abs() < 0.15, "{parsed}"); // the parity learner's n does not grow with k
    let base = [
        "sample-complexity",
        "--class",
        "parities:4",
        "--learner",
        "parity",
        "--epsilon",
        "1",
        "--delta",
        "1e-6",
        "--alpha",
        "0.1",
        "--beta",
        "0.1",
    ];
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        base.iter().chain(extra).copied().collect()
    }
    check_error(
        &with(&base, &["--k", "1000000000000"]),
        "--k is 1000000000000, above the limit",
    );
    check_error(&with(&base, &["--k", "0"]), "at least 1");
    check_error(
        &with(&base, &["--k", "2", "--target", "3"]),
        "--target does not apply",
    );
    let mut pure = with(&base, &["--k", "2"]);
    pure[8] = "0";
    check_error(&pure, "needs approximate differential privacy");
    // --delta without --k is for (ε, δ) learners: a pure one refuses it (issue 38 §3).
    check_error(
        &[
            "sample-complexity",
            "--class",
            "thresholds:8",
            "--learner",
            "generic",
            "--epsilon",
            "1",
            "--delta",
            "1e-6",
            "--alpha",
            "0.1",
            "--beta",
            "0.1",
        ],
        "generic is pure ε-DP; δ must be 0",
    );
}

/// Points over [64] with k label columns, target of column j is point j.
fn k_column_data(name: &str, k: usize, n: u64) -> std::path::PathBuf {
    let header: Vec<String> = (1..=k).map(|j| format!("y{j}")).collect();
    let mut csv = format!("x,{}\n", header.join(","));
    for i in 0..n {
        let x = (i * 37) % 64;
        let labels: Vec<&str> = (0..k as u64)
            .map(|j| if x == j { "1" } else { "0" })
            .collect();
        csv.push_str(&format!("{x},{}\n", labels.join(",")));
    }
    data_file(name, &csv)
}

/// The direct sum at (ε, δ) = (1, 10⁻⁶) once refused k = 9, 13, 50 and 100 ("budget too
/// small to split": fl(δ/k) rounded up); every k builds now and reports within the total.
/// k = 1 also checks that the one-column header `x,y1` is accepted.
#[test]
fn multi_learn_direct_sum_splits_every_k() {
    for k in [1usize, 9, 13, 50] {
        let path = k_column_data(&format!("split-k{k}.csv"), k, 200);
        let parsed = json_of(&[
            "multi-learn",
            "--class",
            "points:64",
            "--learner",
            "direct-sum",
            "--epsilon",
            "1",
            "--delta",
            "1e-6",
            "--data",
            path.to_str().unwrap(),
            "--seed",
            "1",
            "--json",
        ]);
        assert_eq!(parsed["k"], k, "{parsed}");
        assert!(parsed["epsilon"].as_f64().unwrap() <= 1.0, "{parsed}");
        assert!(parsed["delta"].as_f64().unwrap() <= 1e-6, "{parsed}");
    }
}

/// Issue 27 §4: a direct sum keeps its total. `multi-learn --learner
/// direct-sum:private-prediction --epsilon 1` with k = 4 reported a composed per-prediction
/// ε of up to about 8.8 (each column's mechanism got 0.25); now the k predictions compose
/// to at most 1. `direct-sum:stable` (not private) and, with --k, direct sums of learners
/// sized for one n (the k-curve search runs them at every n, where the old build reported
/// ln 9 per prediction against a total of 1) are refused with a clear error.
#[test]
fn direct_sums_of_prediction_learners_keep_the_total_or_are_refused() {
    let path = k_column_data("per-prediction-k4.csv", 4, 2000);
    let data = path.to_str().unwrap();
    for inner in ["private-prediction", "voting", "relabeling"] {
        let parsed = json_of(&[
            "multi-learn",
            "--class",
            "points:64",
            "--learner",
            &format!("direct-sum:{inner}"),
            "--epsilon",
            "1",
            "--data",
            data,
            "--seed",
            "1",
            "--json",
        ]);
        assert_eq!(parsed["guarantee"]["kind"], "per_prediction", "{parsed}");
        let epsilon = parsed["guarantee"]["epsilon"].as_f64().unwrap();
        assert!(epsilon <= 1.0, "{inner}: {parsed}");
        assert!(parsed["not_covered"].is_string(), "{parsed}");
    }
    check_error(
        &[
            "multi-learn",
            "--class",
            "points:64",
            "--learner",
            "direct-sum:stable",
            "--epsilon",
            "1",
            "--data",
            data,
        ],
        "no total ε can be kept",
    );
    check_error(
        &[
            "sample-complexity",
            "--class",
            "thresholds:64",
            "--learner",
            "direct-sum:private-prediction",
            "--epsilon",
            "1",
            "--alpha",
            "0.2",
            "--beta",
            "0.2",
            "--k",
            "1,2",
            "--trials",
            "10",
        ],
        "not supported with --k",
    );
}

/// Resuming after a kill mid-write: the torn last line of the results file is dropped with
/// a one-line warning, its unit reruns, and the outputs equal an uninterrupted run's.
#[test]
fn experiment_resumes_past_a_torn_last_line() {
    let root = std::env::temp_dir().join(format!("privpac-torn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let run = |out: &str| {
        privpac(&[
            "experiment",
            "online-mistakes",
            "--scale",
            "tiny",
            "--seed",
            "4",
            "--out",
            root.join(out).to_str().unwrap(),
            "--json",
        ])
    };
    let clean = run("clean");
    assert!(
        clean.status.success(),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    let units = root.join("clean").join("units-tiny.jsonl");
    let text = std::fs::read_to_string(&units).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::create_dir_all(root.join("torn")).unwrap();
    let torn_file = root.join("torn").join("units-tiny.jsonl");
    std::fs::write(
        &torn_file,
        format!("{}\n{}", lines[0], &lines[1][..lines[1].len() / 2]),
    )
    .unwrap();
    let resumed = run("torn");
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning") && stderr.contains("torn last line (line 2"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("torn").join("results.json")).unwrap(),
        std::fs::read_to_string(root.join("clean").join("results.json")).unwrap()
    );
    // A bad line that is not the last stays an error (exit 2, one line).
    std::fs::write(&torn_file, format!("{{broken\n{}\n", lines[0])).unwrap();
    check_error(
        &[
            "experiment",
            "online-mistakes",
            "--scale",
            "tiny",
            "--seed",
            "4",
            "--out",
            root.join("torn").to_str().unwrap(),
        ],
        "line 1",
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// Reading an endless file stops at the input limit with a one-line error
/// (`dim --class matrix:/dev/zero` never returned); a data file, at the line-length limit
/// of its line 1.
#[test]
fn endless_input_files_stop_at_the_size_limit() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    check_error(
        &["dim", "--class", "matrix:/dev/zero"],
        "larger than the 536870912-byte limit on input files",
    );
    check_error(
        &[
            "learn",
            "--class",
            "points:8",
            "--learner",
            "generic",
            "--epsilon",
            "1",
            "--data",
            "/dev/zero",
        ],
        "line 1: longer than 1048576 bytes (the line-length limit",
    );
}

/// Hypotheses are shown in the data's terms: the parity learner's output for the target
/// whose bit string in the data is 0111010000 names that bit string and its coordinates
/// next to the class's id (46: bit i of the id is coordinate i, the first character).
#[test]
fn hypotheses_are_described_in_the_data_orientation() {
    let targets = ["0111010000", "1000000001"];
    let mut csv = String::from("x,y1,y2\n");
    let mut state = 12345u64;
    for _ in 0..2000 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x: Vec<u8> = (0..10).map(|i| (state >> (20 + i) & 1) as u8).collect();
        let labels: Vec<String> = targets
            .iter()
            .map(|t| {
                let dot: u32 = t
                    .bytes()
                    .zip(&x)
                    .map(|(b, &xi)| u32::from(b == b'1') * u32::from(xi))
                    .sum();
                (dot % 2).to_string()
            })
            .collect();
        let bits: String = x.iter().map(|b| b.to_string()).collect();
        csv.push_str(&format!("{bits},{}\n", labels.join(",")));
    }
    let path = data_file("parity-describe.csv", &csv);
    let parsed = json_of(&[
        "multi-learn",
        "--class",
        "parities:10",
        "--learner",
        "parity",
        "--epsilon",
        "1",
        "--delta",
        "1e-6",
        "--data",
        path.to_str().unwrap(),
        "--seed",
        "1",
        "--json",
    ]);
    let texts: Vec<&str> = parsed["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["hypothesis_text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "concept 46: parity of coordinates {1, 2, 3, 5} (bit string 0111010000)",
            "concept 513: parity of coordinates {0, 9} (bit string 1000000001)",
        ],
        "{parsed}"
    );
    // A threshold learned by ERM names its cut point.
    let path = data_file("threshold-describe.csv", "x,y\n1,1\n3,1\n4,0\n7,0\n");
    let parsed = json_of(&[
        "learn",
        "--class",
        "thresholds:8",
        "--learner",
        "erm",
        "--data",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(
        parsed["hypothesis_text"], "concept 3: 1 on x ≤ 3",
        "{parsed}"
    );
}

/// A scenario the constant hypotheses already solve is reported as trivial, not measured:
/// under the uniform distribution on 2^24 points the all-zero hypothesis errs 2^-24. The
/// default point scenario (five heavy points, the targets cycling over them) measures,
/// over 2^40 points, and names its distribution.
#[test]
fn trivial_scenarios_are_reported_and_the_point_default_measures() {
    let base = [
        "sample-complexity",
        "--class",
        "points:16777216",
        "--learner",
        "point",
        "--epsilon",
        "1",
        "--delta",
        "1e-6",
        "--alpha",
        "0.1",
        "--beta",
        "0.1",
        "--trials",
        "5",
        "--seed",
        "1",
        "--k",
        "1,8",
    ];
    let mut uniform = base.to_vec();
    uniform.extend(["--distribution", "uniform", "--json"]);
    let parsed = json_of(&uniform);
    let curve = &parsed["curve"];
    assert_eq!(curve["points"].as_array().unwrap().len(), 0, "{parsed}");
    let trivial = curve["trivial"].as_array().unwrap();
    assert_eq!(trivial.len(), 2, "{parsed}");
    for t in trivial {
        assert_eq!(t["baseline"]["hypothesis"], "all zeros", "{parsed}");
        assert!(
            t["baseline"]["excess_error"].as_f64().unwrap() <= 1e-6,
            "{parsed}"
        );
    }
    let text = stdout(&privpac(&uniform[..uniform.len() - 1]));
    assert!(
        text.contains("warning: at k = 1, 8 the constant hypotheses"),
        "{text}"
    );
    // The default for point functions: heavy points, measured, over 2^40 points.
    let mut heavy = base.to_vec();
    heavy[2] = "points:1099511627776";
    heavy.push("--json");
    let parsed = json_of(&heavy);
    assert!(
        parsed["distribution"]
            .as_str()
            .unwrap()
            .starts_with("heavy points"),
        "{parsed}"
    );
    assert_eq!(
        parsed["curve"]["points"].as_array().unwrap().len(),
        2,
        "{parsed}"
    );
    assert_eq!(
        parsed["curve"]["trivial"].as_array().unwrap().len(),
        0,
        "{parsed}"
    );
    // Single-concept: the same warning in the report and the text.
    let single = [
        "sample-complexity",
        "--class",
        "points:4096",
        "--learner",
        "generic",
        "--epsilon",
        "1",
        "--alpha",
        "0.1",
        "--beta",
        "0.1",
        "--trials",
        "5",
        "--seed",
        "1",
        "--distribution",
        "uniform",
    ];
    let text = stdout(&privpac(&single));
    assert!(
        text.contains("trivial scenario: the constant hypothesis (all zeros)"),
        "{text}"
    );
    let mut json = single.to_vec();
    json.push("--json");
    let parsed = json_of(&json);
    assert_eq!(parsed["trivial"]["hypothesis"], "all zeros", "{parsed}");
    // ... and is not searched: no size, no trial.
    assert!(parsed["empirical_sample_size"].is_null(), "{parsed}");
    assert!(parsed["guarantee"].is_null(), "{parsed}");
    assert_eq!(
        parsed["evaluations"].as_array().unwrap().len(),
        0,
        "{parsed}"
    );
    // Without --distribution, point functions get mass on the target: not trivial.
    let parsed = json_of(
        &json[..json.len() - 3]
            .iter()
            .copied()
            .chain(["--json"])
            .collect::<Vec<_>>(),
    );
    assert!(parsed["trivial"].is_null(), "{parsed}");
}

/// Issue 37 §2: the reports give a direct sum's per-column budget and the rule its k runs
/// compose by, exactly as `DirectSum::for_total` builds it; learners without a per-column
/// split give nulls.
#[test]
fn multi_learn_reports_the_per_column_budget_and_composition() {
    use privpac_learners::{GenericLearner, Learner};
    use privpac_multi::{DirectSum, MultiLearner};
    let path = multi_data("per-column.csv", 1000);
    let data = path.to_str().unwrap();
    let run = |learner: &str, delta: &str| {
        let args = [
            "multi-learn",
            "--class",
            "points:64",
            "--learner",
            learner,
            "--epsilon",
            "2",
            "--delta",
            delta,
            "--data",
            data,
            "--seed",
            "1",
        ];
        let text = stdout(&privpac(&args));
        (json_of(&[&args[..], &["--json"]].concat()), text)
    };
    let expected = |delta: f64| {
        let total = Privacy::new(2.0, delta).unwrap();
        DirectSum::for_total(total, 3, 1000, &|per_column| {
            // As the lab builds the generic inner learner: pure, at ε₀.
            Ok(
                Box::new(GenericLearner::new(Privacy::pure(per_column.epsilon())?)?)
                    as Box<dyn Learner>,
            )
        })
        .unwrap()
    };
    for (delta, rule) in [(0.0, "basic"), (1e-6, "bounded-range (exact)")] {
        let (parsed, text) = run("direct-sum:generic", &delta.to_string());
        let built = expected(delta);
        let (per_column, _) = built.column_split().unwrap();
        assert_eq!(
            parsed["per_column"]["epsilon"].as_f64(),
            Some(per_column.epsilon())
        );
        assert_eq!(
            parsed["per_column"]["delta"].as_f64(),
            Some(per_column.delta())
        );
        assert_eq!(parsed["composition"], rule, "{parsed}");
        let epsilon = per_column.epsilon();
        assert!(epsilon < 2.0, "{parsed}");
        assert!(
            text.contains(&format!("per column: {per_column}")),
            "{text}"
        );
        assert!(text.contains(&format!("(composed by {rule})")), "{text}");
        if delta == 0.0 {
            // Basic composition: k·ε₀ within the total, ε₀ = ε/3 up to rounding.
            assert!(
                3.0 * epsilon <= 2.0 && 3.0 * epsilon > 2.0 * (1.0 - 1e-9),
                "{parsed}"
            );
        } else {
            // Bounded-range composition buys a larger ε₀ than basic composition allows,
            // and the k runs of the exponential mechanism at ε₀ still compose to the total.
            assert!(3.0 * epsilon > 2.0, "{parsed}");
            let width = privpac_mechanisms::exponential_mechanism_range(epsilon);
            let composed = privpac_accounting::bounded_range_composition(width, 3, 1e-6).unwrap();
            assert!(composed.epsilon() <= 2.0, "{composed:?}");
            assert_eq!(
                Some(parsed["epsilon"].as_f64().unwrap()),
                built.guarantee(1000, 3).epsilon()
            );
        }
    }
    let (parsed, text) = run("point", "1e-6");
    assert!(
        parsed["per_column"].is_null() && parsed["composition"].is_null(),
        "{parsed}"
    );
    assert!(text.contains("per column: none"), "{text}");
}

/// `generic:treelog-quantiles` on thresholds is Corollary 3.10's construction: it learns,
/// reports a guarantee within the total, and prints Corollary 3.10's explicit bound (from
/// the proof with this sanitizer) beside the printed one, each labelled; other learners
/// and classes have no such field.
#[test]
fn multi_learn_prints_corollary_3_10_for_the_quantile_sanitizer() {
    let mut csv = String::from("x,y1,y2\n");
    for i in 0..3000u64 {
        let x = (i * 37 + i / 7) % 64;
        csv.push_str(&format!(
            "{x},{},{}\n",
            u8::from(x <= 20),
            u8::from(x <= 40)
        ));
    }
    let path = data_file("corollary-3-10.csv", &csv);
    let data = path.to_str().unwrap();
    let args = |learner: &'static str, class: &'static str| {
        vec![
            "multi-learn",
            "--class",
            class,
            "--learner",
            learner,
            "--epsilon",
            "2",
            "--delta",
            "1e-6",
            "--alpha",
            "0.5",
            "--data",
            data,
            "--seed",
            "5",
        ]
    };
    let mut json = args("generic:treelog-quantiles", "thresholds:64");
    json.push("--json");
    let parsed = json_of(&json);
    assert!(parsed["epsilon"].as_f64().unwrap() <= 2.0, "{parsed}");
    assert!(parsed["delta"].as_f64().unwrap() <= 1e-6, "{parsed}");
    let bound = &parsed["corollary_3_10"];
    assert_eq!(bound["k"], 2, "{parsed}");
    let derived = bound["derived_sample_size"].as_f64().unwrap();
    let terms = [
        "sanitizer_examples",
        "selection_examples",
        "convergence_examples",
    ]
    .map(|t| bound[t].as_f64().unwrap());
    assert_eq!(
        derived,
        terms.iter().copied().fold(0.0, f64::max),
        "{bound}"
    );
    assert!(bound["printed_o_form"].as_f64().unwrap() > 0.0, "{bound}");
    assert!(
        bound["derived_label"]
            .as_str()
            .unwrap()
            .contains("quantile sanitizer")
    );
    assert!(
        bound["printed_label"]
            .as_str()
            .unwrap()
            .contains("as printed")
    );
    let text = privpac(&args("generic:treelog-quantiles", "thresholds:64"));
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Corollary 3.10 at k = 2") && text.contains("as printed"),
        "{text}"
    );
    let mut other = args("generic:tree", "thresholds:64");
    other.push("--json");
    assert!(json_of(&other).get("corollary_3_10").is_none());
}

/// `multi-learn` names its columns by the header: a file `x,flu,cold` read with `--columns`
/// prints `flu` and `cold` in the text and the JSON, as do the columns `--columns` selects
/// from a wider file (by name or by index, in the order given); a file without a header
/// keeps `y1`, …, `yk`.
#[test]
fn multi_learn_names_columns_by_their_header() {
    let rows = "1,1,0\n2,1,0\n9,0,1\n12,0,1\n3,1,0\n";
    let headed = data_file("multi-named.csv", &format!("x,flu,cold\n{rows}"));
    let bare = data_file("multi-bare.csv", rows);
    let wide = data_file(
        "multi-wide.csv",
        "id,age,cold,city,flu\n0,1,0,a,1\n1,2,0,b,1\n2,9,1,c,0\n3,12,1,d,0\n4,3,0,e,1\n",
    );
    let run = |path: &std::path::Path, extra: &[&str], json: bool| {
        let mut args = vec![
            "multi-learn",
            "--class",
            "thresholds:16",
            "--learner",
            "direct-sum",
            "--epsilon",
            "1",
            "--data",
            path.to_str().unwrap(),
            "--seed",
            "3",
        ];
        args.extend_from_slice(extra);
        if json {
            args.push("--json");
        }
        args.iter().map(|a| a.to_string()).collect::<Vec<String>>()
    };
    let names = |path: &std::path::Path, extra: &[&str]| -> Vec<String> {
        let args = run(path, extra, true);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        json_of(&args)["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        names(&headed, &["--columns", "x,flu,cold"]),
        ["flu", "cold"]
    );
    assert_eq!(names(&headed, &["--columns", "x,cold"]), ["cold"]);
    assert_eq!(names(&bare, &[]), ["y1", "y2"]);
    assert_eq!(
        names(&wide, &["--columns", "age,flu,cold"]),
        ["flu", "cold"]
    );
    assert_eq!(names(&wide, &["--columns", "1,4,2"]), ["flu", "cold"]);
    assert_eq!(
        names(&wide, &["--columns", "age,cold,flu"]),
        ["cold", "flu"]
    );
    // The text table's column cells are the names.
    let args = run(&headed, &["--columns", "x,flu,cold"], false);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let text = stdout(&privpac(&args));
    let cells: Vec<&str> = text
        .lines()
        .filter_map(|line| {
            line.trim_start_matches(['│', '|', ' '])
                .split_whitespace()
                .next()
        })
        .filter(|cell| ["flu", "cold", "y1", "y2"].contains(cell))
        .collect();
    assert_eq!(cells, ["flu", "cold"], "{text}");
}
