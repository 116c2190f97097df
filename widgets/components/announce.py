"""What a screen reader says aloud: one polite `aria-live` region per view.

`Announcer` is a tiny anywidget drawing one visually hidden element
(`<div class="cartas-announce" role="status" aria-live="polite" aria-atomic="true">`) that
stays in the page for the view's whole life, so a screen reader hears every change of its text.

Decided rules:
- A view says its moves and the bots' moves itself (`View.announce(text)`, in the view's
  language: the engine's narration).
- Verdicts, refusals and messages are said without the view asking: the region watches its
  own view for a verdict (`.cartas-right`, `.cartas-wrong`, drawn by `verdict_html`), a refusal
  (`.cartas-error`, beside a control or in the message line) or a message (`.cartas-info`,
  `.cartas-ok`) that appears, and says its text. The text is the one the view drew, so it is
  in the view's language.
- The same sentence twice in a row is said twice (the region is emptied first).
- Long texts are cut to `MAX_CHARS`; the text is set with `textContent`, never as HTML.
"""
from __future__ import annotations

import anywidget
import traitlets

MAX_CHARS = 600  # a screen reader reads a sentence or two, not a whole log

_ESM = """
const MAX_CHARS = __MAX__;
const WATCHED = ".cartas-right, .cartas-wrong, .cartas-error, .cartas-info, .cartas-ok";
function render({ model, el }) {
  const region = document.createElement("div");
  region.className = "cartas-announce cartas-sr-only";
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  el.appendChild(region);
  const say = (text) => {
    text = (text || "").trim().slice(0, MAX_CHARS);
    if (!text) return;
    region.textContent = "";
    setTimeout(() => { region.textContent = text; }, 30);
  };
  model.on("change:said", () => say((model.get("said") || {}).text));
  // verdicts, refusals and messages drawn anywhere in this view
  let view = null;
  const seen = new WeakSet();
  const scan = (root) => {
    if (!(root instanceof Element)) return;
    const found = root.matches(WATCHED) ? [root] : Array.from(root.querySelectorAll(WATCHED));
    for (const e of found) {
      if (seen.has(e) || e.closest(".cartas-announce")) continue;
      seen.add(e);
      say(e.textContent);
    }
  };
  const observer = new MutationObserver((records) => {
    for (const r of records) r.addedNodes.forEach(scan);
  });
  const attach = () => {
    view = el.closest(".cartas-view");
    if (!view) { setTimeout(attach, 200); return; }
    view.querySelectorAll(WATCHED).forEach((e) => seen.add(e));
    observer.observe(view, { childList: true, subtree: true });
  };
  attach();
  return () => observer.disconnect();
}
export default { render };
""".replace("__MAX__", str(MAX_CHARS))


class Announcer(anywidget.AnyWidget):
    """The view's live region. `say(text)` makes a screen reader read `text`; `text` keeps the
    last sentence said (tests read it)."""

    _esm = _ESM
    said = traitlets.Dict().tag(sync=True)  # {"text": str, "count": n}: the count makes a repeat a change

    @property
    def text(self) -> str:
        return str(self.said.get("text", ""))

    def __init__(self, **kwargs):
        kwargs.setdefault("_dom_classes", ("cartas-announcer", "cartas-sr-only"))
        super().__init__(**kwargs)

    def say(self, text: str) -> None:
        text = " ".join(str(text).split())[:MAX_CHARS]
        if text:
            self.said = {"text": text, "count": int(self.said.get("count", 0)) + 1}
