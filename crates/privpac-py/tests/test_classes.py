"""Tests of the concept-class bindings: specs and matrices, exact dimensions with their
witnesses, SOA and Halving, against the CLI where it reports the same thing."""

import json
import pathlib
import runpy

import numpy as np
import pytest

import privpac
from privpac.errors import BadInputError, InvalidParameterError, TooLargeError

REPO = pathlib.Path(__file__).resolve().parents[3]


def test_spec_classes_report_their_size_and_evaluate_on_numpy():
    c = privpac.ConceptClass.from_spec("thresholds:16")
    assert len(c) == c.n_concepts == 16 and c.domain_size == 16
    labels = c.eval(5, np.arange(16, dtype=np.uint64))
    assert labels.dtype == np.bool_ and labels.shape == (16,)
    matrix = c.to_matrix()
    assert matrix.shape == (16, 16)
    np.testing.assert_array_equal(matrix[5], labels)
    with pytest.raises(BadInputError, match="out of range"):
        c.eval(16, [0])
    with pytest.raises(BadInputError, match="outside the domain"):
        c.eval(0, [16])


@pytest.mark.parametrize("spec", ["thresholds:8", "xor(thresholds:4)", "parities:3", "points:6"])
def test_dimensions_match_the_cli(cli, spec):
    report = cli("dim", "--class", spec)
    c = privpac.ConceptClass.from_spec(spec)
    vc = c.vc_dimension()
    ld = c.littlestone_dimension()
    assert vc.dimension == report["vc_dimension"]
    assert vc.shattered == report["shattered_set"]
    assert ld.dimension == report["littlestone_dimension"]
    assert json.loads(ld.tree.to_json()) == report["littlestone_tree"]
    assert c.check_littlestone_tree(ld.tree) == ld.dimension
    c.check_shattered(vc.shattered)


def test_matrix_classes_and_their_witnesses():
    m = np.array([[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 0]])
    c = privpac.ConceptClass.from_matrix(m)
    vc = c.vc_dimension()
    assert (vc.dimension, vc.shattered) == (2, [0, 1])
    ld = c.littlestone_dimension()
    assert ld.dimension == 2
    tree = ld.tree
    assert not tree.is_leaf and tree.depth == 2 and tree.point in (0, 1)
    assert tree.zero.depth == 1 and tree.one.zero.is_leaf and tree.one.zero.point is None
    assert len(tree.paths()) == 4
    # Every root-to-leaf path is realized by some row of the matrix.
    for path in tree.paths():
        assert any(all(row[x] == y for x, y in path) for row in m)
    np.testing.assert_array_equal(c.to_matrix(), m.astype(bool))
    # Both engines agree.
    assert c.littlestone_dimension(engine="plain").dimension == 2
    # A wrong witness is rejected.
    with pytest.raises(BadInputError, match="witness"):
        c.check_shattered([1, 2])
    with pytest.raises(BadInputError):
        c.check_shattered([5])


def test_bad_matrices_and_specs_raise_the_right_class():
    with pytest.raises(BadInputError):
        privpac.ConceptClass.from_matrix([[0, 1], [1]])  # ragged
    with pytest.raises(BadInputError, match="0 and 1"):
        privpac.ConceptClass.from_matrix([[0, 2], [1, 0]])  # label out of range
    with pytest.raises(BadInputError, match="empty"):
        privpac.ConceptClass.from_matrix(np.zeros((0, 3)))
    with pytest.raises(BadInputError, match="dimensional"):
        privpac.ConceptClass.from_matrix(np.zeros(3))
    with pytest.raises(InvalidParameterError, match="triangles"):
        privpac.ConceptClass.from_spec("triangles:3")
    with pytest.raises(InvalidParameterError):
        privpac.ConceptClass.from_spec("thresholds:0")
    with pytest.raises(InvalidParameterError, match="engine"):
        privpac.ConceptClass.from_spec("points:3").littlestone_dimension(engine="magic")


def test_state_budget_and_materialization_limits_raise_too_large():
    with pytest.raises(TooLargeError, match="budget"):
        privpac.ConceptClass.from_spec("all:8").littlestone_dimension(max_states=3)
    with pytest.raises(TooLargeError):
        privpac.ConceptClass.from_spec("thresholds:1000000").vc_dimension()


@pytest.mark.parametrize("learner,adversary", [("soa", "tree"), ("halving", "random"), ("soa", "random")])
def test_run_online_matches_the_cli(cli, learner, adversary):
    report = cli("online", "--class", "thresholds:16", "--learner", learner,
                 "--adversary", adversary, "--rounds", "30", "--seed", "4")
    c = privpac.ConceptClass.from_spec("thresholds:16")
    played = privpac.run_online(c, learner=learner, adversary=adversary, rounds=30, seed=4)
    assert played.mistakes == report["mistakes"]
    assert played.mistake_bound == report["mistake_bound"]
    assert played.littlestone_dimension == report["littlestone_dimension"]
    assert [list(t) for t in played.transcript] == report["transcript"]
    assert played.mistakes <= played.mistake_bound


def test_soa_and_halving_interactively_respect_their_mistake_bounds():
    c = privpac.ConceptClass.from_spec("thresholds:32")
    target = c.eval(11, np.arange(32, dtype=np.uint64))
    rng = np.random.default_rng(5)
    for learner, bound in [(privpac.Soa(c), 5), (privpac.Halving(c), 5)]:
        mistakes = 0
        for x in rng.integers(0, 32, size=60):
            mistakes += learner.predict(int(x)) != bool(target[x])
            learner.update(int(x), bool(target[x]))
        assert mistakes <= bound
    soa = privpac.Soa(c, tie="zero")
    assert soa.current_ldim() == 5
    soa.update(3, True)
    with pytest.raises(BadInputError, match="consistent|realizable|no concept"):
        soa.update(3, False)  # contradicts the first example
    assert soa.current_ldim() >= 0  # the version space is left as it was
    with pytest.raises(InvalidParameterError):
        privpac.Halving(c, tie="maybe")
    with pytest.raises(TooLargeError):
        privpac.run_online(c, rounds=2**25)
    with pytest.raises(InvalidParameterError):
        privpac.run_online(c, learner="perceptron")


def test_the_dimensions_example_runs(capsys):
    runpy.run_path(str(REPO / "examples" / "python" / "dimensions_soa.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "VC dimension: 1" in out and "Littlestone dimension: 3" in out
    assert "3 mistakes" in out
