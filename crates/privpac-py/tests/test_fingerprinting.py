"""privpac.fingerprinting_attack (Bun–Nissim–Stemmer §4, `privpac attack`) and
privpac.section_1_3_tables (the §1.3 tables with their exponents of k)."""

import pytest

import privpac

# Boneh–Shaw for n = 4 users at xi = 0.1: (n + 1)(floor(4n^2 ln(2n/xi)) + 1) = 5 * 281.
BONEH_SHAW_4 = 1405


def _without_guarantee(report):
    return {key: value for key, value in report.items() if key not in ("guarantee", "guarantee_text")}


@pytest.mark.parametrize(
    "learner, cli_args",
    [
        ("erm", ["--learner", "erm"]),
        (privpac.MultiLearner("direct-sum", 1.0), ["--learner", "direct-sum", "--epsilon", "1"]),
    ],
)
def test_attack_matches_the_cli(cli, learner, cli_args):
    report = privpac.fingerprinting_attack(
        learner, "thresholds:64", BONEH_SHAW_4, 4, trials=30, seed=3
    )
    expected = cli(
        "attack", *cli_args, "--class", "thresholds:64", "--k", BONEH_SHAW_4, "--n", 4,
        "--trials", 30, "--seed", 3,
    )
    assert _without_guarantee(report) == _without_guarantee(expected)
    assert str(report["guarantee"]) == expected["guarantee_text"]
    assert report["guarantee"].epsilon == expected["guarantee"].get("epsilon")


def test_erm_is_traced_and_a_private_learner_is_not():
    erm = privpac.fingerprinting_attack("erm", "thresholds:64", BONEH_SHAW_4, 4, trials=50, seed=1)
    # Every pirate word of ERM is feasible and traced; no innocent user is accused.
    assert erm["completeness"] == 1.0
    assert erm["innocent_accused"] == 0
    assert erm["claimed_epsilon"] is None and erm["guarantee"].kind == "none"
    assert erm["epsilon_lower_bound"] > 1.0
    private = privpac.fingerprinting_attack(
        privpac.MultiLearner("direct-sum", 1.0), "thresholds:64", BONEH_SHAW_4, 4,
        trials=50, seed=1,
    )
    assert private["claimed_epsilon"] == 1.0
    assert not private["refutes_claim"]
    bound = private["epsilon_lower_bound"]
    assert bound is None or bound <= 1.0


def test_tardos_and_padding():
    report = privpac.fingerprinting_attack(
        "erm", "points:64", 6400, 3, code="tardos", trials=10, seed=2
    )
    assert report["code"] == "tardos" and report["code_length"] == 6400
    padded = privpac.fingerprinting_attack(
        "erm", "thresholds:64", BONEH_SHAW_4, 4, trials=5, padding=0.25, seed=2
    )
    # ceil(4 / 0.75) - 4 junk rows.
    assert padded["padding_rows"] == 2 and padded["examples"] == 6


def test_attack_errors():
    with pytest.raises(privpac.InvalidParameterError, match="k >= 1405"):
        privpac.fingerprinting_attack("erm", "thresholds:64", 10, 4, trials=5, seed=1)
    with pytest.raises(privpac.InvalidParameterError, match="code must be"):
        privpac.fingerprinting_attack("erm", "thresholds:64", BONEH_SHAW_4, 4, code="x", seed=1)
    with pytest.raises(privpac.InvalidParameterError, match="learner must be"):
        privpac.fingerprinting_attack("generic", "thresholds:64", BONEH_SHAW_4, 4, seed=1)
    with pytest.raises(privpac.InvalidParameterError):
        privpac.fingerprinting_attack("erm", "thresholds:64", BONEH_SHAW_4, 4, xi=1.5, seed=1)
    with pytest.raises(privpac.InvalidParameterError):
        privpac.fingerprinting_attack("erm", "thresholds:64", BONEH_SHAW_4, 4, padding=0.5, seed=1)
    with pytest.raises(privpac.TooLargeError):
        privpac.fingerprinting_attack("erm", "thresholds:64", BONEH_SHAW_4, 4, trials=10**7, seed=1)


def test_section_1_3_tables():
    rows = privpac.section_1_3_tables()
    keys = {"privacy", "kind", "class", "agnostic", "proper", "bound", "k_exponent", "reference"}
    assert rows and all(set(row) == keys for row in rows)

    def find(**where):
        found = [r for r in rows if all(r[key] == value for key, value in where.items())]
        assert len(found) == 1, where
        return found[0]

    parity = find(privacy="approximate", kind="upper", **{"class": "PAR_d (uniform)"}, agnostic=False)
    assert parity["k_exponent"] == 0.0 and parity["reference"] == "Thm 3.12"
    point = find(privacy="approximate", kind="upper", **{"class": "POINT_X"}, agnostic=False)
    assert point["k_exponent"] == 0.0 and point["reference"] == "Thm 3.13"
    improper = find(privacy="pure", kind="upper", **{"class": "POINT_X"}, agnostic=False, proper=False)
    assert improper["k_exponent"] == 1.0 and improper["reference"] == "Cor 3.3"
    thresholds = find(privacy="approximate", kind="lower", **{"class": "THRESH_X"}, agnostic=False, proper=False)
    assert thresholds["k_exponent"] == pytest.approx(1 / 3)
