"""A Sphinx directive that writes tables from the code, so the environment pages cannot drift:

    ```{layout-table} sniff_env.observation:OBS
    ```

renders a declared ``Layout`` (``sniff_twelve.core.layout``) as its offset / size / field / meaning
table, the same one ``docs/observations.md`` and the module docstrings carry. The table is built as
docutils nodes, so it renders as a table whatever the page's markup (MyST Markdown or
reStructuredText); ````code```` in a meaning becomes inline code.
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx

_CODE = re.compile(r"``(.+?)``")


def _inline(text: str) -> list[nodes.Node]:
    """``text`` as text and inline-code nodes (the layouts write code as ````code````)."""
    parts = _CODE.split(text)  # text, code, text, code, …
    return [nodes.literal(part, part) if odd else nodes.Text(part) for odd, part in enumerate(parts) if part]


def _row(cells: list[list[nodes.Node]]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        row += nodes.entry("", nodes.paragraph("", "", *cell))
    return row


def layout_table(layout) -> nodes.table:
    """The docutils table of ``layout``: a header row, then one row per field."""
    table = nodes.table(classes=["layout-table"])
    group = nodes.tgroup(cols=len(layout.HEADER))
    table += group
    for width in (8, 6, 16, 70):
        group += nodes.colspec(colwidth=width)
    group += nodes.thead("", _row([[nodes.Text(name)] for name in layout.HEADER]))
    body = nodes.tbody()
    for offset, size, name, meaning in layout.rows():
        body += _row([[nodes.Text(offset)], [nodes.Text(size)], [nodes.literal(name, name)], _inline(meaning)])
    group += body
    return table


class LayoutTable(SphinxDirective):
    """``{layout-table} module:NAME`` — the layout ``NAME`` of ``module`` as a table."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        module, name = self.arguments[0].split(":")
        layout = getattr(importlib.import_module(module), name)
        table = layout_table(layout)
        self.set_source_info(table)
        return [table]


def setup(app: Sphinx) -> dict[str, bool]:
    app.add_directive("layout-table", LayoutTable)
    return {"parallel_read_safe": True}
