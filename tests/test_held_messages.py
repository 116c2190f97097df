"""Under Voilà no widget message leaves a page's kernel before its browser comes
(`widgets.components.later.hold_messages_for_browser`; issue 18, item 8: every dashboard
light at class scale).

Each test starts a real kernel, runs a dashboard's visible cells as Voilà does, and reads
what the kernel published on iopub; then it does what Voilà's widget manager does when the
page arrives (open the "jupyter.widget.control" comm, send "request_states") and checks that
the answer holds every widget of the page, and that the kernel speaks normally from then on.
A lesson that deals at open answers with its hand dealt (`after_paint`), and the hold needs the
kernel of the environment (`cartas_server.kernel.CartasKernel`, issue 30, item 5): these tests
are what an upgrade of ipykernel or ipywidgets that broke a hook it relies on would fail.
"""
from __future__ import annotations

import json
import os
import queue
import uuid
from pathlib import Path

import pytest
from jupyter_client.manager import KernelManager

ROOT = Path(__file__).resolve().parents[1]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def visible_cells(name: str) -> list[str]:
    notebook = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())
    return ["".join(cell["source"]) for cell in notebook["cells"]
            if cell["cell_type"] == "code" and "remove-cell" not in cell["metadata"].get("tags", [])]


@pytest.fixture
def kernel(tmp_path):
    started = []

    def start(voila: bool, kernel_class: str | None = None):
        env = {**os.environ, "CARTAS_DB": str(tmp_path / "cartas.db"), "CARTAS_DATABASE_URL": "",
               "CARTAS_ERROR_LOG": str(tmp_path / "errors.log"), "QUERY_STRING": ""}
        env.pop("SERVER_SOFTWARE", None)
        if voila:
            env["SERVER_SOFTWARE"] = "voila/0.5"
        # over IPC, in this test's folder: a TCP port found free can be taken by another
        # worker's process before the kernel binds it (it failed a run so: "Address already in use")
        manager = KernelManager(kernel_name="python3", transport="ipc")
        manager.connection_file = str(tmp_path / f"kernel-{len(started)}.json")
        extra = [f"--IPKernelApp.kernel_class={kernel_class}"] if kernel_class else []
        manager.start_kernel(env=env, cwd=str(ROOT / "notebooks"), extra_arguments=extra)
        client = manager.client()
        client.start_channels()
        client.wait_for_ready(timeout=60)
        started.append((manager, client))
        return client

    yield start
    for manager, client in started:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def run(client, code: str) -> list[dict]:
    """Run `code`; every iopub message it caused, up to its idle status."""
    seen = []
    reply = client.execute_interactive(code, timeout=90, output_hook=seen.append)
    assert reply["content"]["status"] == "ok", reply["content"]
    return seen


def comm_messages(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["msg_type"].startswith("comm_")]


def ask_for_states(client, before: list | None = None) -> dict:
    """What the browser's widget manager does first: the widgets' states, from one request
    (`before` gets the messages the kernel published ahead of its answer)."""
    comm_id = uuid.uuid4().hex
    client.shell_channel.send(client.session.msg(
        "comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
        metadata={"version": "1.0.0"}))
    client.shell_channel.send(client.session.msg(
        "comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}}))
    while True:
        try:
            message = client.get_iopub_msg(timeout=30)
        except queue.Empty:
            raise AssertionError("the kernel never answered request_states") from None
        data = message["content"].get("data", {})
        if message["msg_type"] == "comm_msg" and data.get("method") == "update_states":
            return data["states"]
        if before is not None:
            before.append(message)


@pytest.mark.parametrize("name", ["truco_rodadas", "turma"])
def test_a_voila_page_sends_no_widget_message_until_its_browser_asks_for_the_states(kernel, name):
    client = kernel(voila=True)
    messages = [m for source in visible_cells(name) for m in run(client, source)]
    assert comm_messages(messages) == []  # 20-150 models and their first drawing: nothing sent
    views = [m["content"]["data"][WIDGET_VIEW]["model_id"] for m in messages
             if m["msg_type"] == "display_data" and WIDGET_VIEW in m["content"]["data"]]
    assert views, "the page displayed no widget"
    states = ask_for_states(client)
    assert set(views) <= set(states)
    children = {child.removeprefix("IPY_MODEL_") for state in states.values()
                for child in state["state"].get("children", [])}
    assert children and children <= set(states)  # every child the browser must draw is there
    # made when asked, whole: no widget's state is the empty one its held comm_open carried
    assert all(state["state"].get("_model_name") and state["state"].get("_view_module") is not None
               for state in states.values())
    assert any("export default" in state["state"].get("_esm", "") for state in states.values())
    # the browser is here: the kernel speaks as usual again, even when a view is made later
    later = run(client, "from widgets.components.base import View\nimport ipywidgets as w\n"
                        "View(lang='pt')\nlater = w.Button(description='x')\nlater.description = 'y'")
    kinds = [m["msg_type"] for m in comm_messages(later)]
    assert kinds.count("comm_open") >= 2 and "comm_msg" in kinds
    # and a widget made while the page was held updates the browser (a learner's click redraws)
    changed = run(client, "from ipywidgets import HTML, Widget\n"
                          "old = next(x for x in list(Widget.widgets.values()) if isinstance(x, HTML))\n"
                          "old.value = 'redrawn'\nprint(old.model_id)")
    model_id = next(m["content"]["text"].strip() for m in changed if m["msg_type"] == "stream")
    assert model_id in states
    assert [m for m in comm_messages(changed) if m["content"]["comm_id"] == model_id
            and m["content"]["data"].get("state", {}).get("value") == "redrawn"]


def printed(messages: list[dict]) -> str:
    return "".join(m["content"]["text"] for m in messages if m["msg_type"] == "stream")


def test_a_lesson_that_deals_at_open_answers_its_browser_with_the_hand_dealt(kernel):
    """The first deal waits for the browser (not made while the page's cells run) and is made
    before the kernel answers its "request_states": the learner's first paint shows the hand."""
    client = kernel(voila=True)
    for source in visible_cells("truco_mao"):
        run(client, source)
    waiting = printed(run(client, "from widgets.components import later\nprint(len(later._waiting))"))
    assert waiting.strip() == "1"  # the deal waits (its fallback is 20 s away)
    states = ask_for_states(client)
    shown = [state["state"]["value"] for state in states.values() if isinstance(state["state"].get("value"), str)]
    assert any("data-card=" in value for value in shown)  # the hand, in the answer itself
    assert printed(run(client, "print(len(later._waiting))")).strip() == "0"


def test_a_voila_page_in_a_kernel_not_cartas_own_holds_nothing(kernel):
    """Only `CartasKernel` tells when the browser came: in another kernel a held page would
    never come alive, so nothing is held there."""
    client = kernel(voila=True, kernel_class="ipykernel.ipkernel.IPythonKernel")
    assert printed(run(client, "print(type(get_ipython().kernel).__name__)")).strip() == "IPythonKernel"
    messages = [m for source in visible_cells("truco_rodadas") for m in run(client, source)]
    assert len([m for m in comm_messages(messages) if m["msg_type"] == "comm_open"]) > 20
    states = ask_for_states(client)
    assert states


def test_outside_voila_every_widget_message_is_sent_at_once(kernel):
    """JupyterLab builds widgets from their messages: nothing is held there."""
    client = kernel(voila=False)
    messages = [m for source in visible_cells("truco_rodadas") for m in run(client, source)]
    assert len([m for m in comm_messages(messages) if m["msg_type"] == "comm_open"]) > 20
