"""The base of the pages' small browser-side widgets: an ES module run by anywidget's front end.

Decided rule (issue 18, item 8: every dashboard light at class scale): the pages' own small
widgets (the language switch, the card rows, the ticker, the announcer, the share link, the
identity, the card sheet) speak anywidget's front-end protocol without importing anywidget's
Python package. That package costs a kernel about 15 ms to import (psygnal and a look-up of
its own version among the installed packages) and makes a new class for each widget made
(`add_traits`); a page pays both in every kernel of a class that opens at once.

The protocol, as anywidget's front end (installed with the `anywidget` package: its JupyterLab
and Voilà extension) reads it: the model and view are "AnyModel"/"AnyView" of module
"anywidget" at the front end's version range; the synced `_esm` trait is the module's source,
`_css` optional CSS, and `_anywidget_id` names the widget's class (its CSS is swapped in place
under that id). A subclass declares its `_esm` (and `_css`) as synced traits.

FRONT_END is the front end's version range. pyproject.toml pins anywidget to that minor
version, and tests/test_tiny_widgets.py checks the range against the installed package's, so
an upgrade that changes it fails a test instead of leaving the pages' widgets undrawn.
"""
from __future__ import annotations

import ipywidgets as w
import traitlets

FRONT_END = "~0.11.*"


class TinyWidget(w.DOMWidget):
    """A widget drawn by its own ES module (`_esm`) in anywidget's front end."""

    _model_name = traitlets.Unicode("AnyModel").tag(sync=True)
    _model_module = traitlets.Unicode("anywidget").tag(sync=True)
    _model_module_version = traitlets.Unicode(FRONT_END).tag(sync=True)
    _view_name = traitlets.Unicode("AnyView").tag(sync=True)
    _view_module = traitlets.Unicode("anywidget").tag(sync=True)
    _view_module_version = traitlets.Unicode(FRONT_END).tag(sync=True)
    _anywidget_id = traitlets.Unicode().tag(sync=True)

    @traitlets.default("_anywidget_id")
    def _class_name(self) -> str:
        return f"{type(self).__module__}.{type(self).__qualname__}"

    def __repr__(self) -> str:  # the text beside a displayed widget: no trait is read for it
        return object.__repr__(self)


def module(source: str) -> traitlets.Unicode:
    """A synced `_esm` or `_css` trait holding `source`."""
    return traitlets.Unicode(source).tag(sync=True)
