"""The pages' small browser-side widgets speak anywidget's front-end protocol without its
Python package (widgets/components/tiny.py; issue 18, item 8), and a Voilà kernel holding its
widget messages for the browser does no work for them (widgets/components/later.py)."""
from __future__ import annotations

import importlib.metadata

import anywidget
import ipywidgets as w
import traitlets
from ipywidgets.widgets.widget import _instances

from widgets.components import later
from widgets.components.announce import Announcer
from widgets.components.card_picker import CardPicker
from widgets.components.learner import Identity
from widgets.components.page import PageLanguage
from widgets.components.roster import CardSheet
from widgets.components.share import ShareLink
from widgets.components.ticker import Ticker
from widgets.components.tiny import FRONT_END, TinyWidget, module
from widgets.pages.turma import TeacherDevice

PROTOCOL = ("_model_name", "_model_module", "_model_module_version", "_view_name", "_view_module",
            "_view_module_version")


def test_the_front_end_range_is_the_installed_anywidgets_own():
    major, minor = importlib.metadata.version("anywidget").split(".")[:2]
    assert FRONT_END == f"~{major}.{minor}.*"


def test_a_tiny_widget_sends_the_state_anywidgets_own_base_would_send():
    source, css = "export default { render({ el }) { el.textContent = 'x'; } };", ".x { color: red; }"

    class Theirs(anywidget.AnyWidget):
        _esm = source
        _css = css

    class Ours(TinyWidget):
        _esm = module(source)
        _css = module(css)

    theirs, ours = Theirs().get_state(), Ours().get_state()
    for key in (*PROTOCOL, "_esm", "_css"):
        assert ours[key] == theirs[key], key
    assert ours["_anywidget_id"] == f"{Ours.__module__}.{Ours.__qualname__}"
    assert theirs["_anywidget_id"] == f"{Theirs.__module__}.{Theirs.__name__}"


def test_every_small_widget_of_the_pages_is_tiny_and_carries_its_module():
    for kind in (Announcer, CardPicker, Identity, PageLanguage, CardSheet, ShareLink, Ticker, TeacherDevice):
        assert issubclass(kind, TinyWidget) and not issubclass(kind, anywidget.AnyWidget), kind
        made = kind()
        state = made.get_state()
        assert state["_model_name"] == "AnyModel" and "export default" in state["_esm"], kind
        made.close()


def test_while_held_a_widget_opens_and_changes_without_serialising_its_state(monkeypatch):
    later._make_no_held_messages()
    asked: list = []
    get_state = w.Widget.get_state

    def counted(self, key=None, drop_defaults=False):
        asked.append(key)
        return get_state(self, key, drop_defaults)
    monkeypatch.setattr(w.Widget, "get_state", counted)
    monkeypatch.setattr(later, "_holding", True)
    button = w.Button(description="a")
    button.description = "b"
    with button.hold_sync():
        button.tooltip = "c"
    assert asked == [] and button.comm is not None and button.model_id
    made = set(_instances)
    monkeypatch.setattr(later, "_holding", False)   # the browser came
    states = w.Widget.get_manager_state()["state"]  # as its request_states: no widget made meanwhile
    assert set(_instances) == made and {button.model_id, button.layout.model_id} <= set(states)
    button.description = "d"
    assert asked                                    # updates are made and sent again
    assert button.get_state()["description"] == "d" and button.get_state()["tooltip"] == "c"
    again = w.Button(description="e")               # and a widget opened now sends its state
    assert len(asked) > 2 and again.get_state()["description"] == "e"
    for made in (button, again):
        made.close()


def test_a_tiny_widgets_traits_sync_both_ways_like_any_widget():
    class Counter(TinyWidget):
        _esm = module("export default {};")
        count = traitlets.Int(0).tag(sync=True)

    made = Counter()
    made.set_state({"count": 3})                    # what a browser's update does
    assert made.count == 3 and made.get_state()["count"] == 3
    made.close()
