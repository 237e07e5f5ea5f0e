"""NumPy at real layer sizes: the memory-bounded evaluator of every formulation, threads, weights."""
