"""Renderings, one module per format, chosen by the type of the result."""
