import pytest


@pytest.fixture(autouse=True)
def _session_progress(tmp_path, monkeypatch):
    """Exercise scores go to a temporary file, never to the learner's home."""
    monkeypatch.setenv("CARTAS_PROGRESS", str(tmp_path / "progress.json"))
