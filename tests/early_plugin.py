"""Loaded before pytest's other plugins (``-p early_plugin`` in pyproject.toml's ``addopts``).

nbval's plugin imports nbformat as pytest loads it, and so jsonschema, which builds
rfc3987-syntax's IRI grammars on import (about 1.7 s in every pytest process: the controller
and each xdist worker) unless `skip_iri_grammars` runs first. tests/conftest.py loads too late.
"""

from reteval._util.extras import skip_iri_grammars

skip_iri_grammars()
