//! `PAR_d`: parities `c_a(y) = ⟨a, y⟩ mod 2` over the hypercube.

use crate::class::closed_form::{ClosedFormVc, Family};
use crate::class::{ConceptClass, check_sample, dense_len};
use crate::domain::{Domain, Point};
use crate::error::Result;
use crate::sample::LabeledSample;

/// Parity functions over `{0,1}^d`: concept `a ∈ {0,1}^d` labels `y` with the parity of
/// `a & y`. VC dimension d and Littlestone dimension d.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parities {
    domain: Domain,
    dim: u32,
}

impl Parities {
    /// Parities over `{0,1}^dim`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidDomain`] unless 1 ≤ dim ≤ 64.
    pub fn new(dim: u32) -> Result<Self> {
        Ok(Parities {
            domain: Domain::hypercube(dim)?,
            dim,
        })
    }
}

impl ConceptClass for Parities {
    /// d, exactly.
    fn vc_dimension_closed_form(&self) -> Option<ClosedFormVc> {
        Some(ClosedFormVc::exact(
            u64::from(self.dim),
            "parities:d",
            Some(Family::Parities),
        ))
    }
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn len(&self) -> u128 {
        1u128 << self.dim
    }

    fn eval(&self, id: u64, x: Point) -> bool {
        (id & x).count_ones() % 2 == 1
    }

    fn name(&self) -> String {
        format!("parities:{}", self.dim)
    }

    /// `parity of coordinates {1, 2, 3, 5} (bit string 0111010000)`: concept `a` is
    /// `x ↦ ⟨a, x⟩ mod 2`, and its bit string is `a` written as a point of the domain
    /// (coordinate 0 first), the orientation of data files.
    fn describe(&self, id: u64) -> String {
        let coordinates: Vec<String> = (0..self.dim)
            .filter(|i| id >> i & 1 == 1)
            .map(|i| i.to_string())
            .collect();
        let bits = self.domain.format_point(id);
        if coordinates.is_empty() {
            format!("parity of no coordinates (all zeros; bit string {bits})")
        } else {
            format!(
                "parity of coordinates {{{}}} (bit string {bits})",
                coordinates.join(", ")
            )
        }
    }

    /// The fast Walsh–Hadamard transform, O(n + d·2^d): with `f(x) = Σ_{i: x_i = x}
    /// (−1)^{y_i}`, the transform `F(a) = Σ_x f(x)(−1)^{⟨a,x⟩}` counts agreements minus
    /// disagreements of concept `a`, so `errors(a) = (n − F(a))/2`.
    fn error_counts(&self, sample: &LabeledSample) -> Result<Vec<u64>> {
        check_sample(&self.domain, sample)?;
        let len = dense_len(self)?;
        let mut f = vec![0i64; len];
        for (x, y) in sample.iter() {
            f[x as usize] += if y { -1 } else { 1 };
        }
        let mut half = 1;
        while half < len {
            for block in f.chunks_mut(2 * half) {
                let (low, high) = block.split_at_mut(half);
                for (u, v) in low.iter_mut().zip(high.iter_mut()) {
                    let (a, b) = (*u, *v);
                    *u = a + b;
                    *v = a - b;
                }
            }
            half *= 2;
        }
        let n = sample.len() as i64;
        Ok(f.into_iter()
            .map(|agreement| ((n - agreement) / 2) as u64)
            .collect())
    }
}
