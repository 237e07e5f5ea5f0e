"""Decisions: reductions, the one- and two-variable deciders, the guard, the numeric fallback, the SMT cross-check."""
