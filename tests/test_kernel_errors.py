"""No traceback leaves the kernel: an unexpected error goes to the kernel error log (a file),
never to stdout or stderr, which the kernel forwards to every page it serves; and a crafted
widget value (a card pick the page could not have sent) is checked in the kernel and refused
aloud (docs: widgets.components.base, widgets.components.card_picker, widgets.pages.mesa.Mesa.play_card)."""
from __future__ import annotations

import logging
import os
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

from classroom import games
from classroom.identity import Learner
from classroom.tables import MemoryRepository, Tables
from widgets.components import base
from widgets.pages.manilhas import ManilhaExplorer
from widgets.pages.mesa import Mesa

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def error_log(tmp_path, monkeypatch):
    path = tmp_path / "kernel-errors.log"
    monkeypatch.setenv("CARTAS_ERROR_LOG", str(path))
    yield path
    monkeypatch.delenv("CARTAS_ERROR_LOG")
    base.error_log()  # back to the default file for the tests that follow


def raised(error: BaseException) -> BaseException:
    try:
        raise error
    except BaseException as caught:  # a real traceback to log
        return caught


def test_an_unexpected_error_goes_to_the_error_log_and_not_to_stderr(error_log, capfd):
    view = ManilhaExplorer(lang="en")
    view.show_error(raised(RuntimeError("boom in a callback")))
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    logged = error_log.read_text()
    assert "Traceback" in logged and "RuntimeError: boom in a callback" in logged
    assert "Something went wrong here" in view.message.value and "boom" not in view.message.value


def test_an_error_log_that_cannot_be_written_drops_the_record_silently(tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("CARTAS_ERROR_LOG", str(tmp_path))  # a folder: no file can be opened there
    try:
        ManilhaExplorer(lang="en").show_error(raised(RuntimeError("boom")))
        assert capfd.readouterr() == ("", "")
    finally:
        monkeypatch.delenv("CARTAS_ERROR_LOG")
        base.error_log()


def test_inside_a_kernel_every_logger_and_thread_writes_to_the_error_log_not_stderr(error_log, monkeypatch, capfd):
    monkeypatch.setattr(base, "_in_kernel", lambda: True)
    root, hook = logging.getLogger(), threading.excepthook
    try:
        base.error_log()
        # what the comm manager does with a widget message it could not apply
        logging.getLogger("Comm").error("Exception in comm_msg for %s", "abc", exc_info=raised(KeyError("index")))
        thread = threading.Thread(target=lambda: 1 / 0, name="worker")
        thread.start()
        thread.join()
        assert capfd.readouterr() == ("", "")
        logged = error_log.read_text()
        assert "Exception in comm_msg for abc" in logged and "KeyError: 'index'" in logged
        assert "uncaught exception in thread worker" in logged and "ZeroDivisionError" in logged
    finally:
        root.removeHandler(base._log_handler)
        threading.excepthook = hook
        logging.captureWarnings(False)


# Crafted card picks ----------------------------------------------------------------------
class FakeIdentity:
    def __init__(self, browser_id: str, name: str):
        self.current = Learner(browser_id, name, "")

    def on_change(self, callback):
        pass


def table(game: str) -> tuple[Mesa, Tables]:
    tables = Tables(MemoryRepository())
    view = Mesa(lang="en", tables=tables, identity=FakeIdentity("browser-ana", "Ana"), autopoll=False)
    view.seed = 3
    view.game.value = game
    view.create()
    view.start_button.click()
    return view, tables


def shown(view) -> str:
    """Every refusal the view shows: its message line and the slots beside its controls."""
    return view.message.value + "".join(slot.value for slot in view._error_slots.values())


def test_a_crafted_card_pick_on_a_21_table_is_refused_aloud(error_log):
    view, tables = table("21")
    version = tables.snapshot(view.client.code).version
    view.hand_cards.picked = {"index": 0, "count": 41, "drawing": version}  # no card is drawn at a 21 table
    assert isinstance(view.last_error, ValueError)  # not AttributeError: 'SeatView' ... 'hand'
    assert "there is no card there" in shown(view)
    view.guarded(view.play_card)(0)  # a pick that names a card, as if one were drawn
    assert isinstance(view.last_error, ValueError) and "there is no card there" in shown(view)
    assert tables.snapshot(view.client.code).version == version
    assert not error_log.exists() or "Traceback" not in error_log.read_text()


@pytest.mark.parametrize("picked", [{"index": -1, "count": 7}, {"index": "0", "count": 7}, {"index": 99, "count": 7},
                                    {"index": True, "count": 7}, {"count": 7}, {"index": None}])
def test_a_crafted_card_pick_at_a_truco_table_names_no_card_and_moves_nothing(picked):
    view, tables = table("paulista")
    snap = view.client.snap
    while snap.state.current_seat != 0:  # the bots move to the learner's turn
        snap.record["moved_at"] -= 10
        snap = tables.bot_move(snap)
    view.poll()
    version = tables.snapshot(view.client.code).version
    assert any(card["enabled"] for card in view.hand_cards.cards)
    view.hand_cards.picked = {**picked, "drawing": view.hand_cards.drawing}  # on the cards now shown
    assert isinstance(view.last_error, ValueError) and "there is no card there" in shown(view)
    view.hand_cards.picked = {"index": 0, "count": 8}  # a pick that names no drawing
    assert isinstance(view.last_error, ValueError) and "the table moved on" in shown(view)
    assert tables.snapshot(view.client.code).version == version


def test_a_crafted_card_pick_in_the_truco_game_names_no_card():
    from widgets.pages.jogar_truco import PlayTruco
    view = PlayTruco(seed=4, lang="en", delay=0)
    view.hand_cards.picked = {"index": "x", "count": 3}
    assert isinstance(view.last_error, ValueError) and "no card there" in shown(view)


def test_a_real_card_pick_still_plays_the_card():
    view, tables = table("paulista")
    snap = view.client.snap
    while snap.state.current_seat != 0:
        snap.record["moved_at"] -= 10
        snap = tables.bot_move(snap)
    view.poll()
    index = next(i for i, card in enumerate(view.hand_cards.cards) if card["enabled"])
    before = len(games.view(view.client.snap.state, 0).hand)
    view.hand_cards.pick(index)
    assert view.last_error is None
    assert len(games.view(tables.snapshot(view.client.code).state, 0).hand) == before - 1


# In a real kernel -------------------------------------------------------------------------
KERNEL_CODE = """
from widgets.pages.manilhas import ManilhaExplorer
from widgets.components.card_picker import CardPicker
import comm
view, picker = ManilhaExplorer(lang="en"), CardPicker()
kernel = get_ipython().kernel
cell = kernel.get_parent("shell")
message = {"header": {"msg_type": "comm_msg", "msg_id": "m-1", "session": "s", "username": "u",
                      "date": "", "version": "5.3"},
           "parent_header": {}, "metadata": {}, "buffers": [],
           "content": {"comm_id": picker.comm.comm_id,
                       "data": {"method": "update", "state": {"picked": ["crafted-marker"]}, "buffer_paths": []}}}
kernel.set_parent([], message, channel="shell")  # as the kernel does while it handles a widget message
comm.get_comm_manager().comm_msg(None, None, message)
kernel.set_parent([], cell, channel="shell")
print("applied")
"""


def run_in_kernel(code: str, env: dict) -> list[dict]:
    """Run `code` in a fresh ipykernel (stopped afterwards); every iopub message it sent.
    Runs in a thread of its own: jupyter_client wants an event loop of its own."""
    from jupyter_client.manager import KernelManager

    messages: list[dict] = []
    failure: list[BaseException] = []

    folder = tempfile.mkdtemp(prefix="cartas-kernel-")

    def run():
        # over IPC, in a folder of its own: a TCP port found free can be taken by another
        # worker's process before the kernel binds it
        manager = KernelManager(transport="ipc")
        manager.connection_file = os.path.join(folder, "kernel.json")
        try:
            manager.start_kernel(env={**os.environ, **env}, cwd=str(ROOT))
            client = manager.client()
            client.start_channels()
            try:
                client.wait_for_ready(timeout=60)
                client.execute(code)
                while True:
                    message = client.get_iopub_msg(timeout=60)
                    messages.append(message)
                    if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle" \
                            and any(m["msg_type"] == "execute_input" for m in messages):
                        break
            finally:
                client.stop_channels()
        except BaseException as error:  # raised again in the test's thread
            failure.append(error)
        finally:
            manager.shutdown_kernel(now=True)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=180)
    shutil.rmtree(folder, ignore_errors=True)
    if failure:
        raise failure[0]
    return messages


def test_in_a_kernel_a_widget_message_it_cannot_apply_sends_no_traceback_to_the_page(error_log):
    messages = run_in_kernel(KERNEL_CODE, {"CARTAS_ERROR_LOG": str(error_log), "PYTHONPATH": str(ROOT)})
    sent = [m for m in messages if m["msg_type"] in ("stream", "error")]
    assert [m["content"].get("text") for m in sent] == ["applied\n"]  # no traceback, no error message
    logged = error_log.read_text()
    assert "error while applying a widget message" in logged and "crafted-marker" in logged


def test_in_a_kernel_a_cell_error_is_still_reported():
    messages = run_in_kernel("from widgets.pages.manilhas import ManilhaExplorer\nManilhaExplorer(lang='en')\n1 / 0",
                             {"PYTHONPATH": str(ROOT)})
    assert [m["content"]["ename"] for m in messages if m["msg_type"] == "error"] == ["ZeroDivisionError"]
