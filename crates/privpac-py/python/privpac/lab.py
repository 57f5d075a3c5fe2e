"""The lab: empirical sample complexity of a learner on a scenario, with exact true errors.

``privpac.lab.sample_complexity`` measures a built-in learner (a spec string) or your own
(a Python callable ``learner(points, labels, seed)`` or an object with ``fit``, returning a
concept id or a vectorized predictor, with ``guarantee=`` the guarantee it claims);
``privpac.lab.k_curve`` measures n against k for a multi-learner, built-in or your own;
``run_trials`` and ``sample_complexity_curve`` are the built-ins' trials at one size and
n against ε. These are the functions of the same names at the top level of ``privpac``
(the same objects), gathered here; their docstrings say what they take and return.
"""

from ._privpac import k_curve, run_trials, sample_complexity, sample_complexity_curve

__all__ = ["sample_complexity", "k_curve", "run_trials", "sample_complexity_curve"]
