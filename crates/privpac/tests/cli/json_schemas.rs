//! JSON schemas: every command's --json parses, has exactly the documented keys with the
//! documented types, and carries its guarantee as numbers.

use super::*;

/// The JSON type of a field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Ty {
    Num,
    Int,
    Str,
    Bool,
    Arr,
    Obj,
    /// A number, or null when the field does not apply.
    NumOrNull,
    IntOrNull,
    /// An object, or null when the field does not apply.
    ObjOrNull,
    ArrOrNull,
    /// A string, or null when the field does not apply.
    StrOrNull,
    /// A string or an object (serde's externally tagged unit/struct variants).
    StrOrObj,
    /// A privacy guarantee: `{"epsilon": number, "delta": number}`.
    Privacy,
    /// A guarantee tagged by `kind` with its parameters as numbers.
    Guarantee,
}

fn has_type(value: &Value, ty: Ty) -> bool {
    match ty {
        Ty::Num => value.is_number(),
        Ty::Int => value.is_u64() || value.is_i64(),
        Ty::Str => value.is_string(),
        Ty::Bool => value.is_boolean(),
        Ty::Arr => value.is_array(),
        Ty::Obj => value.is_object(),
        Ty::NumOrNull => value.is_number() || value.is_null(),
        Ty::IntOrNull => value.is_u64() || value.is_null(),
        Ty::ObjOrNull => value.is_object() || value.is_null(),
        Ty::ArrOrNull => value.is_array() || value.is_null(),
        Ty::StrOrNull => value.is_string() || value.is_null(),
        Ty::StrOrObj => value.is_string() || value.is_object(),
        Ty::Privacy => is_privacy(value),
        Ty::Guarantee => is_guarantee(value),
    }
}

fn is_privacy(value: &Value) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    object.len() == 2
        && value["epsilon"].as_f64().is_some_and(|e| e >= 0.0)
        && value["delta"]
            .as_f64()
            .is_some_and(|d| (0.0..1.0).contains(&d))
}

fn is_guarantee(value: &Value) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    let number = |key: &str| value[key].as_f64().is_some_and(|x| x >= 0.0);
    match value["kind"].as_str() {
        Some("differential_privacy") => object.len() == 3 && number("epsilon") && number("delta"),
        Some("per_prediction") => object.len() == 2 && number("epsilon"),
        Some("uniform_stability") => object.len() == 2 && number("beta"),
        Some("none") => object.len() == 1,
        _ => false,
    }
}

/// Checks that `value` is an object with exactly the keys of `fields`, each of its type.
#[track_caller]
pub(crate) fn check_schema(value: &Value, fields: &[(&str, Ty)], context: &str) {
    let object = value
        .as_object()
        .unwrap_or_else(|| panic!("{context}: not an object: {value}"));
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    let mut expected: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    keys.sort_unstable();
    expected.sort_unstable();
    assert_eq!(keys, expected, "{context}: keys of {value}");
    for (key, ty) in fields {
        assert!(
            has_type(&value[*key], *ty),
            "{context}: {key} should be {ty:?}, is {}",
            value[*key]
        );
    }
}

/// Runs a command that must succeed and parses its JSON.
#[track_caller]
pub(crate) fn json_of(args: &[&str]) -> Value {
    let output = privpac(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        output.stdout.iter().filter(|&&b| b == b'\n').count(),
        1,
        "{args:?}: JSON is one line"
    );
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: invalid JSON ({e})"))
}

pub(crate) fn threshold_data(name: &str, n: u64) -> std::path::PathBuf {
    let mut csv = String::from("x,y\n");
    for i in 0..n {
        let x = (i * 37) % 256;
        csv.push_str(&format!("{x},{}\n", u8::from(x <= 100)));
    }
    data_file(name, &csv)
}

#[test]
fn mech_json_schemas() {
    let fields = [
        ("mechanism", Ty::Str),
        ("epsilon", Ty::Num),
        ("sensitivity", Ty::Num),
        ("scores", Ty::Arr),
        ("probabilities", Ty::ArrOrNull),
        ("chosen", Ty::IntOrNull),
        ("chosen_score", Ty::NumOrNull),
        ("guarantee", Ty::Privacy),
        ("guarantee_text", Ty::Str),
    ];
    let sampled = json_of(&[
        "mech",
        "exponential",
        "--scores",
        "3,1,0",
        "--epsilon",
        "1",
        "--seed",
        "1",
        "--json",
    ]);
    check_schema(&sampled, &fields, "mech exponential");
    assert!(sampled["chosen"].is_u64() && sampled["probabilities"].is_null());
    assert_eq!(sampled["guarantee"]["epsilon"].as_f64(), Some(1.0));
    let exact = json_of(&[
        "mech",
        "exponential",
        "--scores",
        "3,1,0",
        "--epsilon",
        "1",
        "--probabilities",
        "--json",
    ]);
    check_schema(&exact, &fields, "mech exponential --probabilities");
    assert!(exact["chosen"].is_null() && exact["probabilities"].is_array());
    let laplace_fields = [
        ("mechanism", Ty::Str),
        ("epsilon", Ty::Num),
        ("sensitivity", Ty::Num),
        ("count", Ty::Int),
        ("releases", Ty::Arr),
        ("guarantee", Ty::Privacy),
        ("guarantee_text", Ty::Str),
        ("guarantee_each", Ty::Privacy),
        ("guarantee_each_text", Ty::Str),
    ];
    for discrete in [false, true] {
        let mut args = vec![
            "mech",
            "laplace",
            "--value",
            "7",
            "--epsilon",
            "0.25",
            "--count",
            "3",
            "--seed",
            "1",
            "--json",
        ];
        if discrete {
            args.push("--discrete");
        }
        let parsed = json_of(&args);
        check_schema(&parsed, &laplace_fields, "mech laplace");
        let releases = parsed["releases"].as_array().unwrap();
        assert_eq!(releases.len(), 3);
        assert!(
            releases
                .iter()
                .all(|r| if discrete { r.is_i64() } else { r.is_f64() })
        );
        assert!(parsed["guarantee"]["epsilon"].as_f64().unwrap() >= 0.75);
    }
}

#[test]
fn dim_and_online_json_schemas() {
    let dim = json_of(&["dim", "--class", "thresholds:8", "--json"]);
    check_schema(
        &dim,
        &[
            ("class", Ty::Str),
            ("concepts", Ty::Int),
            ("points", Ty::Int),
            ("vc_dimension", Ty::Int),
            ("shattered_set", Ty::Arr),
            ("littlestone_dimension", Ty::Int),
            ("littlestone_tree", Ty::StrOrObj),
            ("witnesses_verified", Ty::Bool),
            ("vc_seconds", Ty::Num),
            ("littlestone_seconds", Ty::Num),
        ],
        "dim",
    );
    assert_eq!(dim["witnesses_verified"], true);
    let online = json_of(&[
        "online",
        "--class",
        "thresholds:8",
        "--learner",
        "halving",
        "--adversary",
        "random",
        "--rounds",
        "5",
        "--seed",
        "1",
        "--json",
    ]);
    check_schema(
        &online,
        &[
            ("class", Ty::Str),
            ("learner", Ty::Str),
            ("adversary", Ty::Str),
            ("rounds", Ty::Int),
            ("mistakes", Ty::Int),
            ("mistake_bound", Ty::Int),
            ("mistake_bound_name", Ty::Str),
            ("littlestone_dimension", Ty::Int),
            ("transcript", Ty::Arr),
        ],
        "online",
    );
    let transcript = online["transcript"].as_array().unwrap();
    assert_eq!(transcript.len(), 5);
    assert!(transcript.iter().all(|round| {
        let round = round.as_array().unwrap();
        round.len() == 3 && round[0].is_u64() && round[1].is_boolean() && round[2].is_boolean()
    }));
}

#[test]
fn learn_and_sanitize_json_schemas() {
    let path = threshold_data("schema-learn.csv", 400);
    let data = path.to_str().unwrap();
    let fields = [
        ("class", Ty::Str),
        ("learner", Ty::Str),
        ("learner_spec", Ty::Str),
        ("examples", Ty::Int),
        ("hypothesis", Ty::Obj),
        ("hypothesis_text", Ty::Str),
        ("empirical_error", Ty::Num),
        ("guarantee", Ty::Guarantee),
        ("guarantee_text", Ty::Str),
    ];
    for learner in ["erm", "generic", "stable", "voting", "sanitizer:tree"] {
        // stable is not private: it takes its mechanism's ε, not a target.
        let epsilon_flag = if learner == "stable" {
            "--em-epsilon"
        } else {
            "--epsilon"
        };
        let parsed = json_of(&[
            "learn",
            "--class",
            "thresholds:256",
            "--learner",
            learner,
            epsilon_flag,
            "1",
            "--data",
            data,
            "--seed",
            "1",
            "--json",
        ]);
        // A per-prediction report says what its guarantee does not cover.
        let mut expected = fields.to_vec();
        if learner == "voting" {
            expected.push(("not_covered", Ty::Str));
        }
        check_schema(&parsed, &expected, learner);
        assert_eq!(parsed["learner_spec"], learner);
        assert!(parsed["hypothesis"]["kind"].is_string(), "{parsed}");
    }
    let mut points = String::from("x\n");
    for i in 0..500u64 {
        points.push_str(&format!("{}\n", (i * i) % 200));
    }
    let points = data_file("schema-points.csv", &points);
    let parsed = json_of(&[
        "sanitize",
        "--class",
        "thresholds:256",
        "--sanitizer",
        "mwem",
        "--epsilon",
        "1",
        "--data",
        points.to_str().unwrap(),
        "--show",
        "3",
        "--seed",
        "1",
        "--json",
    ]);
    check_schema(
        &parsed,
        &[
            ("class", Ty::Str),
            ("sanitizer", Ty::Str),
            ("guarantee", Ty::Privacy),
            ("guarantee_text", Ty::Str),
            ("data_points", Ty::Int),
            ("synthetic", Ty::Obj),
            ("support_points", Ty::Int),
            ("max_query_error", Ty::Num),
            ("worst_concept", Ty::Int),
            ("heaviest", Ty::Arr),
        ],
        "sanitize",
    );
    assert!(parsed["heaviest"].as_array().unwrap().len() <= 3);
    check_schema(
        &parsed["synthetic"],
        &[("domain", Ty::Obj), ("body", Ty::Obj)],
        "sanitize synthetic",
    );
}

#[test]
fn sample_complexity_json_schema() {
    let outcome_fields = [
        ("sample_size", Ty::Int),
        ("trials", Ty::Int),
        ("successes", Ty::Int),
        ("success_rate", Ty::Num),
        ("interval", Ty::Arr),
        ("mean_error", Ty::Num),
    ];
    for (learner, noise, bound_kind) in [
        ("generic", "0", "explicit"),
        ("erm", "0.05", "explicit"),
        ("voting", "0", "no_explicit_constants"),
    ] {
        let parsed = json_of(&[
            "sample-complexity",
            "--class",
            "thresholds:32",
            "--learner",
            learner,
            "--epsilon",
            "2",
            "--alpha",
            "0.3",
            "--beta",
            "0.3",
            "--label-noise",
            noise,
            "--trials",
            "10",
            "--seed",
            "1",
            "--json",
        ]);
        check_schema(
            &parsed,
            &[
                ("class", Ty::Str),
                ("learner", Ty::Str),
                ("learner_spec", Ty::Str),
                ("target", Ty::Int),
                ("target_description", Ty::Str),
                ("distribution", Ty::Obj),
                ("label_noise", Ty::Num),
                ("scenario", Ty::Str),
                ("opt", Ty::Num),
                ("epsilon", Ty::NumOrNull),
                ("em_epsilon", Ty::NumOrNull),
                ("alpha", Ty::Num),
                ("beta", Ty::Num),
                ("empirical_sample_size", Ty::Int),
                ("success_rate", Ty::Num),
                ("interval", Ty::Arr),
                ("trials", Ty::Int),
                ("bound", Ty::Obj),
                ("guarantee", Ty::Guarantee),
                ("guarantee_text", Ty::Str),
                ("guarantee_source", Ty::Str),
                ("evaluations", Ty::Arr),
                ("trivial", Ty::ObjOrNull),
            ],
            learner,
        );
        let expected_scenario = if noise == "0" {
            "realizable"
        } else {
            "agnostic"
        };
        assert_eq!(parsed["scenario"], expected_scenario, "{parsed}");
        assert_eq!(parsed["guarantee_source"], "proven (built-in learner)");
        assert_eq!(parsed["bound"]["kind"], bound_kind, "{parsed}");
        if bound_kind == "explicit" {
            check_schema(
                &parsed["bound"],
                &[
                    ("kind", Ty::Str),
                    ("name", Ty::Str),
                    ("source", Ty::Str),
                    ("sample_size", Ty::Num),
                ],
                "bound",
            );
        } else {
            check_schema(
                &parsed["bound"],
                &[("kind", Ty::Str), ("reason", Ty::Str)],
                "bound",
            );
        }
        for evaluation in parsed["evaluations"].as_array().unwrap() {
            check_schema(evaluation, &outcome_fields, "evaluation");
        }
    }
}

#[test]
fn sample_complexity_point_mass_sits_on_the_target() {
    let parsed = json_of(&[
        "sample-complexity",
        "--class",
        "points:32",
        "--learner",
        "erm",
        "--epsilon",
        "1",
        "--alpha",
        "0.2",
        "--beta",
        "0.2",
        "--distribution",
        "point",
        "--trials",
        "10",
        "--seed",
        "1",
        "--json",
    ]);
    // The default target is the middle concept, 16, whose only positive point is 16.
    assert_eq!(parsed["target"], 16, "{parsed}");
    assert_eq!(
        parsed["distribution"],
        serde_json::json!({"kind": "point_mass", "point": 16, "mass": 0.4})
    );
}

#[test]
fn demo_json_schema() {
    let parsed = json_of(&["demo", "--seed", "3", "--json"]);
    check_schema(&parsed, &[("demo", Ty::Arr)], "demo");
    let sections = parsed["demo"].as_array().unwrap();
    let expected: [(&str, &[(&str, Ty)]); 12] = [
        (
            "exponential",
            &[
                ("scores", Ty::Arr),
                ("sensitivity", Ty::Num),
                ("columns", Ty::Arr),
                ("sample_epsilon", Ty::Num),
                ("sample", Ty::Int),
                ("guarantee", Ty::Privacy),
                ("guarantee_text", Ty::Str),
            ],
        ),
        (
            "count_weighted",
            &[
                ("epsilon", Ty::Num),
                ("levels", Ty::Arr),
                ("chosen_level", Ty::Int),
                ("chosen_offset", Ty::Int),
            ],
        ),
        (
            "counting",
            &[
                ("true_count", Ty::Int),
                ("releases", Ty::Arr),
                ("labels", Ty::Int),
                ("flip_epsilon", Ty::Num),
                ("labels_flipped", Ty::Int),
                ("expected_flipped", Ty::Num),
            ],
        ),
        (
            "selection",
            &[
                ("a_dist_guarantee", Ty::Privacy),
                ("a_dist_threshold", Ty::Int),
                ("clear_scores", Ty::Arr),
                ("clear_selected", Ty::IntOrNull),
                ("close_scores", Ty::Arr),
                ("close_selected", Ty::IntOrNull),
                ("sparse_vector_threshold", Ty::Int),
                ("stream", Ty::Arr),
                ("sparse_vector_first_above", Ty::IntOrNull),
            ],
        ),
        (
            "accounting",
            &[
                ("mechanisms", Ty::Int),
                ("each", Ty::Privacy),
                ("basic", Ty::Privacy),
                ("basic_text", Ty::Str),
                ("advanced_delta_prime", Ty::Num),
                ("advanced", Ty::Privacy),
                ("advanced_text", Ty::Str),
                ("optimal", Ty::Privacy),
                ("optimal_text", Ty::Str),
                ("pld", Ty::Privacy),
                ("pld_text", Ty::Str),
                ("tightest_rule", Ty::Str),
            ],
        ),
        ("dimensions", &[("classes", Ty::Arr)]),
        (
            "learning",
            &[
                ("trials", Ty::Int),
                ("alpha", Ty::Num),
                ("beta", Ty::Num),
                ("setups", Ty::Arr),
            ],
        ),
        (
            "prediction",
            &[
                ("class", Ty::Str),
                ("label_noise", Ty::Num),
                ("scenario", Ty::Str),
                ("trials", Ty::Int),
                ("flip_probability", Ty::Num),
                ("per_prediction_epsilon", Ty::Num),
                ("rows", Ty::Arr),
                ("generic_bound", Ty::Obj),
            ],
        ),
        (
            "sanitizing",
            &[
                ("class", Ty::Str),
                ("data_points", Ty::Int),
                ("results", Ty::Arr),
            ],
        ),
        (
            "multi_learning",
            &[
                ("class", Ty::Str),
                ("trials", Ty::Int),
                ("alpha", Ty::Num),
                ("beta", Ty::Num),
                ("ks", Ty::Arr),
                ("curves", Ty::Arr),
            ],
        ),
        (
            "attack",
            &[
                ("class", Ty::Str),
                ("users", Ty::Int),
                ("k", Ty::Int),
                ("trials", Ty::Int),
                ("rows", Ty::Arr),
            ],
        ),
        (
            "auditing",
            &[
                ("claimed_epsilon", Ty::Num),
                ("runs", Ty::Int),
                ("confidence", Ty::Num),
                ("rows", Ty::Arr),
            ],
        ),
    ];
    assert_eq!(sections.len(), expected.len());
    for (section, (name, fields)) in sections.iter().zip(expected) {
        assert_eq!(section["section"], name);
        let mut with_tag = fields.to_vec();
        with_tag.push(("section", Ty::Str));
        check_schema(section, &with_tag, name);
    }
    for row in sections[5]["classes"].as_array().unwrap() {
        assert_eq!(row["witnesses_verified"], true, "{row}");
    }
    // The learning setups are realizable: their bound is the realizable one, which
    // depends on ε where 4/ε > 8 (ε = 0.25) and is below the agnostic bound.
    for setup in sections[6]["setups"].as_array().unwrap() {
        assert_eq!(setup["scenario"], "realizable");
        let bounds: Vec<f64> = setup["bounds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                assert_eq!(b["bound"]["name"], "generic learner, realizable", "{b}");
                b["bound"]["sample_size"].as_f64().unwrap()
            })
            .collect();
        assert_eq!(bounds.len(), 3);
        assert!(bounds[0] > bounds[1], "{bounds:?}");
    }
    // The multi-learner section: the parity learner's n is flat in k, the pure direct
    // sum's grows (k = 1, 4, 16).
    let curves = sections[9]["curves"].as_array().unwrap();
    assert_eq!(curves.len(), 2);
    let sizes = |c: &Value| -> Vec<f64> {
        c["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["sample_size"].as_f64().unwrap())
            .collect()
    };
    let (parity, direct) = (sizes(&curves[0]), sizes(&curves[1]));
    assert!(parity[2] <= 1.5 * parity[0], "{parity:?}");
    assert!(direct[2] >= 4.0 * direct[0], "{direct:?}");
    assert!(
        curves[1]["fit"]["slope"].as_f64().unwrap() > 0.7,
        "{direct:?}"
    );
    // The attack traces every user of the non-private learner and none of the private one.
    let attack = sections[10]["rows"].as_array().unwrap();
    assert_eq!(attack[0]["traced"], sections[10]["trials"], "{attack:?}");
    assert_eq!(attack[1]["traced"], 0, "{attack:?}");
    assert_eq!(attack[1]["innocent_accused"], 0, "{attack:?}");
    // The auditor refutes exactly the broken mechanisms.
    for row in sections[11]["rows"].as_array().unwrap() {
        assert_eq!(row["refuted"], row["broken"], "{row}");
    }
    assert_eq!(sections[7]["scenario"], "agnostic");
    assert_eq!(
        sections[7]["generic_bound"]["name"],
        "generic learner, agnostic"
    );
}

#[test]
fn demo_text_calls_relabeling_accuracy_a_conjecture() {
    let text = stdout(&privpac(&["demo", "--seed", "2"]));
    assert!(text.contains("conjecture"), "{text}");
    assert!(text.contains("realizable"), "{text}");
    assert!(text.contains("checked"), "{text}");
    let help = stdout(&privpac(&["learn", "--help"]));
    assert!(help.contains("conjecture"), "{help}");
}
