//! Unit tests of `littlestone`.

use super::*;

#[test]
fn reduce_removes_duplicates() {
    // Row 2 repeats row 0; point 1 is constant; point 2 is the complement of point 0.
    let m = ClassMatrix::parse("001\n010\n001\n110\n").unwrap();
    let (words, _, points, map) = reduce(&m);
    assert_eq!(words, 1);
    assert_eq!(points, vec![0, 1]);
    assert_eq!(map, Some(vec![0, 1, 0, 2]));
}

#[test]
fn version_spaces_are_validated() {
    let m = ClassMatrix::parse("0\n1\n1\n").unwrap();
    for engine in [Engine::Pruned, Engine::Plain] {
        let mut solver = LittlestoneSolver::new(&m, engine, Budget::default());
        let set = |word: u64| ConceptSet::from_words(3, vec![word]).unwrap();
        assert!(matches!(
            ConceptSet::from_words(3, vec![0b1000]),
            Err(Error::InvalidVersionSpace { .. })
        ));
        assert!(matches!(
            ConceptSet::from_words(3, vec![0, 0]),
            Err(Error::InvalidVersionSpace { .. })
        ));
        assert!(matches!(
            solver.ldim(&ConceptSet::full(4)),
            Err(Error::InvalidVersionSpace { .. })
        ));
        assert!(matches!(
            solver.tree(&set(0)),
            Err(Error::InvalidVersionSpace { .. })
        ));
        assert_eq!(solver.ldim(&set(0)).unwrap(), -1);
        assert_eq!(solver.ldim(&set(0b110)).unwrap(), 0);
        assert_eq!(solver.ldim(&set(0b011)).unwrap(), 1);
        assert_eq!(solver.tree(&set(0b110)).unwrap(), LittlestoneTree::Leaf);
    }
}

#[test]
fn checker_rejects_incomplete_and_unrealized_trees() {
    let m = ClassMatrix::parse("00\n01\n10\n").unwrap();
    let leaf = || Box::new(LittlestoneTree::Leaf);
    let node = |point, zero, one| LittlestoneTree::Node { point, zero, one };
    // Depth 2 needs 4 concepts.
    let full = node(
        0,
        Box::new(node(1, leaf(), leaf())),
        Box::new(node(1, leaf(), leaf())),
    );
    let err = check_littlestone_tree(&m, &full).unwrap_err();
    assert_eq!(
        err,
        Error::InvalidWitness {
            reason: "no concept realizes the path 0↦1, 1↦1".into()
        }
    );
    let lopsided = node(0, Box::new(node(1, leaf(), leaf())), leaf());
    assert!(matches!(
        check_littlestone_tree(&m, &lopsided),
        Err(Error::InvalidWitness { .. })
    ));
    assert!(matches!(
        check_littlestone_tree(&m, &node(5, leaf(), leaf())),
        Err(Error::InvalidWitness { .. })
    ));
    assert_eq!(
        check_littlestone_tree(&m, &node(1, leaf(), leaf())).unwrap(),
        1
    );
    assert_eq!(
        check_littlestone_tree(&m, &LittlestoneTree::Leaf).unwrap(),
        0
    );
}
