"""The page's own address, kept in step with where the learner is (`PageAddress`).

A share link (`widgets.components.share`) is an address for someone else; this one is the
page's own: once a learner has joined something (a live session's code), the page writes it in
its address bar, so that a reload, or the address copied from the bar, opens the page where
she is. `widgets.components.params` reads it back, checked like any other parameter.
"""
from __future__ import annotations

import traitlets

from widgets.components.tiny import TinyWidget, module

_ADDRESS_ESM = r"""
function render({ model, el }) {
  el.style.display = "none";
  const apply = () => {
    const wanted = model.get("query") || {};
    const params = new URLSearchParams(window.location.search);
    let changed = false;
    for (const [name, value] of Object.entries(wanted)) {
      const now = params.get(name);
      if (value && now !== value) { params.set(name, value); changed = true; }
      if (!value && now !== null) { params.delete(name); changed = true; }
    }
    if (!changed) return;
    const rest = params.toString();
    try {
      window.history.replaceState(window.history.state, "",
                                  window.location.pathname + (rest ? "?" + rest : "") + window.location.hash);
    } catch (e) { /* the address stays as it was */ }
  };
  model.on("change:query", apply);
  apply();
}
export default { render };
"""


class PageAddress(TinyWidget):
    """Keeps parameters of the page's own address in step with the kernel: `query` maps a
    parameter's name to its value ("" removes it); the browser writes them into its address
    bar with `history.replaceState` (no reload, no new history entry), so a reload, or the
    address copied from the bar, opens the page where the learner is. Other parameters
    (`?lang=`) are kept. The values are the kernel's own, already checked (a join code)."""

    _esm = module(_ADDRESS_ESM)
    query = traitlets.Dict().tag(sync=True)
