"""Tests of the lab bindings: sample complexity and trials against the CLI's JSON, curves,
the experiment work units (run one by one, merged, written) against ``privpac experiment``,
and the error classes.

The CLI comparisons run the ``privpac`` binary of the ``cli_binary`` fixture (conftest.py:
``$PRIVPAC_CLI``, else built with cargo), so they never skip.
"""

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

import privpac
import privpac.experiment as experiment
from privpac.errors import BadInputError, InvalidParameterError, PrivpacError, TooLargeError


@pytest.fixture
def cli(cli_binary):
    """Runs the CLI with the given arguments and returns its standard output (the test
    fails on a non-zero status)."""

    def run(*args):
        done = subprocess.run(
            [str(cli_binary), *map(str, args)], capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


SC_CASES = [
    # (class, learner, epsilon, alpha, beta, seed, extra keyword arguments)
    ("thresholds:256", "generic", 1.0, 0.1, 0.1, 2, {"trials": 40}),
    ("points:32", "erm", 1.0, 0.2, 0.2, 1, {"trials": 10, "distribution": "point"}),
    ("thresholds:64", "relabeling", 1.0, 0.2, 0.2, 4, {"trials": 20}),
    ("thresholds:64", "generic", 2.0, 0.2, 0.2, 5, {"trials": 20, "label_noise": 0.05}),
    # An (ε, δ) learner: delta= is the CLI's --delta.
    ("points:32", "sanitizer:point", 1.0, 0.2, 0.2, 1,
     {"trials": 10, "distribution": "point", "delta": 1e-6}),
]


def cli_args(cls, learner, epsilon, alpha, beta, seed, extra):
    """The `privpac sample-complexity` arguments of one case."""
    args = ["sample-complexity", "--class", cls, "--learner", learner,
            "--epsilon", repr(epsilon), "--alpha", repr(alpha), "--beta", repr(beta),
            "--seed", str(seed), "--json"]
    for key, value in extra.items():
        args += ["--" + key.replace("_", "-"), str(value)]
    return args


@pytest.mark.parametrize("case", SC_CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_sample_complexity_is_the_cli_json(cli, case):
    cls, learner, epsilon, alpha, beta, seed, extra = case
    report = privpac.sample_complexity(
        cls, learner, epsilon=epsilon, alpha=alpha, beta=beta, seed=seed, **extra
    )
    expected = json.loads(cli(*cli_args(*case)))
    assert report == expected
    # And the report is meaningful: the success rate at the size found reaches 1 - β.
    assert report["success_rate"] >= 1 - beta
    assert report["evaluations"][-1]["sample_size"] > 0


def test_sample_complexity_is_deterministic_and_depends_on_the_seed():
    kwargs = dict(epsilon=1.0, alpha=0.2, beta=0.2, trials=20)
    a = privpac.sample_complexity("thresholds:64", "generic", seed=7, **kwargs)
    b = privpac.sample_complexity("thresholds:64", "generic", seed=7, **kwargs)
    c = privpac.sample_complexity("thresholds:64", "generic", seed=8, **kwargs)
    assert a == b
    assert a["evaluations"] != c["evaluations"]
    # The generic learner's realizable bound has explicit constants and holds here.
    assert a["bound"]["kind"] == "explicit"
    assert a["empirical_sample_size"] <= a["bound"]["sample_size"]
    assert a["guarantee"]["kind"] == "differential_privacy"


def test_run_trials_is_the_search_evaluation_at_that_size():
    kwargs = dict(epsilon=1.0, alpha=0.2, beta=0.2, seed=3, trials=20)
    # stable is not private: its exponential mechanism's ε is em_epsilon, not a target.
    stable = dict(kwargs, epsilon=None, em_epsilon=1.0)
    report = privpac.sample_complexity("thresholds:64", "stable", **stable)
    assert len(report["evaluations"]) >= 2
    for evaluation in report["evaluations"]:
        outcome = privpac.run_trials(
            "thresholds:64", "stable", evaluation["sample_size"], **stable
        )
        assert outcome == evaluation
    # More data helps: the largest size tried does at least as well as 4 examples.
    few = privpac.run_trials("thresholds:64", "generic", 4, **kwargs)
    many = privpac.run_trials("thresholds:64", "generic", 400, **kwargs)
    assert 0 <= few["successes"] <= many["successes"] == 20
    assert many["mean_error"] < few["mean_error"]


def test_sample_complexity_curve_is_one_report_per_epsilon():
    epsilons = [0.5, 2.0]
    kwargs = dict(alpha=0.2, beta=0.2, seed=1, trials=20)
    # Point mass on the target: under the uniform distribution on points:64 the all-zero
    # hypothesis errs 1/64 < α and the scenario is trivial (see below).
    kwargs["distribution"] = "point"
    curve = privpac.sample_complexity_curve("points:64", "generic", epsilons, **kwargs)
    assert curve["epsilon"].dtype == np.float64 and curve["sample_size"].dtype == np.float64
    np.testing.assert_array_equal(curve["epsilon"], epsilons)
    for i, epsilon in enumerate(epsilons):
        single = privpac.sample_complexity("points:64", "generic", epsilon=epsilon, **kwargs)
        assert curve["reports"][i] == single
        assert curve["sample_size"][i] == single["empirical_sample_size"]
        assert curve["success_rate"][i] == single["success_rate"]
        assert curve["bound"][i] == single["bound"]["sample_size"]
    # A learner without explicit constants has NaN bounds.
    relabel = privpac.sample_complexity_curve("thresholds:32", "relabeling", [1.0], **kwargs)
    assert np.isnan(relabel["bound"][0])
    # A trivial scenario is not searched: NaN size and rate, the report says why.
    kwargs["distribution"] = "uniform"
    trivial = privpac.sample_complexity_curve("points:64", "generic", [1.0], **kwargs)
    assert np.isnan(trivial["sample_size"][0]) and np.isnan(trivial["success_rate"][0])
    report = trivial["reports"][0]
    assert report["trivial"]["hypothesis"] == "all zeros"
    assert report["empirical_sample_size"] is None and report["evaluations"] == []


def test_agnostic_sample_complexity_measures_excess_error():
    # OPT = 0.1 > α = 0.05: success means true error at most OPT + α.
    report = privpac.sample_complexity(
        "thresholds:1024", "generic", epsilon=3.0, alpha=0.05, beta=0.1, seed=1,
        label_noise=0.1, trials=30, max_size=1 << 14,
    )
    assert report["scenario"] == "agnostic" and report["opt"] == 0.1
    assert report["success_rate"] >= 0.9
    at_n = [e for e in report["evaluations"] if e["sample_size"] == report["empirical_sample_size"]]
    assert at_n[0]["mean_error"] > 0.1


def test_sample_complexity_takes_delta_for_approximate_dp_learners():
    """delta= is the (ε, δ) target of an approximate-DP learner, as the CLI's --delta: the
    guarantee reported is within it; without it (δ = 0) such a learner refuses to run, and
    a pure learner refuses δ > 0, with the CLI's messages."""
    kwargs = dict(epsilon=1.0, alpha=0.2, beta=0.2, seed=1, trials=10, distribution="point")
    report = privpac.sample_complexity("points:32", "sanitizer:point", delta=1e-6, **kwargs)
    guarantee = report["guarantee"]
    assert guarantee["kind"] == "differential_privacy"
    assert 0 < guarantee["delta"] <= 1e-6 and guarantee["epsilon"] <= 1.0
    with pytest.raises(PrivpacError, match="delta > 0"):
        privpac.sample_complexity("points:32", "sanitizer:point", **kwargs)
    with pytest.raises(PrivpacError, match="δ must be 0"):
        privpac.sample_complexity("points:32", "generic", delta=1e-6, **kwargs)
    # A Python learner claims its own guarantee: delta= is refused for it.
    with pytest.raises(InvalidParameterError, match="delta"):
        privpac.sample_complexity(
            "points:32", lambda points, labels, seed: 0, delta=1e-6,
            guarantee=privpac.Privacy(1.0, 1e-6),
            **{k: v for k, v in kwargs.items() if k != "epsilon"},
        )


def test_a_defaulted_flip_outside_the_range_names_the_default_rule():
    """flip_probability=None defaults to alpha/2; at alpha = 1 that is 0.5, outside (0, 1/2),
    and the learner's error says the flip defaulted to alpha/2 and what to pass (not just
    "got 0.5"); sample_complexity, whose alpha must be below 1, names alpha itself."""
    c = privpac.ConceptClass.from_spec("thresholds:64")
    for spec in ("private-prediction", "dagan-feldman"):
        with pytest.raises(InvalidParameterError, match="defaulted to α/2") as caught:
            privpac.Learner(spec, epsilon=1.0, alpha=1.0).guarantee(c, 20_000)
        assert "flip_probability" in str(caught.value)
        g = privpac.Learner(spec, epsilon=1.0, alpha=1.0,
                            flip_probability=0.25).guarantee(c, 20_000)
        assert g.kind == "per-prediction"
    with pytest.raises(InvalidParameterError, match=r"alpha must be in \(0, 1\), got 1"):
        privpac.sample_complexity("thresholds:64", "private-prediction", epsilon=1.0,
                                  alpha=1.0, beta=0.2, seed=1, trials=5)


def test_lab_errors_are_typed():
    base = dict(epsilon=1.0, alpha=0.1, beta=0.1, seed=1)
    with pytest.raises(InvalidParameterError, match="unknown learner"):
        privpac.sample_complexity("thresholds:8", "nope", **base)
    with pytest.raises(InvalidParameterError, match="beta"):
        privpac.sample_complexity("thresholds:8", "generic", **{**base, "beta": 1.5})
    with pytest.raises(InvalidParameterError, match="distribution"):
        privpac.sample_complexity("thresholds:8", "generic", distribution="cauchy", **base)
    with pytest.raises(InvalidParameterError):
        privpac.sample_complexity("nope:8", "generic", **base)
    with pytest.raises(TooLargeError, match="trials"):
        privpac.sample_complexity("thresholds:8", "generic", trials=10**12, **base)
    with pytest.raises(PrivpacError, match="no sample size up to 8"):
        privpac.sample_complexity("thresholds:1024", "generic", max_size=8, **base)
    with pytest.raises(TooLargeError):
        privpac.run_trials("thresholds:8", "generic", 10**15, **base)
    # Seeds outside [0, 2^64 - 1] are invalid parameters (they were a bare OverflowError).
    for seed in (-1, 2**64):
        with pytest.raises(InvalidParameterError, match=r"seed must be an integer in \[0, 2\^64 - 1\]"):
            privpac.sample_complexity("thresholds:8", "generic", **{**base, "seed": seed})
        with pytest.raises(InvalidParameterError, match="seed"):
            experiment.run_unit("online-mistakes", "tiny", seed, 0)
    with pytest.raises(TypeError):
        privpac.sample_complexity("thresholds:8", "generic", **{**base, "seed": "one"})


def all_units(name, scale, seed):
    """Every record of an experiment, run one by one in this process."""
    return [
        experiment.run_unit(name, scale, seed, unit)
        for unit in range(len(experiment.units(name, scale)))
    ]


def test_experiment_units_records_and_merge():
    names = [e["name"] for e in experiment.names()]
    assert "online-mistakes" in names and "sample-complexity" in names
    units = experiment.units("online-mistakes", "tiny")
    records = all_units("online-mistakes", "tiny", 1)
    assert len(records) == len(units) >= 2
    for i, (unit, record) in enumerate(zip(units, records)):
        assert record["experiment"] == "online-mistakes" and record["unit"] == i
        assert record["scale"] == "tiny" and record["seed"] == 1
        for key, value in unit.items():
            assert record["row"][key] == value
        assert record["row"]["mistakes"] <= record["row"]["littlestone_dimension"] or (
            unit["learner"] == "halving"
        )
    rows = experiment.merge(records)
    assert rows == [r["row"] for r in records]
    # Order does not matter; agreeing duplicates are accepted.
    assert experiment.merge(list(reversed(records)) + records[:1]) == rows
    # The master seed reaches the unit's trials.
    a = experiment.run_unit("sample-complexity", "tiny", 1, 0)
    b = experiment.run_unit("sample-complexity", "tiny", 2, 0)
    assert a["seed"] == 1 and b["seed"] == 2
    assert (a["row"]["sample_size"], a["row"]["mean_error"]) != (
        b["row"]["sample_size"], b["row"]["mean_error"])


def test_experiment_merge_errors_are_typed():
    records = all_units("online-mistakes", "tiny", 1)
    with pytest.raises(BadInputError, match="missing"):
        experiment.merge(records[1:])
    changed = json.loads(json.dumps(records[0]))
    changed["row"]["mistakes"] = 999
    with pytest.raises(BadInputError, match="different results"):
        experiment.merge(records + [changed])
    with pytest.raises(BadInputError, match="cannot be combined"):
        experiment.merge(records, seed=2)
    with pytest.raises(BadInputError):
        experiment.merge([{"not": "a record"}])
    with pytest.raises(BadInputError, match="no records"):
        experiment.merge([])
    with pytest.raises(InvalidParameterError, match="unknown scale"):
        experiment.units("online-mistakes", "huge")
    with pytest.raises(InvalidParameterError, match="unknown experiment"):
        experiment.run_unit("nope", "tiny", 1, 0)
    with pytest.raises(InvalidParameterError, match="does not exist"):
        experiment.run_unit("online-mistakes", "tiny", 1, len(records))


def output_files(directory, names):
    """{file name: bytes} of the named files in a directory."""
    return {name: (Path(directory) / name).read_bytes() for name in names}


@pytest.mark.parametrize("name", ["online-mistakes", "sample-complexity"])
def test_experiment_outputs_are_the_cli_bytes(cli, tmp_path, name):
    rows = experiment.merge(all_units(name, "tiny", 3))
    written = experiment.write_outputs(name, "tiny", 3, rows, tmp_path / "py")
    files = sorted(Path(p).name for p in written)
    assert "results.csv" in files and "README.md" in files
    assert any(f.endswith(".svg") for f in files)
    cli("experiment", name, "--scale", "tiny", "--seed", "3", "--out", str(tmp_path / "cli"))
    assert output_files(tmp_path / "py", files) == output_files(tmp_path / "cli", files)
    # The CLI's results file holds exactly the records run_unit returns.
    lines = (tmp_path / "cli" / "units-tiny.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == all_units(name, "tiny", 3)


def test_sample_complexity_curve_example(tmp_path):
    """The example's numbers (matplotlib is only needed for its plot, tested when present)."""
    import runpy

    example = Path(__file__).resolve().parents[3] / "examples" / "python" / "sample_complexity_curve.py"
    module = runpy.run_path(str(example))
    result = module["curve"](trials=20)
    assert list(result["epsilon"]) == module["EPSILONS"]
    # Every measured size is below the generic learner's bound, and smaller ε needs more data.
    assert (result["sample_size"] <= result["bound"]).all()
    assert result["sample_size"][0] > result["sample_size"][-1]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    module["main"](str(tmp_path / "curve.png"))
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


BROKEN_FULL = """name = "py-broken-full"
seed = 4
learners = ["generic"]
beta = 0.2
search = { start = 2, max_size = 4096 }
figures = ["epsilon"]
classes = ["thresholds:16"]
trials = 4

[[grid]]
name = "epsilon"
epsilon = [1.0, 2.0]
alpha = [0.2]

[scale.full]
trials = 0
"""


def test_a_file_whose_full_level_is_broken_runs_at_the_tiny_scale(tmp_path):
    # As `privpac experiment run FILE --scale tiny`: only the level that runs is checked,
    # and an error names the scale it is in.
    path = str(tmp_path / "broken-full.toml")
    Path(path).write_text(BROKEN_FULL)
    units = experiment.units(path, "tiny")
    assert len(units) == 2
    assert experiment.default_seed(path) == 4
    records = [experiment.run_unit(path, "tiny", 4, unit) for unit in range(len(units))]
    rows = experiment.merge(records, path)
    assert len(rows) == 2
    with pytest.raises(InvalidParameterError, match="in the full scale: "):
        experiment.units(path, "full")
