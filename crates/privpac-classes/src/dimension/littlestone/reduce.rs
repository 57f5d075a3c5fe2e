//! The solver's preprocessing and small helpers: removing duplicate concepts and
//! uninformative points, column fingerprints, and integer logarithms.

use super::*;

/// The largest version space that [`LittlestoneSolver::small_value`] evaluates in closed
/// form (the plain engine does not memoize them).
pub(super) const SMALL: u32 = 7;

/// The error for an inconsistency that the solver's invariants rule out (a proven bound
/// without a split realizing it). Reported rather than panicking.
pub(super) fn internal_error() -> Error {
    Error::InvalidWitness {
        reason: "internal error: the Littlestone solver lost track of a witness".into(),
    }
}

pub(super) fn fingerprint_with(v: &[u64], column: &[u64], side: impl Fn(u64, u64) -> u64) -> u64 {
    let mut words = [0u64; 64];
    let mut hash = 0u64;
    for (chunk_v, chunk_c) in v.chunks(64).zip(column.chunks(64)) {
        for (slot, (&a, &b)) in words.iter_mut().zip(chunk_v.iter().zip(chunk_c)) {
            *slot = side(a, b);
        }
        hash = hash.rotate_left(7) ^ fingerprint(&words[..chunk_v.len()]);
    }
    hash
}

/// `⌊log2 n⌋` for `n ≥ 1`.
#[inline]
pub(super) fn floor_log2(n: u32) -> i32 {
    31 - n.leading_zeros() as i32
}

/// The class with duplicate concepts, constant points and duplicate points removed: words
/// per version space, columns, internal point → matrix column, and the concept map (if
/// there were duplicate concepts).
pub(super) fn reduce(matrix: &ClassMatrix) -> (usize, Vec<u64>, Vec<usize>, Option<Vec<u32>>) {
    let mut first_of_row: HashMap<&[u64], u32> = HashMap::new();
    let mut representatives: Vec<usize> = Vec::new();
    let mut map: Vec<u32> = Vec::with_capacity(matrix.n_concepts());
    for c in 0..matrix.n_concepts() {
        let next = representatives.len() as u32;
        let id = *first_of_row.entry(matrix.row(c)).or_insert_with(|| {
            representatives.push(c);
            next
        });
        map.push(id);
    }
    let n_internal = representatives.len();
    let concept_map = (n_internal != matrix.n_concepts()).then_some(map);
    let words = n_internal.div_ceil(64);
    let tail_mask = match n_internal % 64 {
        0 => u64::MAX,
        tail => (1u64 << tail) - 1,
    };
    let mut seen: HashMap<Vec<u64>, ()> = HashMap::new();
    let mut columns = Vec::new();
    let mut points = Vec::new();
    for x in 0..matrix.n_points() {
        let mut column = match concept_map {
            None => matrix.column(x).to_vec(),
            Some(_) => {
                let mut column = vec![0u64; words];
                for (j, &c) in representatives.iter().enumerate() {
                    if matrix.get(c, x) {
                        column[j / 64] |= 1 << (j % 64);
                    }
                }
                column
            }
        };
        let count = popcount(&column) as usize;
        if count == 0 || count == n_internal {
            continue;
        }
        let canonical: Vec<u64> = if column[0] & 1 == 1 {
            let mut flipped: Vec<u64> = column.iter().map(|w| !w).collect();
            if let Some(last) = flipped.last_mut() {
                *last &= tail_mask;
            }
            flipped
        } else {
            column.clone()
        };
        if seen.insert(canonical, ()).is_none() {
            columns.append(&mut column);
            points.push(x);
        }
    }
    (words, columns, points, concept_map)
}
