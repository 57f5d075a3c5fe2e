//! Exact and statistical verification of differential-privacy claims (work in progress).
