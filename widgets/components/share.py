"""A link to share with a class: the full address, a copy button and a QR code for the projector.

The kernel does not know the address the browser used (Voilà, JupyterHub, Binder and a
teacher's laptop all serve the dashboards under different hosts and prefixes), so the browser
tells it: `ShareLink` is a small anywidget that reports `window.location.href` as `page`.

Decided rules:

- The kernel sets `path`, a link relative to the dashboard ("cenarios.ipynb?cenario=...").
  The full link (`url`) is `path` resolved against the page's address, the way a browser
  resolves a relative link; the page's own query (`?lang=en`) is dropped with it.
- Opened in JupyterLab rather than in Voilà (`.../lab/tree/...`, `.../doc/tree/...`), the full
  link points to the same notebook under `.../voila/render/...`, the dashboard a learner opens.
- Only an http(s) page address of at most `MAX_PAGE` characters is used; anything else leaves
  `url` empty, and the browser then shows its own resolution of `path` with no QR code.
- The QR code (`qr_svg`) encodes exactly `url`: drawn by segno (pure Python) in the kernel as
  inline SVG, black on white with the standard 4-module quiet zone, error correction level M,
  sized by CSS (about 300 px; a click enlarges it to most of the screen, for a projector).
  A link too long for a QR code (`MAX_QR` characters) gets none, and `qr_note` says why.
- The copy button uses `navigator.clipboard`; where that is refused (plain http, an old
  browser) it selects the link's text and tries `document.execCommand("copy")`, and says to
  press Ctrl+C if that also fails.
- The link reaches the page as an input's value and the labels as textContent, never as HTML.
"""
from __future__ import annotations

from urllib.parse import urljoin, urlsplit, urlunsplit

import segno
import traitlets

from widgets.components.i18n import every_key
from widgets.components.tiny import TinyWidget, module

MAX_PAGE = 2000
MAX_QR = 1200

TEXT = {
    "link": {"pt": "Link para os alunos", "en": "Link for the students"},
    "copy": {"pt": "Copiar link", "en": "Copy link"},
    "copied": {"pt": "Link copiado.", "en": "Link copied."},
    "select": {"pt": "Link selecionado: tecle Ctrl+C para copiar.", "en": "Link selected: press Ctrl+C to copy."},
    "qr": {"pt": "Aponte a câmera do celular para o código (clique para ampliar).",
           "en": "Point a phone's camera at the code (click to enlarge)."},
    "too_long": {"pt": "O link é longo demais para um código QR; compartilhe-o copiando.",
                 "en": "The link is too long for a QR code; share it by copying."},
}


def full_link(page: str, path: str) -> str:
    """The absolute link for `path` seen from the dashboard at `page` ("" if `page` is not an
    http(s) address of at most MAX_PAGE characters). See the module's rules."""
    if not isinstance(page, str) or not path or len(page) > MAX_PAGE:
        return ""
    parts = urlsplit(page)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    route = parts.path
    for editor in ("/lab/tree/", "/doc/tree/"):
        if editor in route:
            route = route.replace(editor, "/voila/render/", 1)
            break
    base = urlunsplit((parts.scheme, parts.netloc, route, "", ""))
    return urljoin(base, path)


def qr_svg(text: str) -> str:
    """Inline SVG of a QR code for `text` (level M, 4-module border, black on white), scaled by
    CSS through its viewBox; "" when `text` is empty or too long for a QR code."""
    if not text or len(text) > MAX_QR:
        return ""
    try:
        code = segno.make(text, error="m", micro=False)
    except segno.DataOverflowError:
        return ""
    svg = code.svg_inline(omitsize=True, dark="#000", light="#fff", border=4)
    return svg.replace("<svg ", '<svg role="img" class="cartas-qr-code" ', 1)


_ESM = r"""
function render({ model, el }) {
  el.classList.add("cartas-share-link");
  const row = document.createElement("div");
  row.className = "cartas-share-row";
  const label = document.createElement("b");
  const input = document.createElement("input");
  input.type = "text";
  input.readOnly = true;
  input.className = "cartas-full-link";
  input.addEventListener("focus", () => input.select());
  const copy = document.createElement("button");
  copy.type = "button";
  copy.className = "cartas-copy";
  const status = document.createElement("span");
  status.className = "cartas-copied";
  row.append(label, input, copy, status);
  const qr = document.createElement("div");
  qr.className = "cartas-qr";
  qr.title = "";
  const note = document.createElement("div");
  note.className = "cartas-qr-note";
  el.append(row, qr, note);

  const link = () => {
    if (model.get("url")) return model.get("url");
    const path = model.get("path");
    if (!path) return "";
    try { return new URL(path, window.location.href).href; } catch (e) { return path; }
  };
  const draw = () => {
    const labels = model.get("labels") || {};
    label.textContent = (labels.link || "") + ": ";
    copy.textContent = labels.copy || "Copy";
    input.value = link();
    input.setAttribute("aria-label", labels.link || "Link");  // the <b> beside it is not a <label>
    status.textContent = "";
    el.style.display = model.get("path") ? "" : "none";
    qr.innerHTML = model.get("qr_svg");  // drawn by segno in the kernel: paths only
    const code = qr.querySelector("svg");
    if (code) code.setAttribute("aria-label", `QR: ${labels.link || "Link"}`);
    note.textContent = model.get("qr_svg") ? (labels.qr || "") : (model.get("url") ? (labels.too_long || "") : "");
  };
  const selectIt = () => { input.focus(); input.select(); input.setSelectionRange(0, input.value.length); };
  copy.addEventListener("click", async () => {
    const labels = model.get("labels") || {};
    const text = link();
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = labels.copied || "";
      status.dataset.copied = "clipboard";
      return;
    } catch (e) { /* no clipboard here: select the text instead */ }
    selectIt();
    let done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    status.textContent = done ? (labels.copied || "") : (labels.select || "");
    status.dataset.copied = done ? "selection" : "selected";
  });
  qr.addEventListener("click", () => qr.classList.toggle("cartas-qr-big"));
  for (const name of ["path", "url", "qr_svg", "labels"]) model.on("change:" + name, draw);
  model.set("page", window.location.href);
  model.save_changes();
  draw();
}
export default { render };
"""

_CSS = """
.cartas-share-link { margin: 6px 0; font-size: 15px; }
.cartas-share-row { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; }
.cartas-full-link { flex: 1 1 420px; min-width: 280px; font-family: monospace; font-size: 14px;
  padding: 4px 6px; border: 1px solid #9e9e9e; border-radius: 4px; }
.cartas-copy { font: inherit; padding: 4px 12px; cursor: pointer; border: 1px solid #1565c0;
  background: #1565c0; color: white; border-radius: 4px; }
.cartas-copied { color: #1b5e20; }
.cartas-qr { margin-top: 8px; width: 300px; max-width: 100%; cursor: zoom-in; background: #fff; }
.cartas-qr svg { display: block; width: 100%; height: auto; shape-rendering: crispEdges; }
.cartas-qr.cartas-qr-big { position: fixed; z-index: 1000; inset: 0; margin: auto;
  width: min(92vh, 92vw); height: min(92vh, 92vw); cursor: zoom-out;
  box-shadow: 0 0 0 100vmax rgba(255, 255, 255, 0.97); }
.cartas-qr-note { color: #424242; font-size: 14px; margin-top: 4px; }
"""


class ShareLink(TinyWidget):
    """The full link, a copy button and a QR code; set `path` and `lang`, the browser does the rest."""

    _esm = module(_ESM)
    _css = module(_CSS)
    path = traitlets.Unicode("").tag(sync=True)
    page = traitlets.Unicode("").tag(sync=True)
    url = traitlets.Unicode("").tag(sync=True)
    qr_svg = traitlets.Unicode("").tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)
    lang = traitlets.Unicode("pt")

    def __init__(self, path: str = "", lang: str = "pt", **kwargs):
        super().__init__(path=path, lang=lang, labels=every_key(TEXT, lang), **kwargs)
        self._compose()

    @traitlets.observe("path", "page")
    def _on_address(self, _change) -> None:
        self._compose()

    @traitlets.observe("lang")
    def _on_lang(self, change) -> None:
        self.labels = every_key(TEXT, change["new"])

    def _compose(self) -> None:
        url = full_link(self.page, self.path)
        if url != self.url or (url and not self.qr_svg):
            self.qr_svg = qr_svg(url)
            self.url = url
