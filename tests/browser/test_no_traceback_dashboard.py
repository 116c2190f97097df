"""No traceback leaves the kernel: every websocket frame a page receives is recorded while the
test sends the kernel crafted widget messages (a card pick the page could not send, a value of
the wrong type), and no frame carries "Traceback" or a file path. The crafted pick is refused
aloud on the page; the error the kernel could not apply is in the kernel error log."""
from __future__ import annotations

import json
import re
import time
import uuid

import pytest

from widgets.components.base import error_log_path

import kernel_wire
from serving import ROOT

pytestmark = pytest.mark.browser

# Kept before the page's scripts run: every websocket the page opens (the kernel's among them).
KEEP_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__cartasSockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__cartasSockets.push(this); }
  };
})();
"""

# A comm_msg "update" for one widget, sent on the kernel's shell channel as the page's own
# widget manager would send it (Jupyter's v1 websocket protocol, or JSON without it).
SEND_UPDATE = """
([commId, state]) => {
  const ws = window.__cartasSockets.find(s => s.url.includes("/channels") && s.readyState === 1);
  const header = {msg_id: crypto.randomUUID(), msg_type: "comm_msg", username: "learner",
                  session: crypto.randomUUID(), date: new Date().toISOString(), version: "5.3"};
  const content = {comm_id: commId, data: {method: "update", state, buffer_paths: []}};
  if (!ws.protocol.startsWith("v1")) {
    ws.send(JSON.stringify({header, parent_header: {}, metadata: {}, content, channel: "shell", buffers: []}));
    return;
  }
  const enc = new TextEncoder();
  const parts = [enc.encode("shell"), ...[header, {}, {}, content].map(p => enc.encode(JSON.stringify(p)))];
  const offsets = [8 * (parts.length + 2)];
  for (const part of parts) offsets.push(offsets[offsets.length - 1] + part.length);
  const frame = new Uint8Array(offsets[offsets.length - 1]);
  const view = new DataView(frame.buffer);
  view.setBigUint64(0, BigInt(offsets.length), true);
  offsets.forEach((offset, i) => view.setBigUint64(8 * (i + 1), BigInt(offset), true));
  let at = offsets[0];
  for (const part of parts) { frame.set(part, at); at += part.length; }
  ws.send(frame);
}
"""

LEAKS = re.compile(r'Traceback|File "[^"]*"|\.py", line|site-packages|' + re.escape(str(ROOT)))


class Frames(list):
    """Every frame a page receives, as text (binary frames decoded leniently); `messages`
    holds the Jupyter messages among them, parsed."""

    def __init__(self):
        super().__init__()
        self.messages: list[dict] = []

    def add(self, payload) -> None:
        if isinstance(payload, str):
            self.append(payload)
            try:
                self.messages.append(json.loads(payload))
            except ValueError:
                pass
            return
        data = bytes(payload)
        self.append(data.decode("utf-8", "replace"))
        try:  # Jupyter's v1 protocol: a count, offsets, the channel, then the message's parts
            count = int.from_bytes(data[:8], "little")
            offsets = [int.from_bytes(data[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
            parts = [data[offsets[i]:offsets[i + 1]] for i in range(1, min(count - 1, 5))]
            header, _parent, _metadata, content = (json.loads(part) for part in parts[:4])
            self.messages.append({"header": header, "content": content})
        except (ValueError, IndexError):
            pass


def recorded(page) -> Frames:
    """Every frame `page` receives from now on (see `Frames`)."""
    frames = Frames()
    page.on("websocket", lambda socket: socket.on("framereceived", frames.add))
    return frames


def widget_id(frames: Frames, dom_class: str) -> str:
    """The model id of the widget with `dom_class`, from the states the kernel sent the page."""
    for message in frames.messages:
        data = message.get("content", {}).get("data") or {}
        states = {key: value.get("state", {}) for key, value in (data.get("states") or {}).items()}
        if "state" in data:
            states[message["content"].get("comm_id")] = data["state"]
        for model, state in states.items():
            if dom_class in (state.get("_dom_classes") or []):
                return model
    raise AssertionError(f"no widget with class {dom_class} reached the page")


def open_recorded(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.set_default_timeout(60_000)
    page.add_init_script(KEEP_SOCKETS)
    frames = recorded(page)
    kernel_wire.watch(page)
    page.goto(url)
    page.wait_for_selector(".cartas-view", state="visible")
    return page, frames


def assert_no_leak(frames: Frames) -> None:
    leaks = [LEAKS.search(frame).group(0) for frame in frames if LEAKS.search(frame)]
    assert not leaks, f"{len(leaks)} frames carry {sorted(set(leaks))}"


def test_crafted_widget_messages_in_the_truco_game_leave_no_traceback_in_any_frame(browser, voila_url):
    # seed 6: she plays first, nobody calls truco before her card
    page, frames = open_recorded(browser, f"{voila_url}/voila/render/jogar_truco.ipynb?ritmo=0&lang=en&semente=6")
    try:
        page.locator(".cartas-hand-cards .cartas-pick-on").first.wait_for()
        picker = widget_id(frames, "cartas-hand-cards")
        marker = f"crafted-{uuid.uuid4().hex}"
        page.evaluate(SEND_UPDATE, [picker, {"picked": {"index": "x", "count": 99}}])
        page.locator(".cartas-field-error", has_text="no card there").wait_for()  # refused aloud, beside the moves
        mark = kernel_wire.of(page).mark()
        page.evaluate(SEND_UPDATE, [picker, {"picked": [marker]}])  # not a dict: the kernel cannot apply it
        deadline = time.monotonic() + 10
        while marker not in error_log_path().read_text(errors="replace") and time.monotonic() < deadline:
            time.sleep(0.2)
        assert marker in error_log_path().read_text(errors="replace")  # the server's log has it
        kernel_wire.of(page).handled(page, mark)  # every frame the kernel sent about it has arrived
        # the kernel's words about it never reach the page; ipywidgets' own echo of the state the
        # page sent (an "echo_update", to the page's other views) is the page's words, not the kernel's
        about = [m for m in frames.messages if marker in json.dumps(m)
                 and (m.get("content", {}).get("data") or {}).get("method") != "echo_update"]
        assert frames and about == [], about
        assert_no_leak(frames)
    finally:
        page.close()


def test_a_crafted_card_pick_at_a_21_table_is_refused_without_a_traceback(browser, voila_url):
    page, frames = open_recorded(browser, f"{voila_url}/voila/render/mesa.ipynb?lang=en&ritmo=0&semente=7")
    try:
        box = page.locator(".cartas-mesa-name input")
        box.fill("Ana")
        box.press("Enter")
        page.locator(".cartas-mesa-game select").select_option(label="21 (vinte-e-um)")
        page.locator(".cartas-mesa-create").click()
        page.locator(".cartas-mesa-code").wait_for()
        page.locator(".cartas-mesa-start").click()
        page.locator(".cartas-status [data-status='playing']").wait_for()
        picker = widget_id(frames, "cartas-hand-cards")
        # no card is drawn at a 21 table, and the crafted pick names no drawing either
        mark = kernel_wire.of(page).mark()
        page.evaluate(SEND_UPDATE, [picker, {"picked": {"index": 0, "count": 7}}])
        page.locator(".cartas-error", has_text="the table moved on").wait_for()
        kernel_wire.of(page).handled(page, mark)  # every frame the kernel sent about it has arrived
        assert_no_leak(frames)
        assert "Something went wrong" not in page.content()
    finally:
        page.close()
