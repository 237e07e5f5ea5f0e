"""The paper's results: derivations, the symmetry audit, layer-level agreement."""
