"""The package's version, read by the build (pyproject.toml's dynamic version) and by
``mha_symbolic.__version__`` without importlib.metadata (about 30 ms a start)."""

VERSION = "0.1.0"
