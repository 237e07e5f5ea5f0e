"""The proof kernel: re-checks a certificate (docs/certificates.md) with exact rationals,
FLINT polynomials and Arb balls only. It imports the standard library, ``symcheck.core`` and
python-flint, never SymPy or the engine (``tests/kernel/test_kernel_imports.py``). Entry point:
``symcheck.kernel.check.check(certificate) -> KernelVerdict``."""
