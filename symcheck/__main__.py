"""``python -m symcheck``: the same as the ``symcheck`` command."""
from symcheck.cli import main

if __name__ == "__main__":  # not when a tool (pytest's doctest collection) imports the module
    main()
