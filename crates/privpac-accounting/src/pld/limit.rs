//! What kept PLD bounds from the accuracy asked for: the causes [`super::PldBounds`] names
//! (its `limited_by` field), in a module below both the transforms (`fast`) and the edge
//! cases (`edges`) that set it.

/// What kept PLD bounds from the accuracy asked for ([`crate::PldBounds::limited_by`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AccuracyLimit {
    /// δ′ = 0 beside steps with a δ of their own: only the upper bound (the steps' ε
    /// summed) is computed; the lower bound is 0.
    NoSlackBesideOwnDelta,
    /// A sampling rate within 10⁻⁹ of 1: such steps are bounded through the same steps
    /// without subsampling, whose lower bound is taken at δ raised by `Σ k_i(1 − q_i)`
    /// (the subsampled pair's loss `±ln(1 − q)` is too wide for the transforms' grids); the
    /// accuracy is missed when that raise (or the unsubsampled list) costs it and the
    /// transforms, run then as well, do not close the gap either.
    RateNearOne,
    /// The spare δ (δ′ beside the steps' own δ) is below 10⁻²⁸⁰: the floor of the slack
    /// the transforms add for underflow.
    TinyDelta,
    /// δ within 10⁻⁴ of 1: the allowances for the window's tails and the rounding residual
    /// (shares of the spare δ) exceed the room `1 − δ`, so the lower bound is lost (lists of
    /// few distinct (ε, δ) steps are enumerated instead; beside other steps, those steps
    /// alone still give a lower bound).
    DeltaNearOne,
    /// A step's largest loss (ε, or Δ/b) above 36: its pair's mass at the low loss, about
    /// `e^{−ε}` of the high one's, is below the transforms' relative precision (2⁻⁵³), so
    /// the lower bound is lost (same remedies as for [`Self::DeltaNearOne`]).
    LargeLoss,
    /// The finest grid whose transform fits in memory (2^22 cells) was reached.
    GridLimit,
}

impl std::fmt::Display for AccuracyLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AccuracyLimit::NoSlackBesideOwnDelta => {
                "delta' = 0 beside the steps' own delta: only the upper bound (the steps' \
                 epsilons summed) is computed"
            }
            AccuracyLimit::RateNearOne => {
                "a sampling rate within 1e-9 of 1: bounded through the steps without \
                 subsampling, whose lower bound is taken at delta raised by the rates' distance \
                 from 1"
            }
            AccuracyLimit::TinyDelta => {
                "the spare delta (delta' beside the steps' own delta) is below 1e-280, the \
                 floor of the slack added for underflow"
            }
            AccuracyLimit::DeltaNearOne => {
                "delta within 1e-4 of 1: the allowances for the tails (shares of the spare \
                 delta) exceed 1 - delta, so the transforms lose the lower bound (any lower \
                 bound shown comes from the list's (epsilon, delta) steps alone)"
            }
            AccuracyLimit::LargeLoss => {
                "a step's largest loss is above 36: its pair's mass at the low loss is below \
                 the transforms' relative precision, so they lose the lower bound (any lower \
                 bound shown comes from the list's (epsilon, delta) steps alone)"
            }
            AccuracyLimit::GridLimit => "the finest grid that fits in memory was reached",
        })
    }
}
