"""Learners, classes and their progress, kept in a real store (SQLite or PostgreSQL).

Pure Python (sqlite3, psycopg 3); never imports Jupyter. Modules:
- `store`: connections, transactions and versioned migrations, shared with other components;
- `identity`: a learner's name, class code and browser id, cleaned; verified learners (device
  tokens, PINs, login cards) and the teacher's reset, merge and remove;
- `progress`: the progress tables (answers and per-lesson counters), the legacy JSON import;
- `classes`: classes with a learner code and a teacher key kept only as a hash;
- `homework`: assignments (tarefas) of a class and each learner's results (migration 5);
- `mastery`: the named skills, a level per learner and skill, Leitner boxes for review;
- `live`: the live class quiz (aula ao vivo): sessions, one answer per learner per question;
- `tables`: tables (mesas) shared by several learners;
- `service`: the class service for JupyterHub (the store behind the hub's login);
- `remote`: the classroom of a hub user, asked of that service over HTTP.
- `remote_tables`: the tables (mesas) of a hub user, asked of that service (her seat's view only).

One interface, two implementations: `progress.open_store()` (what the dashboards use) is the
store in this process on a laptop or Binder, and `hub_classroom()` under JupyterHub (the
server's `JUPYTERHUB_API_TOKEN` and `CARTAS_SERVICE_URL` set), whose kernels hold no
database credentials.
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
