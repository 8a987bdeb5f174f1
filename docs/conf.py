"""Sphinx configuration of the documentation site (``sphinx-build -W -b html docs docs/_build``).

Sphinx with MyST and the furo theme, as the Farama projects (Gymnasium, PettingZoo) build theirs:
the pages are Markdown, the API reference comes from the docstrings (autodoc), and the observation
and action tables of the environment pages are generated from the code (``_ext/tables.py``).

The site builds from the ``docs`` extra alone (``pip install -e ".[docs]"``, what Read the Docs
installs, ``.readthedocs.yaml``): the packages of the other extras that documented modules import
at the top are mocked while autodoc imports them (``autodoc_mock_imports``);
``tests/project/test_docs_site.py`` builds the site with everything outside that extra unimportable.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

import sniff_twelve

project = "sniff-twelve"
author = "The sniff-twelve authors"
copyright = "2026, The sniff-twelve authors"
release = version = sniff_twelve.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode", "tables"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 4
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_inherit_docstrings = False  # the frameworks' docstrings use their own Sphinx extensions
autodoc_default_options = {"members": True, "show-inheritance": True}
# not in the docs extra: ray (rllib extra) for sniff_twelve.envs.rllib, and the other extras' packages
# a documented module may import at its top (train: torch, SB3; bench: pyspiel; web: starlette, uvicorn)
autodoc_mock_imports = ["ray", "torch", "stable_baselines3", "sb3_contrib", "pyspiel", "starlette", "uvicorn"]
nitpicky = False

html_theme = "furo"
html_title = f"sniff-twelve {release}"
html_static_path: list[str] = []
