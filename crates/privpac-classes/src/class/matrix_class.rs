//! A class given explicitly by a 0/1 matrix (one concept per row).

use crate::class::ConceptClass;
use crate::domain::{Domain, Point};
use crate::error::Result;
use crate::matrix::ClassMatrix;

/// An explicit class over `[n_points]` whose concept `i` is row `i` of a [`ClassMatrix`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplicitClass {
    domain: Domain,
    matrix: ClassMatrix,
    name: String,
}

impl ExplicitClass {
    /// Wraps a matrix; `name` is used in reports (for example `matrix:path.csv`).
    ///
    /// # Errors
    /// None in practice (a matrix has at least one column); kept fallible for domains.
    pub fn new(matrix: ClassMatrix, name: impl Into<String>) -> Result<Self> {
        Ok(ExplicitClass {
            domain: Domain::ordered(matrix.n_points() as u64)?,
            matrix,
            name: name.into(),
        })
    }

    /// The underlying matrix.
    pub fn matrix(&self) -> &ClassMatrix {
        &self.matrix
    }
}

impl ConceptClass for ExplicitClass {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn len(&self) -> u128 {
        self.matrix.n_concepts() as u128
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        (id as usize) < self.matrix.n_concepts()
            && (x as usize) < self.matrix.n_points()
            && self.matrix.get(id as usize, x as usize)
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    /// `matrix row 3` (rows counted from 0, in file order).
    fn describe(&self, id: u64) -> String {
        format!("matrix row {id}")
    }
}
