"""Waiting, inside one of Voilà's preheated kernels, for the learner's request.

A preheated kernel runs its notebook before anybody asks for it, and stops at the first cell
that needs the request (the URL's `?lang=` or `?cenario=`). When a learner's request takes
that kernel, Voilà's server sends the request's details (QUERY_STRING, SCRIPT_NAME,
SERVER_NAME...) as one JSON object over a websocket the kernel opened at
`<ws>://<VOILA_APP_IP>:<VOILA_APP_PORT><VOILA_WS_BASE_URL or VOILA_SERVER_URL>voila/query/<VOILA_KERNEL_ID>`,
and the kernel puts them into its environment.

Voilà ships a helper for this (`voila.utils.wait_for_request`), but importing it loads Voilà's
whole server stack into the kernel: about 46 MB and over a second of CPU for every pooled
kernel, which is most of what a pool of 30 costs. This module speaks the same small protocol
with the `websockets` client alone (about 1.5 MB).

Decided behaviour: the connection is given `OPEN_TIMEOUT` seconds to open; a server that
does not answer (busy, or gone) makes `wait_for_request` return False without touching the
environment, and the caller may try again. Once open, the wait lasts until the request comes.
"""
from __future__ import annotations

import json
import os

OPEN_TIMEOUT = 5.0


def query_url() -> str:
    """The websocket address of this kernel's request, from the variables Voilà sets."""
    protocol = os.environ.get("VOILA_WS_PROTOCOL", "ws")
    host = os.environ.get("VOILA_APP_IP", "127.0.0.1")
    port = os.environ.get("VOILA_APP_PORT", "8866")
    base = os.environ.get("VOILA_WS_BASE_URL", os.environ.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{host}:{port}{base}voila/query/{os.environ.get('VOILA_KERNEL_ID', '')}"


def wait_for_request(url: str | None = None) -> bool:
    """Block until the learner's request reaches this kernel, then put its details into
    `os.environ`. False (and nothing changed) when the server could not be reached or sent
    something other than a JSON object of strings."""
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    try:
        with connect(url or query_url(), open_timeout=OPEN_TIMEOUT) as socket:
            message = socket.recv()
    except (OSError, TimeoutError, WebSocketException):
        return False
    try:
        details = json.loads(message)
    except (TypeError, ValueError):
        return False
    if not isinstance(details, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                for k, v in details.items()):
        return False
    os.environ.update(details)
    return True
