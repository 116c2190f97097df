"""Card pictures the learner clicks: a row of inline SVG cards drawn by a tiny anywidget.

The pictures come from `widgets.draw.svg`; this widget only draws them and reports which one was
picked. Disabled cards are dimmed and ignore clicks. Keyboard: Tab to a card, Enter or Space; after
a card is played the focus moves to the next card that can be played (or waits on the row while
the others play), never back to the page's top. A focused card shows an outline.
"""
from __future__ import annotations

import traitlets

from widgets.components.tiny import TinyWidget, module

_ESM = """
function render({ model, el }) {
  el.classList.add("cartas-picker");
  const pick = (index) => {
    const count = (model.get("picked").count || 0) + 1;
    model.set("picked", { index, count, drawing: model.get("drawing") });
    model.save_changes();
  };
  el.tabIndex = -1;  // holds the focus while no card can be played (never the page's body)
  const draw = () => {
    const hadFocus = el.contains(document.activeElement);
    el.replaceChildren();
    model.get("cards").forEach((card, index) => {
      const slot = document.createElement("div");
      slot.className = "cartas-pick" + (card.enabled ? " cartas-pick-on" : "") + (card.dim ? " cartas-pick-dim" : "");
      slot.innerHTML = card.svg;
      slot.title = card.label;
      // the button is named by its picture (an image named card.label), not by an aria-label
      // of its own: that would have to contain the picture's visible rank and suit (WCAG 2.5.3)
      const picture = slot.querySelector("svg");
      if (picture) {
        picture.setAttribute("role", "img");
        picture.setAttribute("aria-label", card.label);
        const title = picture.querySelector("title");
        if (title) title.textContent = card.label;
      } else {
        slot.setAttribute("aria-label", card.label);
      }
      slot.setAttribute("role", "button");
      slot.setAttribute("aria-disabled", card.enabled ? "false" : "true");
      if (card.enabled) {
        slot.tabIndex = 0;
        slot.addEventListener("click", () => pick(index));
        slot.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); pick(index); }
        });
      }
      el.appendChild(slot);
    });
    // after a card is played the focus goes to the next card to play, or stays on the row
    if (hadFocus) (el.querySelector(".cartas-pick-on") || el).focus();
  };
  model.on("change:cards", draw);
  draw();
}
export default { render };
"""

_CSS = """
.cartas-picker { display: flex; gap: 10px; align-items: flex-end; padding-top: 8px; }
.cartas-pick { opacity: 0.5; }
.cartas-pick-on { opacity: 1; cursor: pointer; transition: transform 0.1s; }
.cartas-pick-on:hover, .cartas-pick-on:focus { transform: translateY(-8px); }
.cartas-pick-on:focus-visible { outline: 3px solid #1565c0; outline-offset: 3px; border-radius: 8px; }
.cartas-picker:focus { outline: none; }
.cartas-pick-on.cartas-pick-dim { opacity: 0.6; }
"""


class CardPicker(TinyWidget):
    """A row of clickable cards.

    `cards`: one {"svg": str, "label": str, "enabled": bool} per card, drawn in order (`label`
    names the card's picture, and so its button, for a screen reader); an
    optional "dim": True draws an enabled card faded (clickable, but not the move to make now).
    A click on an enabled card sets `picked` to {"index": i, "count": n, "drawing": d} (the count
    changes on every click, so picking the same card twice still notifies; `drawing` is the
    `drawing` the browser held when the card was clicked: a view that numbers its drawings
    tells a click on an old one from a click on the cards now shown). `on_pick(callback)` calls
    `callback(index)`; `pick(index)` does from Python what a click does (tests, keyboard-free use).
    `picked` comes from the browser, so it is never trusted: the callback gets the index only
    when it is a whole number naming one of the cards drawn, and None otherwise (the view
    refuses it aloud); whether that card may be played now is the view's (the engine's) call.
    """

    _esm = module(_ESM)
    _css = module(_CSS)
    cards: traitlets.List[dict] = traitlets.List().tag(sync=True)
    picked: traitlets.Dict[str, int] = traitlets.Dict().tag(sync=True)
    drawing = traitlets.Int(0).tag(sync=True)

    def on_pick(self, callback) -> None:
        def picked(change) -> None:
            new = change["new"]
            index = new.get("index") if isinstance(new, dict) else None
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.cards):
                index = None
            callback(index)

        self.observe(picked, names="picked")

    def pick(self, index: int) -> None:
        if not 0 <= index < len(self.cards) or not self.cards[index]["enabled"]:
            raise ValueError(f"card {index} cannot be picked now")
        self.picked = {"index": index, "count": self.picked.get("count", 0) + 1, "drawing": self.drawing}
