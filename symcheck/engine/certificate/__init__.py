"""The certificate emitter: the engine's proofs and witnesses written for the independent kernel.

:mod:`~symcheck.engine.certificate.tree` translates SymPy expressions into the kernel's trees,
:mod:`~symcheck.engine.certificate.points` writes exact points, :mod:`~symcheck.engine.certificate.rewrite`
the rewrites that bring a tree to the kernel's normal forms, and :mod:`~symcheck.engine.certificate.emit`
the certificates of the checks (a statement's zero proof, a witness, a group's members); the group's
completeness argument is :mod:`~symcheck.engine.certificate.complete`, a family's regions
:mod:`~symcheck.engine.certificate.region` and :mod:`~symcheck.engine.certificate.family`. The kernel
(:mod:`symcheck.kernel`) re-checks every certificate; a refusal leaves the result inconclusive.
"""
