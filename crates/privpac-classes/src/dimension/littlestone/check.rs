//! Checking a claimed Littlestone tree against a class: every branch realized by a
//! concept, so its depth is a certified lower bound on the Littlestone dimension.

use super::*;

/// Checks that `tree` is a complete Littlestone tree shattered by `matrix`, and returns its
/// depth.
///
/// Every root-to-leaf path — the points of its nodes with the labels of the edges taken
/// (0 to `zero`, 1 to `one`) — must be realized by some concept, and every leaf must sit
/// at the same depth. The check walks the tree iteratively, so deep trees cannot overflow
/// the stack.
///
/// # Errors
/// [`Error::InvalidWitness`] naming a point outside the domain, a path that no concept
/// realizes, or two leaves at different depths.
///
/// # Example
/// ```
/// use privpac_classes::{ClassMatrix, Error};
/// use privpac_classes::dimension::{LittlestoneTree, check_littlestone_tree};
///
/// let class = ClassMatrix::parse("0\n1\n")?;
/// let tree = LittlestoneTree::Node {
///     point: 0,
///     zero: Box::new(LittlestoneTree::Leaf),
///     one: Box::new(LittlestoneTree::Leaf),
/// };
/// assert_eq!(check_littlestone_tree(&class, &tree)?, 1);
/// let single = ClassMatrix::parse("1\n")?;
/// assert!(matches!(check_littlestone_tree(&single, &tree), Err(Error::InvalidWitness { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_littlestone_tree(matrix: &ClassMatrix, tree: &LittlestoneTree) -> Result<u32> {
    let describe = |path: &[(usize, bool)]| -> String {
        if path.is_empty() {
            return "the empty path".into();
        }
        let steps: Vec<String> = path
            .iter()
            .map(|&(x, label)| format!("{x}↦{}", u8::from(label)))
            .collect();
        format!("the path {}", steps.join(", "))
    };
    let mut leaf_depth: Option<usize> = None;
    // (subtree, concepts realizing the path to it, the path).
    type Pending<'t> = (&'t LittlestoneTree, Vec<u64>, Vec<(usize, bool)>);
    let all = matrix.all_concepts().as_words().to_vec();
    let mut stack: Vec<Pending<'_>> = vec![(tree, all, Vec::new())];
    while let Some((node, version_space, path)) = stack.pop() {
        if version_space.iter().all(|&w| w == 0) {
            return Err(Error::InvalidWitness {
                reason: format!("no concept realizes {}", describe(&path)),
            });
        }
        match node {
            LittlestoneTree::Leaf => match leaf_depth {
                None => leaf_depth = Some(path.len()),
                Some(depth) if depth != path.len() => {
                    return Err(Error::InvalidWitness {
                        reason: format!(
                            "the tree is not complete: a leaf at depth {depth} and one at depth {} ({})",
                            path.len(),
                            describe(&path)
                        ),
                    });
                }
                Some(_) => {}
            },
            LittlestoneTree::Node { point, zero, one } => {
                if *point >= matrix.n_points() {
                    return Err(Error::InvalidWitness {
                        reason: format!(
                            "point {point} is outside the domain 0 ≤ point < {} (after {})",
                            matrix.n_points(),
                            describe(&path)
                        ),
                    });
                }
                let column = matrix.column(*point);
                let with_one: Vec<u64> = version_space
                    .iter()
                    .zip(column)
                    .map(|(v, c)| v & c)
                    .collect();
                let with_zero: Vec<u64> = version_space
                    .iter()
                    .zip(column)
                    .map(|(v, c)| v & !c)
                    .collect();
                let mut one_path = path.clone();
                one_path.push((*point, true));
                let mut zero_path = path;
                zero_path.push((*point, false));
                stack.push((one, with_one, one_path));
                stack.push((zero, with_zero, zero_path));
            }
        }
    }
    Ok(leaf_depth.unwrap_or(0) as u32)
}
