//! Differential-privacy building blocks (work in progress).
