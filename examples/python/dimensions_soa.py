"""Dimensions and SOA of an explicit concept class given as a numpy 0/1 matrix.

Run after `pip install ./crates/privpac-py`:

    python examples/python/dimensions_soa.py

The class has one concept per row and one domain point per column. privpac computes its
exact VC dimension (with a shattered set) and Littlestone dimension (with a shattered
Littlestone tree), re-checks both witnesses, and then plays the tree adversary against the
Standard Optimal Algorithm, which makes exactly Ldim(C) mistakes (Littlestone 1988).
"""

import numpy as np

import privpac


def main():
    # Thresholds over 8 points: concept i labels the points x >= i with 1, for i = 0..8
    # (i = 8 is the all-zero concept). VC dimension 1, Littlestone dimension 3.
    n = 8
    matrix = np.array([[int(x >= i) for x in range(n)] for i in range(n + 1)], dtype=np.uint8)
    concepts = privpac.ConceptClass.from_matrix(matrix, name="thresholds over 8 points")
    print(f"class: {concepts.name}, {len(concepts)} concepts over {concepts.domain_size} points")

    vc = concepts.vc_dimension()
    concepts.check_shattered(vc.shattered)
    print(f"VC dimension: {vc.dimension}, shattered set {vc.shattered} (verified)")

    ldim = concepts.littlestone_dimension()
    depth = concepts.check_littlestone_tree(ldim.tree)
    print(f"Littlestone dimension: {ldim.dimension}, witness tree of depth {depth} (verified)")
    print(f"  root point {ldim.tree.point}; first path {ldim.tree.paths()[0]}")

    played = privpac.run_online(concepts, learner="soa", adversary="tree", rounds=20, seed=1)
    print(f"SOA against the tree adversary: {played.mistakes} mistakes in {played.rounds} "
          f"rounds (bound Ldim = {played.mistake_bound})")

    # The same learner interactively: predict, then see the true label (target: x >= 5).
    soa = privpac.Soa(concepts)
    mistakes = 0
    for x in [4, 6, 5, 2, 7]:
        prediction = soa.predict(x)
        truth = x >= 5
        mistakes += prediction != truth
        soa.update(x, truth)
    print(f"SOA on target x >= 5: {mistakes} mistakes, Ldim of the version space now "
          f"{soa.current_ldim()}")
    assert played.mistakes == ldim.dimension


if __name__ == "__main__":
    main()
