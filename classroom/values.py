"""Values both classroom implementations give: the store in this process (`classroom.classes`)
and the class service's client under JupyterHub (`classroom.remote`). Kept apart so that the
client needs nothing of the store's code."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NewClass", "NotAllowed"]


class NotAllowed(PermissionError):
    """Wrong class code or teacher key."""


@dataclass(frozen=True)
class NewClass:
    code: str
    key: str
    title: str
