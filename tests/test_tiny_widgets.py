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
    """The hold's widget side, through ipywidgets' own hook (a real kernel: test_held_messages)."""
    import comm

    from cartas_server.kernel import HeldComm

    asked: list = []
    get_state = w.Widget.get_state

    def counted(self, key=None, drop_defaults=False):
        if key is None or key:  # hold_sync's exit asks for no key at all: nothing is made
            asked.append(key)
        return get_state(self, key, drop_defaults)
    monkeypatch.setattr(w.Widget, "get_state", counted)
    monkeypatch.setattr(later, "_holding", True)
    w.Widget.on_widget_constructed(later._open_held)
    try:
        button = w.Button(description="a")
        button.description = "b"
        with button.hold_sync():
            button.tooltip = "c"
    finally:
        w.Widget.on_widget_constructed(None)
    assert asked == [] and isinstance(button.comm, HeldComm) and button.comm.kernel is None
    assert _instances[button.model_id] is button
    made = set(_instances)
    states = w.Widget.get_manager_state()["state"]  # as the browser's request_states: no widget made meanwhile
    assert set(_instances) == made and {button.model_id, button.layout.model_id} <= set(states)
    assert states[button.model_id]["state"]["description"] == "b"
    assert states[button.model_id]["state"]["tooltip"] == "c"
    held = button.comm
    assert comm.get_comm_manager().comms.get(held.comm_id) is held  # the page's messages reach it
    button.close()                                  # publishes nothing, and is no longer reached
    assert button.comm is None and held.comm_id not in comm.get_comm_manager().comms


def test_a_tiny_widgets_traits_sync_both_ways_like_any_widget():
    class Counter(TinyWidget):
        _esm = module("export default {};")
        count = traitlets.Int(0).tag(sync=True)

    made = Counter()
    made.set_state({"count": 3})                    # what a browser's update does
    assert made.count == 3 and made.get_state()["count"] == 3
    made.close()
