"""A browser-side timer for views that refresh: the teacher's class view, a table's heartbeat.

The kernel never waits in a loop for a refresh: the page ticks, and only while it is visible.
It stops ticking as the page unloads (a reload, leaving the page): Voilà disposes the kernel
connection on `beforeunload` while the old page still runs until the new one arrives, and a tick
then would be sent to nowhere ("Could not send widget sync message" in the console).
"""

from __future__ import annotations

import traitlets

from widgets.components.tiny import TinyWidget, module

REFRESH_SECONDS = 5

_TICKER_ESM = """
function render({ model, el }) {
  el.style.display = "none";
  let leaving = false;  // the page is going away: its kernel connection is (being) disposed
  const timer = setInterval(() => {
    if (!leaving && model.get("active") && document.visibilityState === "visible") {
      model.set("tick", model.get("tick") + 1);
      model.save_changes();
    }
  }, model.get("seconds") * 1000);
  const leave = () => { leaving = true; clearInterval(timer); };
  window.addEventListener("beforeunload", leave);
  window.addEventListener("pagehide", leave);
  return () => {
    clearInterval(timer);
    window.removeEventListener("beforeunload", leave);
    window.removeEventListener("pagehide", leave);
  };
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
