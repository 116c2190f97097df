"""Is this kernel under JupyterHub with a class service, and its client of that service.

The learner's server under JupyterHub has `JUPYTERHUB_API_TOKEN` and `CARTAS_SERVICE_URL` set;
then `hub_classroom()` is this kernel's one client of the class service (`classroom.remote`,
imported only then), and `hub_user()` the hub user. `classroom.open()` asks this once.
"""
from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .remote import RemoteClassroom

_remote: dict[tuple[str, str], RemoteClassroom] = {}
_remote_lock = threading.Lock()


def hub_configured(environ=None) -> bool:
    """True when this process runs under JupyterHub with a class service to ask (asked by every
    page: the HTTP client, `remote`, is imported only then)."""
    environ = os.environ if environ is None else environ
    return bool(environ.get("JUPYTERHUB_API_TOKEN", "").strip() and environ.get("CARTAS_SERVICE_URL", "").strip())


def hub_classroom() -> RemoteClassroom | None:
    """This kernel's client of the class service when it runs under JupyterHub, else None."""
    if not hub_configured():
        return None
    from . import remote
    key = (os.environ["CARTAS_SERVICE_URL"], os.environ["JUPYTERHUB_API_TOKEN"])
    with _remote_lock:
        client = _remote.get(key)
        if client is None:
            client = _remote[key] = remote.RemoteClassroom.from_environment()
        return client


def hub_user() -> str | None:
    """The hub user this kernel belongs to, under JupyterHub with a class service; else None."""
    client = hub_classroom()
    return client.hub_user or None if client is not None else None
