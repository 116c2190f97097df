"""A browser-side timer for views that refresh: the teacher's class view, a table's heartbeat.

The kernel never waits in a loop for a refresh: the page ticks, and only while it is visible.
"""

from __future__ import annotations

import traitlets

from widgets.components.tiny import TinyWidget, module

REFRESH_SECONDS = 5

_TICKER_ESM = """
function render({ model, el }) {
  el.style.display = "none";
  const timer = setInterval(() => {
    if (model.get("active") && document.visibilityState === "visible") {
      model.set("tick", model.get("tick") + 1);
      model.save_changes();
    }
  }, model.get("seconds") * 1000);
  return () => clearInterval(timer);
}
export default { render };
"""


class Ticker(TinyWidget):
    """A browser-side timer: while `active` and the page is visible, `tick` grows every
    `seconds`. The kernel only reacts to the ticks; it never waits in a loop."""

    _esm = module(_TICKER_ESM)
    tick = traitlets.Int(0).tag(sync=True)
    active = traitlets.Bool(False).tag(sync=True)
    seconds = traitlets.Int(REFRESH_SECONDS).tag(sync=True)
