//! Online learning: Halving, SOA, mistake-bound harness and adversaries (in progress).
