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

- `interface`: the one classroom interface, `Classroom` (a Protocol), and its implementations;
- `hub`: whether this kernel runs under JupyterHub with a class service, and its client.

One interface, two implementations: `classroom.open()` (what the dashboards use) gives the
`Classroom` of this kernel, chosen once: the store in this process on a laptop or Binder
(`interface.StoreClassroom`), or under JupyterHub (the server's `JUPYTERHUB_API_TOKEN` and
`CARTAS_SERVICE_URL` set) the class service's client (`interface.ServiceClassroom`), whose
kernels hold no database credentials.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from .hub import hub_classroom, hub_configured, hub_user

if TYPE_CHECKING:
    from .interface import Classroom

__all__ = ["hub_classroom", "hub_configured", "hub_user", "open"]

_opened: dict[int, Classroom] = {}
_opened_lock = threading.Lock()


def open() -> Classroom:
    """This kernel's classroom (see the module docstring): the class service's client under
    JupyterHub, else the store in this process (`classroom.progress.open_store`, which raises
    StoreUnavailable / StoreError). Chosen once for each: later calls give the same one."""
    from . import interface, progress
    client = hub_classroom()
    store = progress.open_store() if client is None else None
    source: object = client if client is not None else store
    with _opened_lock:
        found = _opened.get(id(source))
        if found is None:
            # the object it answers from is held by it, so its id is not reused while listed
            found = _opened[id(source)] = (interface.ServiceClassroom(client) if client is not None
                                           else interface.StoreClassroom(progress.open_store()))
        return found
