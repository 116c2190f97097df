"""Wait for the kernel to have handled what a page sent it, read from the page's own websocket.

A browser test that asserts that a click changed *nothing* (a second answer after the verdict,
a page that should not open a class) cannot wait for the change; a fixed sleep ("the kernel
answers well within 1.5 s") is either slow or, on a loaded machine, wrong. The kernel itself says
when it is done: each request a page sends on the shell channel (a widget's `comm_msg`, a click)
is answered on the iopub channel by `status: busy`, the handler's messages (widget updates) and
`status: idle`, whose parent is the request. Those frames pass through the page's websocket
(jupyter-server's binary "v1.kernel.websocket.jupyter.org" protocol: a count of offsets, the
offsets, then the channel, header, parent header, metadata, content and buffers).

    wire = kernel_wire.watch(page)      # before page.goto: the websocket opens with the page
    mark = wire.mark()
    page.click(...)
    wire.handled(page, mark)            # every request sent since `mark` answered idle, and the
                                        # browser has drawn what came before that idle

The `dashboard` fixture and `class_pages.open_page` watch every page they open (`of(page)`).
"""
from __future__ import annotations

import json
import time
import weakref

from playwright.sync_api import Error

_WIRES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

# The page's HTTP answers of 400 and more (its document's and every resource's), read from its
# resource timing when a diagnosis is asked: a listener on every response would hand each of a
# dashboard's ~100 answers to Python as it comes (~0.09 CPU-s a page, test process and driver).
ANSWERS_REFUSED = """() => [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
    .filter(e => e.responseStatus >= 400).map(e => `HTTP ${e.responseStatus} ${e.name.slice(0, 120)}`)"""

# two animation frames: the widget manager has applied the updates that came before the idle
PAINTED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def _parts(frame) -> tuple[str, dict, dict, dict] | None:
    """(channel, header, parent header, content) of a v1 frame; None for anything else."""
    if not isinstance(frame, (bytes, bytearray)) or len(frame) < 16:
        return None
    count = int.from_bytes(frame[:8], "little")
    if not 6 <= count <= 64:
        return None
    offsets = [int.from_bytes(frame[8 * (i + 1): 8 * (i + 2)], "little") for i in range(count)]
    try:
        channel = bytes(frame[offsets[0]:offsets[1]]).decode()
        header, parent, _metadata, content = (json.loads(bytes(frame[offsets[i]:offsets[i + 1]]) or b"{}")
                                              for i in range(1, 5))
    except (ValueError, UnicodeDecodeError, IndexError):
        return None
    return channel, header, parent, content


class KernelWire:
    """The shell requests a page sent its kernel, in order, and those the kernel has finished."""

    def __init__(self) -> None:
        self.sent: list[str] = []  # msg_id of each shell request, in the order sent
        self.said: list[str] = []  # the content of each, as JSON text
        self.finished: set[str] = set()  # msg_ids the kernel has reported idle for
        self.troubles: list[str] = []  # the page's console errors and warnings, failed requests

    def _trouble(self, text: str) -> None:
        self.troubles = [*self.troubles[-19:], text[:300]]

    def _console(self, message) -> None:
        if message.type in ("error", "warning"):
            self._trouble(f"console {message.type}: {message.text}")

    def diagnosis(self, page) -> str:
        """What went wrong on the page that a test can name (for a page that showed no view):
        its requests to the kernel, its console's errors, its failed requests and the answers
        of 400 and more it got (read from the page now: see `ANSWERS_REFUSED`)."""
        try:
            refused = page.evaluate(ANSWERS_REFUSED)
        except Error as error:
            refused = [f"(its answers unread: {str(error).splitlines()[0][:120]})"]
        troubles = [*self.troubles, *refused]
        return (f"{len(self.sent)} requests sent, {sum(m in self.finished for m in self.sent)} finished; "
                f"{' | '.join(troubles) or 'no console error, no failed request'}")

    def _watch(self, socket) -> None:
        if "/channels" not in socket.url:
            return
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)

    def _sent(self, frame) -> None:
        parts = _parts(frame)
        if parts and parts[0] == "shell" and parts[1].get("msg_id"):
            self.sent.append(parts[1]["msg_id"])
            self.said.append(json.dumps(parts[3]))

    def _received(self, frame) -> None:
        parts = _parts(frame)
        if (parts and parts[0] == "iopub" and parts[1].get("msg_type") == "status"
                and parts[3].get("execution_state") == "idle" and parts[2].get("msg_id")):
            self.finished.add(parts[2]["msg_id"])

    def mark(self) -> int:
        """Where the requests sent from now on start."""
        return len(self.sent)

    def handled(self, page, mark: int, containing: str | None = None, timeout: float = 60) -> None:
        """Wait until the page has sent at least one request since `mark` (one whose content's
        JSON holds `containing`, when given) and the kernel has finished every one of them;
        then until the browser has drawn what the kernel said."""
        deadline = time.monotonic() + timeout
        while True:
            since = self.sent[mark:]
            if (since and all(msg_id in self.finished for msg_id in since)
                    and (containing is None or any(containing in text for text in self.said[mark:]))):
                break
            if time.monotonic() > deadline:
                waiting = [m for m in since if m not in self.finished]
                raise AssertionError(f"the kernel did not finish the page's requests in {timeout:g} s "
                                     f"(sent {len(since)} since the mark, {len(waiting)} unfinished)")
            page.wait_for_timeout(20)  # lets Playwright deliver the websocket's frames
        page.evaluate(PAINTED)


def watch(page) -> KernelWire:
    """Start reading `page`'s kernel websocket (call before the page opens its kernel)."""
    wire = _WIRES.get(page)
    if wire is None:
        wire = _WIRES[page] = KernelWire()
        page.on("websocket", wire._watch)
        page.on("console", wire._console)
        page.on("requestfailed", lambda request: wire._trouble(f"failed {request.url[:120]}: {request.failure}"))
    return wire


def diagnosis(page) -> str:
    """The wire's diagnosis of a watched page; "" for a page not watched."""
    wire = _WIRES.get(page)
    return wire.diagnosis(page) if wire is not None else ""


def of(page) -> KernelWire:
    """The wire of a page opened by a watching fixture."""
    wire = _WIRES.get(page)
    if wire is None:
        raise AssertionError("this page's websocket is not watched: open it with kernel_wire.watch first")
    return wire
