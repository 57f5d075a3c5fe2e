//! `privpac account`: every rule's total equals the library accountant's for the same runs,
//! steps from a file equal the same steps on the command line, and every kind of bad input
//! is a one-line error.

use privpac_accounting::{Accountant, CompositionRule, PldStep};

use super::*;

/// The library's accountant for runs of `(step, count)`, recorded as the command does.
fn library(steps: &[(PldStep, u64)]) -> Accountant {
    let mut accountant = Accountant::new();
    for (index, &(step, count)) in steps.iter().enumerate() {
        for _ in 0..count {
            accountant
                .record_step(index.to_string(), step)
                .expect("valid steps");
        }
    }
    accountant
}

/// A rule's total in the command's JSON, as (ε, δ), or its error text.
fn rule_of(report: &Value, name: &str) -> Result<(f64, f64), String> {
    let rule = report["rules"]
        .as_array()
        .expect("rules is an array")
        .iter()
        .find(|r| r["rule"] == name)
        .unwrap_or_else(|| panic!("no rule {name} in {report}"));
    match rule["total"].as_object() {
        Some(total) => {
            assert!(rule["error"].is_null(), "{rule}");
            Ok((
                total["epsilon"].as_f64().expect("a number"),
                total["delta"].as_f64().expect("a number"),
            ))
        }
        None => Err(rule["error"].as_str().expect("an error text").to_string()),
    }
}

/// Runs `privpac account ARGS --json` and checks every number against the library's
/// accountant for the same runs: each rule's total (or its error text), the PLD's bounds at
/// `epsilon_error`, and the rule picked (the library's `tightest` when `epsilon_error` is
/// the default).
#[track_caller]
fn check_agrees(
    args: &[&str],
    steps: &[(PldStep, u64)],
    delta_prime: f64,
    epsilon_error: Option<f64>,
) -> Value {
    let mut all = vec!["account"];
    all.extend_from_slice(args);
    all.push("--json");
    let report = json_of(&all);
    let accountant = library(steps);
    let runs: u64 = steps.iter().map(|&(_, count)| count).sum();
    assert_eq!(report["runs"].as_u64(), Some(runs));
    assert_eq!(report["delta_prime"].as_f64(), Some(delta_prime));
    for rule in [
        CompositionRule::Basic,
        CompositionRule::Advanced { delta_prime },
        CompositionRule::Optimal { delta_prime },
    ] {
        let expected = accountant
            .total(rule)
            .map(|p| (p.epsilon(), p.delta()))
            .map_err(|e| e.to_string());
        assert_eq!(rule_of(&report, rule.name()), expected, "{args:?} {rule:?}");
    }
    let bounds = accountant
        .pld_bounds(delta_prime, epsilon_error)
        .expect("the PLD applies to these runs");
    assert_eq!(rule_of(&report, "pld"), Ok((bounds.upper, bounds.delta)));
    let json = &report["pld_bounds"];
    for (key, value) in [
        ("lower", bounds.lower),
        ("estimate", bounds.estimate),
        ("upper", bounds.upper),
        ("delta", bounds.delta),
        ("interval", bounds.interval),
    ] {
        assert_eq!(json[key].as_f64(), Some(value), "{args:?} {key}");
    }
    let asked = epsilon_error.unwrap_or(privpac_accounting::default_epsilon_error(bounds.lower));
    assert_eq!(json["epsilon_error"].as_f64(), Some(asked));
    if epsilon_error.is_none() {
        let pld = accountant
            .total(CompositionRule::Pld { delta_prime })
            .expect("the PLD applies");
        assert_eq!((pld.epsilon(), pld.delta()), (bounds.upper, bounds.delta));
        let (total, rule) = accountant
            .tightest(delta_prime)
            .expect("the library totals the runs");
        assert_eq!(report["picked"]["rule"], rule.name(), "{args:?}");
        let picked = &report["picked"]["total"];
        assert_eq!(picked["epsilon"].as_f64(), Some(total.epsilon()));
        assert_eq!(picked["delta"].as_f64(), Some(total.delta()));
    }
    report
}

#[test]
fn account_totals_equal_the_library_accountants() {
    // Equal pure steps: every rule applies.
    let pure = PldStep::private(Privacy::pure(0.05).unwrap());
    let report = check_agrees(
        &["--step", "eps-delta:0.05x200"],
        &[(pure, 200)],
        1e-6,
        None,
    );
    assert!(rule_of(&report, "optimal").is_ok());
    // A mixed list with subsampled discrete Laplace, bounded-range and (ε, δ) steps, at
    // another δ′: optimal composition does not apply (and says why), the PLD wins.
    let mixed = [
        (
            PldStep::discrete_laplace(2.0, 1)
                .unwrap()
                .poisson_subsampled(0.05)
                .unwrap(),
            40,
        ),
        (PldStep::bounded_range(0.2).unwrap(), 5),
        (PldStep::private(Privacy::new(0.1, 1e-7).unwrap()), 20),
        (
            PldStep::discrete_laplace(5.0, 3)
                .unwrap()
                .poisson_subsampled(0.5)
                .unwrap(),
            1,
        ),
    ];
    let report = check_agrees(
        &[
            "--step",
            "discrete-laplace:2@0.05x40",
            "--step",
            "bounded-range:0.2x5",
            "--step",
            "eps-delta:0.1,1e-7x20",
            "--step",
            "discrete-laplace:5,3@0.5",
            "--delta-prime",
            "1e-5",
        ],
        &mixed,
        1e-5,
        None,
    );
    let optimal = rule_of(&report, "optimal").unwrap_err();
    assert!(optimal.contains("same (epsilon, delta)"), "{optimal}");
    assert_eq!(report["picked"]["rule"], "pld");
    // Each step's own guarantee is the library's (amplified by subsampling).
    let steps = report["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 4);
    for (json, (step, count)) in steps.iter().zip(&mixed) {
        let each = step.privacy().unwrap();
        assert_eq!(
            json["guarantee_each"]["epsilon"].as_f64(),
            Some(each.epsilon())
        );
        assert_eq!(json["guarantee_each"]["delta"].as_f64(), Some(each.delta()));
        assert_eq!(json["count"].as_u64(), Some(*count));
        assert_eq!(json["rate"].as_f64(), Some(step.rate()));
    }
    assert_eq!(steps[3]["kind"], "discrete-laplace");
    assert_eq!(steps[3]["sensitivity"].as_u64(), Some(3));
    assert_eq!(steps[1]["kind"], "bounded-range");
    assert_eq!(steps[2]["delta"].as_f64(), Some(1e-7));
    // At a finer accuracy than the default: the library's bounds at that accuracy, the PLD's
    // total is their upper end, and the pick is the smallest ε printed.
    let report = check_agrees(
        &[
            "--step",
            "discrete-laplace:2@0.05x40",
            "--step",
            "eps-delta:0.1,1e-7x20",
            "--epsilon-error",
            "0.002",
        ],
        &[mixed[0], mixed[2]],
        1e-6,
        Some(0.002),
    );
    let bounds = &report["pld_bounds"];
    let lower = bounds["lower"].as_f64().unwrap();
    let upper = bounds["upper"].as_f64().unwrap();
    assert!(lower <= upper && upper - lower <= 0.002, "{bounds}");
    assert_eq!(report["picked"]["rule"], "pld");
    assert_eq!(report["picked"]["total"]["epsilon"].as_f64(), Some(upper));
    for rule in report["rules"].as_array().unwrap() {
        if let Some(epsilon) = rule["total"]["epsilon"].as_f64() {
            assert!(upper <= epsilon, "{rule}");
        }
    }
}

#[test]
fn account_picks_among_the_rules_that_apply_when_basic_is_vacuous() {
    // 200 runs at δ = 0.01: basic and advanced composition sum the δ past 1 and do not
    // apply (the library's `tightest` refuses the list); optimal composition and the PLD do.
    let report = json_of(&["account", "--step", "eps-delta:0.1,0.01x200", "--json"]);
    for rule in ["basic", "advanced"] {
        let error = rule_of(&report, rule).unwrap_err();
        assert!(error.contains("vacuous"), "{rule}: {error}");
    }
    let step = PldStep::private(Privacy::new(0.1, 0.01).unwrap());
    let accountant = library(&[(step, 200)]);
    assert!(accountant.tightest(1e-6).is_err());
    let optimal = accountant
        .total(CompositionRule::Optimal { delta_prime: 1e-6 })
        .unwrap();
    let pld = accountant
        .total(CompositionRule::Pld { delta_prime: 1e-6 })
        .unwrap();
    let (rule, best) = if pld.epsilon() < optimal.epsilon() {
        ("pld", pld)
    } else {
        ("optimal", optimal)
    };
    assert_eq!(report["picked"]["rule"], rule);
    assert_eq!(
        report["picked"]["total"]["epsilon"].as_f64(),
        Some(best.epsilon())
    );
}

#[test]
fn account_json_schema() {
    let report = json_of(&[
        "account",
        "--step",
        "eps-delta:0.1,1e-8x3",
        "--step",
        "bounded-range:0.3",
        "--step",
        "discrete-laplace:4@0.5x2",
        "--json",
    ]);
    check_schema(
        &report,
        &[
            ("delta_prime", Ty::Num),
            ("runs", Ty::Int),
            ("steps", Ty::Arr),
            ("rules", Ty::Arr),
            ("pld_bounds", Ty::Obj),
            ("picked", Ty::Obj),
        ],
        "account",
    );
    check_schema(
        &report["pld_bounds"],
        &[
            ("lower", Ty::Num),
            ("estimate", Ty::Num),
            ("upper", Ty::Num),
            ("delta", Ty::Num),
            ("interval", Ty::Num),
            ("epsilon_error", Ty::Num),
            ("lower_applies_to_mechanisms", Ty::Bool),
            ("limited_by", Ty::StrOrNull),
        ],
        "account pld_bounds",
    );
    // A bounded-range step among the steps: the lower end is the envelope pair's only.
    assert_eq!(report["pld_bounds"]["lower_applies_to_mechanisms"], false);
    let common = [
        ("spec", Ty::Str),
        ("kind", Ty::Str),
        ("rate", Ty::Num),
        ("count", Ty::Int),
        ("guarantee_each", Ty::Privacy),
    ];
    let kinds: [&[(&str, Ty)]; 3] = [
        &[("epsilon", Ty::Num), ("delta", Ty::Num)],
        &[("epsilon", Ty::Num)],
        &[("scale", Ty::Num), ("sensitivity", Ty::Int)],
    ];
    for (step, own) in report["steps"].as_array().unwrap().iter().zip(kinds) {
        let fields: Vec<(&str, Ty)> = common.iter().chain(own).copied().collect();
        check_schema(step, &fields, "account step");
    }
    let rules = report["rules"].as_array().unwrap();
    let names: Vec<&str> = rules.iter().map(|r| r["rule"].as_str().unwrap()).collect();
    assert_eq!(names, ["basic", "advanced", "optimal", "pld"]);
    for rule in rules {
        // Either a total (and a null error) or an error text (and a null total).
        let (total, error) = if rule["total"].is_null() {
            (Ty::ObjOrNull, Ty::Str)
        } else {
            (Ty::Privacy, Ty::ObjOrNull)
        };
        check_schema(
            rule,
            &[("rule", Ty::Str), ("total", total), ("error", error)],
            "account rule",
        );
        assert!(rule["total"].is_null() != rule["error"].is_null(), "{rule}");
    }
    check_schema(
        &report["picked"],
        &[("rule", Ty::Str), ("total", Ty::Privacy)],
        "account picked",
    );
}

#[test]
fn account_text_names_every_rule_and_the_pick() {
    let output = privpac(&[
        "account",
        "--step",
        "eps-delta:0.1,1e-8x10",
        "--step",
        "bounded-range:0.1x10",
    ]);
    assert!(output.status.success());
    let text = stdout(&output);
    for needle in [
        "| basic",
        "| advanced",
        "| optimal",
        "| pld",
        "does not apply: optimal composition needs every run",
        "20 runs, slack delta' = 1e-6",
        "picked: pld (",
        "the smallest epsilon among the rules at slack delta' = 1e-6 (each at its own total delta)",
        "no slack: basic (",
        "pld bounds: epsilon in [",
        "| eps-delta:0.1,1e-8x10",
    ] {
        assert!(text.contains(needle), "missing {needle:?}: {text}");
    }
}

#[test]
fn account_steps_from_a_file_equal_the_same_steps_given_inline() {
    let file = data_file(
        "account-steps.txt",
        "# a comment line\n\ndiscrete-laplace:2@0.05x30  # subsampled counts\n  bounded-range:0.2x4\n",
    );
    let from_file = json_of(&[
        "account",
        "--file",
        file.to_str().unwrap(),
        "--step",
        "eps-delta:0.1x3",
        "--json",
    ]);
    let inline = json_of(&[
        "account",
        "--step",
        "discrete-laplace:2@0.05x30",
        "--step",
        "bounded-range:0.2x4",
        "--step",
        "eps-delta:0.1x3",
        "--json",
    ]);
    assert_eq!(from_file, inline);
    let bad = data_file(
        "account-bad.txt",
        "eps-delta:0.1\n\n# fine so far\nlaplace:1\n",
    );
    check_error(
        &["account", "--file", bad.to_str().unwrap()],
        "account-bad.txt line 4: unknown kind \"laplace\"",
    );
    let missing = std::env::temp_dir().join("privpac-account-no-such-file.txt");
    check_error(
        &["account", "--file", missing.to_str().unwrap()],
        "privpac-account-no-such-file.txt",
    );
}

#[test]
fn account_bad_input_is_a_one_line_error() {
    let cases: [(&[&str], &str); 28] = [
        (
            &["--step", "gaussian:1"],
            "unknown kind \"gaussian\" (known: eps-delta",
        ),
        (
            &["--step", "eps-delta"],
            "expected KIND:PARAMS[@RATE][xCOUNT]",
        ),
        (&["--step", "eps-delta:1@0"], "rate 0 is outside (0, 1]"),
        (&["--step", "eps-delta:1@1.5"], "rate 1.5 is outside (0, 1]"),
        (
            &["--step", "eps-delta:1@-0.1"],
            "rate -0.1 is outside (0, 1]",
        ),
        (
            &["--step", "eps-delta:1@NaN"],
            "rate \"NaN\" is not a finite number",
        ),
        (
            &["--step", "eps-delta:1@half"],
            "rate \"half\" is not a number",
        ),
        (&["--step", "eps-delta:1x0"], "count must be at least 1"),
        (
            &["--step", "eps-delta:1x1000001"],
            "above the limit of 1000000 runs",
        ),
        (
            &["--step", "eps-delta:1x-3"],
            "count \"-3\" is not a positive integer",
        ),
        (
            &["--step", "eps-delta:1xten"],
            "count \"ten\" is not a positive integer",
        ),
        (
            &[
                "--step",
                "eps-delta:1x600000",
                "--step",
                "eps-delta:1x600000",
            ],
            "the steps' counts sum to more than 1000000 runs",
        ),
        (
            &["--step", "eps-delta:1..0"],
            "epsilon \"1..0\" is not a number",
        ),
        (
            &["--step", "eps-delta:inf"],
            "epsilon \"inf\" is not a finite number",
        ),
        (&["--step", "eps-delta:-1"], "epsilon"),
        (&["--step", "eps-delta:1,1"], "delta"),
        (
            &["--step", "eps-delta:1,0,3"],
            "eps-delta takes EPS[,DELTA]",
        ),
        (&["--step", "bounded-range:0"], "epsilon"),
        (&["--step", "bounded-range:1,2"], "bounded-range takes EPS"),
        (&["--step", "discrete-laplace:0"], "scale"),
        (&["--step", "discrete-laplace:1,0"], "sensitivity"),
        (
            &["--step", "discrete-laplace:1,1.5"],
            "sensitivity \"1.5\" is not a positive integer",
        ),
        (&[], "no steps"),
        (
            &["--step", "eps-delta:1", "--delta-prime", "-0.1"],
            "--delta-prime (-0.1) must be at least 0 and below 1",
        ),
        (
            &["--step", "eps-delta:1", "--delta-prime", "1"],
            "--delta-prime (1) must be at least 0 and below 1",
        ),
        (
            &["--step", "eps-delta:1", "--epsilon-error", "0"],
            "--epsilon-error (0) must be finite and positive",
        ),
        (
            &["--step", "eps-delta:1", "--epsilon-error", "-0.1"],
            "--epsilon-error (-0.1) must be finite and positive",
        ),
        (
            &["--step", "eps-delta:1", "--epsilon-error", "inf"],
            "--epsilon-error (inf) must be finite and positive",
        ),
    ];
    for (args, needle) in cases {
        let mut all = vec!["account"];
        all.extend_from_slice(args);
        check_error(&all, needle);
    }
}

/// `--delta-prime 0` asks the pure question: basic, optimal and PLD composition at δ′ = 0
/// (the library's totals), the advanced rule reported as not applicable, the pick among
/// the three. It was refused before, and then the PLD was not applicable (issue 37 §6).
#[test]
fn account_at_zero_slack_answers_the_pure_question() {
    let step = PldStep::private(Privacy::pure(0.1).unwrap());
    let report = json_of(&[
        "account",
        "--step",
        "eps-delta:0.1x30",
        "--delta-prime",
        "0",
        "--json",
    ]);
    assert_eq!(report["delta_prime"].as_f64(), Some(0.0));
    let error = rule_of(&report, "advanced").unwrap_err();
    assert!(
        error.contains("needs a slack delta' > 0 (not applicable at delta' = 0)"),
        "{error}"
    );
    let accountant = library(&[(step, 30)]);
    let basic = accountant.total(CompositionRule::Basic).unwrap();
    let optimal = accountant
        .total(CompositionRule::Optimal { delta_prime: 0.0 })
        .unwrap();
    let pld = accountant
        .total(CompositionRule::Pld { delta_prime: 0.0 })
        .unwrap();
    assert_eq!(rule_of(&report, "basic"), Ok((basic.epsilon(), 0.0)));
    assert_eq!(
        rule_of(&report, "optimal"),
        Ok((optimal.epsilon(), optimal.delta()))
    );
    assert_eq!(rule_of(&report, "pld"), Ok((pld.epsilon(), 0.0)));
    assert!(
        pld.epsilon() >= 3.0 && pld.epsilon() < 3.0 + 1e-9,
        "{pld:?}"
    );
    let lower = report["pld_bounds"]["lower"].as_f64().unwrap();
    assert!(lower > 3.0 - 1e-9 && lower <= 3.0, "{report}");
    assert_eq!(optimal.delta(), 0.0);
    let picked = report["picked"]["total"]["epsilon"].as_f64().unwrap();
    assert_eq!(
        picked,
        basic.epsilon().min(optimal.epsilon()).min(pld.epsilon())
    );
    let output = privpac(&[
        "account",
        "--step",
        "eps-delta:0.1x30",
        "--delta-prime",
        "0",
    ]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("30 runs, slack delta' = 0\n"), "{text}");
    assert!(text.contains("closed form"), "{text}");
    assert!(
        text.contains(&format!("no slack: basic {basic}\n")),
        "{text}"
    );
}

/// An exact ε of 0 is answered by the PLD (it said "epsilon must be finite and > 0, got 0"),
/// and no number prints as a 300-digit decimal (optimal composition's smallest positive ε
/// did) (issue 37 §3, §6).
#[test]
fn account_answers_an_exact_epsilon_of_zero_in_short_numbers() {
    let report = json_of(&[
        "account",
        "--step",
        "eps-delta:1x10",
        "--delta-prime",
        "0.999999",
        "--json",
    ]);
    assert_eq!(
        rule_of(&report, "pld"),
        Ok((
            f64::from_bits(1),
            report["pld_bounds"]["delta"].as_f64().unwrap()
        ))
    );
    assert_eq!(report["pld_bounds"]["upper"].as_f64(), Some(0.0));
    let text = stdout(&privpac(&[
        "account",
        "--step",
        "eps-delta:1x10",
        "--delta-prime",
        "0.999999",
    ]));
    assert!(text.contains("5e-324"), "{text}");
    assert!(
        text.lines().all(|l| !l.contains("0.0000000000000000")),
        "{text}"
    );
}

/// Accuracy misses name their true cause, and one (ε, δ) step repeated at ε = 50 (whose
/// lower bound was 0) is bounded on both sides (issue 37 §6).
#[test]
fn account_names_what_limited_the_accuracy() {
    let report = json_of(&[
        "account",
        "--step",
        "eps-delta:50",
        "--delta-prime",
        "1e-10",
        "--json",
    ]);
    let lower = report["pld_bounds"]["lower"].as_f64().unwrap();
    assert!(lower > 49.9, "{report}");
    assert!(report["pld_bounds"]["limited_by"].is_null(), "{report}");
    let text = stdout(&privpac(&[
        "account",
        "--step",
        "eps-delta:50",
        "--step",
        "eps-delta:49",
        "--delta-prime",
        "1e-10",
    ]));
    if text.contains("the gap is above the accuracy asked for") {
        assert!(text.contains("largest loss is above 36"), "{text}");
    }
}

/// Mixed (ε, δ) steps at δ′ near 1 (`eps-delta:45` and `eps-delta:44`, which gave [0, 88.99]
/// with the cause named) are bounded on both sides: the exact ε solves
/// `p₀(1 − e^{ε − 89}) = δ′` with `p₀ = 1/((1 + e^{−45})(1 + e^{−44}))` (the other sign
/// patterns' losses, 1 and below, are far under ε) (issue 37 §6).
#[test]
fn account_bounds_mixed_steps_near_delta_one() {
    let report = json_of(&[
        "account",
        "--step",
        "eps-delta:45",
        "--step",
        "eps-delta:44",
        "--delta-prime",
        "0.999999",
        "--json",
    ]);
    let bounds = &report["pld_bounds"];
    let (lower, upper) = (
        bounds["lower"].as_f64().unwrap(),
        bounds["upper"].as_f64().unwrap(),
    );
    let p0 = 1.0 / ((1.0 + (-45f64).exp()) * (1.0 + (-44f64).exp()));
    let exact = 89.0 + (1.0 - 0.999999 / p0).ln();
    assert!(
        lower <= exact + 1e-5 && exact - 1e-5 <= upper && upper - lower <= 0.01 * exact,
        "{report} vs {exact}"
    );
    assert!(bounds["limited_by"].is_null(), "{report}");
}

/// A long list prints grouped steps (identical steps as one row, counts summed), not one
/// row per line; the JSON keeps every step (issue 37 §3).
#[test]
fn account_summarizes_long_step_lists() {
    let mut lines = String::new();
    for i in 0..3000 {
        lines.push_str(if i % 3 == 0 {
            "eps-delta:0.01\n"
        } else {
            "discrete-laplace:20@0.5\n"
        });
    }
    for i in 0..30 {
        lines.push_str(&format!("eps-delta:0.0{}\n", i + 11));
    }
    let path = data_file("account-long.txt", &lines);
    let text = stdout(&privpac(&["account", "--file", path.to_str().unwrap()]));
    let rows = text
        .lines()
        .filter(|l| l.starts_with("| eps-delta") || l.starts_with("| discrete"))
        .count();
    assert_eq!(rows, 20, "{text}");
    assert!(
        text.contains("| eps-delta:0.01          |    1 |  1000 |"),
        "{text}"
    );
    assert!(text.contains("|  2000 |"), "{text}");
    assert!(
        text.contains("... and 12 more distinct steps (12 runs"),
        "{text}"
    );
    assert!(text.contains("3030 runs"), "{text}");
    let report = json_of(&["account", "--file", path.to_str().unwrap(), "--json"]);
    assert_eq!(report["steps"].as_array().unwrap().len(), 3030);
}

/// The text rounds each total up to six significant digits (the JSON keeps every digit):
/// 30 runs of ε = 0.1 sum to 3.0000000000000013 (rounded up), which reads 3.00001.
#[test]
fn account_text_rounds_totals_up() {
    let report = json_of(&["account", "--step", "eps-delta:0.1x30", "--json"]);
    let basic = rule_of(&report, "basic").unwrap().0;
    assert!(basic > 3.0 && basic.to_string().len() > 8, "{basic}");
    let output = privpac(&["account", "--step", "eps-delta:0.1x30"]);
    let text = stdout(&output);
    let rounded = privpac_accounting::RoundedUp(basic).to_string();
    assert!(rounded.len() <= 8 && rounded.parse::<f64>().unwrap() >= basic);
    assert!(text.contains(&format!("| {rounded} ")), "{text}");
    assert!(!text.contains(&basic.to_string()), "{text}");
}

/// Two 1-bounded-range steps: the PLD's lower end is its envelope pair's, which no
/// bounded-range mechanism attains, and the output says so (text and JSON); (ε, δ) and
/// discrete Laplace steps keep a lower bound that applies to the mechanisms.
#[test]
fn account_says_when_the_lower_bound_is_the_envelopes_only() {
    let text = stdout(&privpac(&[
        "account",
        "--step",
        "bounded-range:1x2",
        "--delta-prime",
        "1e-3",
    ]));
    assert!(
        text.contains("it is not a lower bound for the mechanisms"),
        "{text}"
    );
    let report = json_of(&[
        "account",
        "--step",
        "bounded-range:1x2",
        "--delta-prime",
        "1e-3",
        "--json",
    ]);
    assert_eq!(report["pld_bounds"]["lower_applies_to_mechanisms"], false);
    let plain = json_of(&[
        "account",
        "--step",
        "eps-delta:0.1,1e-8x3",
        "--step",
        "discrete-laplace:4@0.5x2",
        "--json",
    ]);
    assert_eq!(plain["pld_bounds"]["lower_applies_to_mechanisms"], true);
    let plain_text = stdout(&privpac(&["account", "--step", "eps-delta:0.1,1e-8x3"]));
    assert!(!plain_text.contains("not a lower bound"), "{plain_text}");
}
