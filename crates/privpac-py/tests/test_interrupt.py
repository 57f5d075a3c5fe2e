"""Ctrl-C during the lab with a Python learner (issue 37 §2): the run stops within a trial
and raises KeyboardInterrupt itself, not an error about the learner after the whole search.

Each learner counts its calls and interrupts on call number STOP (by raising
KeyboardInterrupt, or by sending SIGINT to its own process as Ctrl-C does); the run must
raise KeyboardInterrupt and call the learner no more after that. Without the fix, the
signal's handler waits for the end of the search (thousands of calls) and the learner's
own KeyboardInterrupt becomes a BadInputError."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest

import privpac

N = 64
STOP = 3
SEARCH = dict(alpha=0.05, beta=0.05, trials=100, seed=1)


class Interrupting:
    """A learner (the largest positive point) that interrupts on call STOP."""

    def __init__(self, how: str, multi: bool = False):
        self.calls = 0
        self.how = how
        self.multi = multi
        self.__name__ = "interrupting"

    def __call__(self, points, labels, seed):
        self.calls += 1
        if self.calls == STOP:
            if self.how == "raise":
                raise KeyboardInterrupt
            os.kill(os.getpid(), signal.SIGINT)
        if self.multi:
            return [
                int(points[labels[:, j]].max()) if labels[:, j].any() else 0
                for j in range(labels.shape[1])
            ]
        return int(points[labels].max()) if labels.any() else 0


HOW = ["raise", "sigint"]


@pytest.mark.parametrize("how", HOW)
def test_sample_complexity_stops_at_the_interrupt(how):
    learner = Interrupting(how)
    with pytest.raises(KeyboardInterrupt):
        privpac.sample_complexity(
            f"thresholds:{N}", learner, guarantee=privpac.Privacy(1.0), **SEARCH
        )
    assert learner.calls == STOP


@pytest.mark.parametrize("how", HOW)
def test_estimated_true_errors_stop_at_the_interrupt(how):
    learner = Interrupting(how)
    with pytest.raises(KeyboardInterrupt):
        privpac.sample_complexity(
            f"thresholds:{N}", learner, guarantee=privpac.Privacy(1.0),
            true_error="estimated", holdout=100, **SEARCH,
        )
    assert learner.calls == STOP


@pytest.mark.parametrize("how", HOW)
def test_run_trials_stops_at_the_interrupt(how):
    learner = Interrupting(how)
    with pytest.raises(KeyboardInterrupt):
        privpac.lab.run_trials(
            f"thresholds:{N}", learner, 32, guarantee=privpac.Privacy(1.0), **SEARCH
        )
    assert learner.calls == STOP


@pytest.mark.parametrize("how", HOW)
def test_k_curve_stops_at_the_interrupt(how):
    learner = Interrupting(how, multi=True)
    with pytest.raises(KeyboardInterrupt):
        privpac.k_curve(
            f"thresholds:{N}", learner, [1, 2], guarantee=privpac.Privacy(1.0),
            alpha=0.2, beta=0.2, seed=1, trials=50, max_size=256,
        )
    assert learner.calls == STOP


@pytest.mark.parametrize("how", HOW)
def test_audit_learner_stops_at_the_interrupt(how):
    learner = Interrupting(how)
    with pytest.raises(KeyboardInterrupt):
        privpac.audit.audit_learner(
            learner, "thresholds:16", privpac.Privacy(1.0), runs=500, seed=1
        )
    assert learner.calls == STOP


def test_a_run_after_an_interrupt_is_not_affected():
    learner = Interrupting("raise")
    with pytest.raises(KeyboardInterrupt):
        privpac.lab.run_trials(
            f"thresholds:{N}", learner, 32, guarantee=privpac.Privacy(1.0), **SEARCH
        )

    def erm(points, labels, seed):
        return int(points[labels].max()) if labels.any() else 0

    outcome = privpac.lab.run_trials(
        f"thresholds:{N}", erm, 32, guarantee=privpac.Privacy(1.0), **SEARCH
    )
    assert outcome["trials"] == SEARCH["trials"]
    assert np.isfinite(outcome["mean_error"])
