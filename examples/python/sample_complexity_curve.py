"""How many examples does a private learner need? A sample-complexity curve against ε.

Run after `pip install ./crates/privpac-py matplotlib` (the plot is drawn by
`privpac.plot`, which needs matplotlib):

    python examples/python/sample_complexity_curve.py [OUTPUT.png]

For each privacy parameter ε, privpac searches for the smallest sample size n at which the
ε-differentially private generic learner (the exponential mechanism over the class) returns
a hypothesis with true error at most α in at least 1 − β of the trials, on thresholds over
1024 points with uniform examples. True errors are exact, and the run is seeded, so the
numbers are the same on every machine (and the same as `privpac sample-complexity ...
--seed 1 --json` for each ε). The plot shows the measured n beside the learner's bound
ln(2|C|/β)/α · max{8, 4/ε}: both grow like 1/ε once ε is small.
"""

import sys

import privpac

EPSILONS = [0.125, 0.25, 0.5, 1.0, 2.0, 4.0]


def curve(trials=50):
    """The measured sample sizes and the bound, one per ε (numpy arrays in a dict)."""
    return privpac.sample_complexity_curve(
        "thresholds:1024", "generic", EPSILONS, alpha=0.1, beta=0.1, seed=1, trials=trials
    )


def main(output="sample_complexity_curve.png"):
    import privpac.plot  # needs matplotlib

    result = curve()
    for epsilon, n, bound in zip(result["epsilon"], result["sample_size"], result["bound"]):
        print(f"epsilon = {epsilon:<6} measured n = {n:<6.0f} bound = {bound:.0f}")

    # A figure in the shape of privpac.experiment.figures' figures, drawn like the reports'.
    figure = {
        "file": output,
        "title": "thresholds over 1024 points, generic learner (α = 0.1, β = 0.1)",
        "x_label": "privacy parameter ε",
        "y_label": "examples needed",
        "log_x": True,
        "log_y": True,
        "series": [
            {"label": "measured", "style": "measured",
             "points": [[float(e), float(n)] for e, n in zip(result["epsilon"], result["sample_size"])]},
            {"label": "bound ln(2|C|/β)/α·max{8, 4/ε}", "style": "bound",
             "points": [[float(e), float(b)] for e, b in zip(result["epsilon"], result["bound"])]},
        ],
    }
    privpac.plot.draw(figure).savefig(output, dpi=120)
    print(f"wrote {output}")


if __name__ == "__main__":
    main(*sys.argv[1:2])
