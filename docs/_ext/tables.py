"""A Sphinx directive that writes tables from the code, so the environment pages cannot drift:

    ```{layout-table} sniff_env.observation:OBS
    ```

renders a declared ``Layout`` (``sniff_twelve.core.layout``) as its offset / size / field / meaning
table, the same one ``docs/observations.md`` and the module docstrings carry.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx


class LayoutTable(SphinxDirective):
    """``{layout-table} module:NAME`` — the layout ``NAME`` of ``module`` as a table."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        module, name = self.arguments[0].split(":")
        layout = getattr(importlib.import_module(module), name)
        container = nodes.container()
        self.state.nested_parse(StringList(layout.rst().splitlines(), source=self.arguments[0]), 0, container)
        return container.children


def setup(app: Sphinx) -> dict[str, bool]:
    app.add_directive("layout-table", LayoutTable)
    return {"parallel_read_safe": True}
