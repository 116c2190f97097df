"""Kernels forked from a warm template (cartas_server/forks.py): each is the kernel a new process
would have been, and a kernel the template cannot give so starts as a new process.

Real kernels, started through jupyter-client's AsyncKernelManager with the provisioner voila.json
names, and spoken to over their channels.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning import KernelProvisionerFactory

from cartas_server import forks

from loops import run_async

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
# What a kernel says of itself; a new process's answer and a forked one's must agree.
PROBE = """
import json as _j, os as _o, sys as _s, ipywidgets as _w
print(_j.dumps({"cwd": _o.getcwd(), "path": _s.path, "argv0": _s.argv[0], "argv": _s.argv[1:],
                "env": dict(_o.environ), "session": _o.getsid(0) == _o.getpid(),
                "parent": _o.getppid(), "shell": type(get_ipython()).__name__,
                "modules": sorted(m for m in _s.modules if m.startswith("cartas_server.forks")),
                "comm_targets": sorted(get_ipython().kernel.comm_manager.targets)}))
"""


def test_voila_json_names_the_forking_provisioner_and_the_package_registers_it():
    config = json.loads((ROOT / "voila.json").read_text())
    name = config["KernelProvisionerFactory"]["default_provisioner_name"]
    assert KernelProvisionerFactory.instance()._get_provisioner(name).load() is forks.ForkingProvisioner


@pytest.fixture
def forking(monkeypatch):
    """jupyter-client's provisioner factory choosing ours, and no template left behind."""
    factory = KernelProvisionerFactory.instance()
    monkeypatch.setattr(factory, "default_provisioner_name", "cartas-forking")
    forks.close_template()
    yield
    forks.close_template()


class Kernel:
    """A kernel started by an AsyncKernelManager, and its client."""

    def __init__(self, manager: AsyncKernelManager):
        self.manager = manager
        self.client = manager.client()

    @classmethod
    async def start(cls, tmp: Path, env: dict[str, str] | None = None, cwd: Path = NOTEBOOKS) -> Kernel:
        manager = AsyncKernelManager(kernel_name="python3", transport="ipc")
        manager.connection_file = str(tmp / f"kernel-{time.monotonic_ns()}.json")
        kernel_env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "VOILA_KERNEL_ID": "k",
                      "HTTP_X_CARTAS_BROWSER": "b" * 32, **(env or {})}
        await manager.start_kernel(env=kernel_env, cwd=str(cwd))
        kernel = cls(manager)
        kernel.client.start_channels()
        await kernel.client.wait_for_ready(timeout=60)
        return kernel

    @property
    def forked(self) -> bool:
        return isinstance(self.manager.provisioner.process, forks.ForkedKernel)

    @property
    def pid(self) -> int:
        return self.manager.provisioner.pid

    async def run(self, code: str) -> tuple[str, dict]:
        out = []

        def output(message):
            if message["msg_type"] == "stream":
                out.append(message["content"]["text"])
            elif message["msg_type"] == "error":
                out.append(message["content"]["ename"])

        reply = await self.client.execute_interactive(code, output_hook=output, timeout=60)
        return "".join(out), reply["content"]

    async def probe(self) -> dict:
        text, _ = await self.run(PROBE)
        return json.loads(text)

    async def stop(self) -> None:
        self.client.stop_channels()
        await self.manager.shutdown_kernel()


async def forked_kernel(tmp: Path, **keys) -> Kernel:
    """A kernel forked from the template (whose warming the first kernel asked for)."""
    template = forks.current_template()
    assert template is not None and template.wait_ready(60)
    kernel = await Kernel.start(tmp, **keys)
    assert kernel.forked
    return kernel


def gone(pid: int, timeout: float = 15) -> bool:
    """True once process `pid` has ended and been reaped (no zombie left)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not psutil.pid_exists(pid):
            return True
        time.sleep(0.05)
    return False


def test_a_forked_kernel_is_the_kernel_a_new_process_would_have_been(forking, tmp_path):
    async def scenario():
        new = await Kernel.start(tmp_path)  # the template warms up meanwhile
        assert not new.forked
        forked = await forked_kernel(tmp_path)
        try:
            was, got = await new.probe(), await forked.probe()
            template = forks.current_template().process.pid
            assert got["parent"] == template and was["parent"] == os.getpid()
            assert got["env"]["JPY_PARENT_PID"] == str(template)
            assert was["env"]["JPY_PARENT_PID"] == str(os.getpid())
            # the kernel's own: its connection file in argv, its request's variables
            assert got["argv"] == ["-f", forked.manager.connection_file]
            for answer in (was, got):
                del answer["parent"], answer["env"]["JPY_PARENT_PID"], answer["argv"]
            assert got == was  # cwd, sys.path, argv[0], environment, own session, shell
            assert got["cwd"] == str(NOTEBOOKS) and "" in got["path"] and got["session"]
            assert got["shell"] == "QuietShell" and got["modules"] == []
            assert {"jupyter.widget", "jupyter.widget.control"} <= set(got["comm_targets"])
            # what ps and /proc say is the kernel's own, not the template's
            process = psutil.Process(forked.pid)
            assert process.cmdline() == [sys.executable, "-m", "ipykernel_launcher", "-f",
                                         forked.manager.connection_file]
            environ = process.environ()
            assert environ["HTTP_X_CARTAS_BROWSER"] == "b" * 32 and forks.ROOM_VARIABLE not in environ
            assert environ["OPENBLAS_NUM_THREADS"] == "1"
        finally:
            await new.stop()
            await forked.stop()
        assert gone(forked.pid)  # shut down, and reaped by the template

    run_async(scenario())


def test_forked_kernels_draw_different_random_numbers_and_can_be_interrupted(forking, tmp_path):
    async def scenario():
        first = await Kernel.start(tmp_path)
        kernels = [await forked_kernel(tmp_path) for _ in range(2)]
        try:
            draws = [(await k.run("import random, numpy; print(random.random(), numpy.random.random())"))[0]
                     for k in kernels]
            assert draws[0] != draws[1]
            kernel = kernels[0]
            sleeping = kernel.client.execute("import time; time.sleep(60)")
            time.sleep(1)
            await kernel.manager.interrupt_kernel()  # SIGINT to its process group
            reply = await kernel.client.get_shell_msg(timeout=20)
            assert reply["parent_header"]["msg_id"] == sleeping
            assert reply["content"]["ename"] == "KeyboardInterrupt"
            for _ in range(50):  # ipykernel aborts what comes just after an error, for a moment
                text, content = await kernel.run("print('after')")
                if content["status"] != "aborted":
                    break
                time.sleep(0.1)
            assert (text, content["status"]) == ("after\n", "ok")
        finally:
            for k in (first, *kernels):
                await k.stop()

    run_async(scenario())


def test_a_kernel_with_another_environment_or_one_too_large_starts_as_a_new_process(forking, tmp_path):
    async def scenario():
        first = await Kernel.start(tmp_path)
        assert forks.current_template().wait_ready(60)
        other = await Kernel.start(tmp_path, env={"CARTAS_SOMETHING_ELSE": "1"})  # not per-kernel
        large = await Kernel.start(tmp_path, env={"HTTP_X_LARGE": "x" * forks.ROOM})
        try:
            assert not other.forked and not large.forked
            assert (await other.probe())["env"]["CARTAS_SOMETHING_ELSE"] == "1"
            assert (await large.probe())["env"]["HTTP_X_LARGE"] == "x" * forks.ROOM
            # the template goes on forking kernels with its environment
            forked = await forked_kernel(tmp_path)
            await forked.stop()
        finally:
            for k in (first, other, large):
                await k.stop()

    run_async(scenario())


def test_a_template_let_go_of_keeps_its_kernels_running_and_ends_after_them(forking, tmp_path):
    async def scenario():
        first = await Kernel.start(tmp_path)
        forked = await forked_kernel(tmp_path)
        template = forks.current_template()
        try:
            forks.close_template()
            time.sleep(1)
            assert not template.ended() and (await forked.run("print(6 * 7)"))[0] == "42\n"
            second = await Kernel.start(tmp_path)  # a new template warms up meanwhile
            assert not second.forked and forks.current_template() is not template
            await second.stop()
        finally:
            await first.stop()
            await forked.stop()
        assert gone(forked.pid)
        template.process.wait(15)  # it ended with its last kernel (the server reaps it)

    run_async(scenario())


SERVER = """
import json, os, sys
from jupyter_client.connect import write_connection_file
from cartas_server import forks

template = forks.Template(dict(os.environ, OPENBLAS_NUM_THREADS="1"))
assert template.wait_ready(60)
connection, _ = write_connection_file(sys.argv[1], transport="ipc", ip=sys.argv[1] + "-ipc")
kernel = template.fork(["-f", connection], sys.argv[2], dict(template.env))
print(json.dumps({"template": template.process.pid, "kernel": kernel}), flush=True)
sys.stdin.read()
"""


def test_when_the_server_ends_its_template_and_their_kernels_end_too(tmp_path):
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(tmp_path / "kernel.json"), str(NOTEBOOKS)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        pids = json.loads(server.stdout.readline())
        assert isinstance(pids["kernel"], int) and psutil.Process(pids["kernel"]).ppid() == pids["template"]
        time.sleep(1)
        server.kill()  # no goodbye: the server's pipe to the template closes as it dies
        server.wait()
        assert gone(pids["template"]) and gone(pids["kernel"])
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_a_template_running_threads_forks_nothing_and_no_other_is_warmed_for_its_environment(forking, tmp_path):
    async def scenario():
        threads = {"OPENBLAS_NUM_THREADS": "2"}  # OpenBLAS starts a thread as numpy is imported
        kernels = [await Kernel.start(tmp_path, env=threads)]
        template = forks.current_template()
        assert not template.wait_ready(60) and "threads" in template.unforkable
        try:
            for _ in range(2):
                kernels.append(await Kernel.start(tmp_path, env=threads))
                assert not kernels[-1].forked and forks.current_template() is template
            template.process.wait(15)  # it forked no kernel: it ended at once
        finally:
            for kernel in kernels:
                await kernel.stop()

    run_async(scenario())


def test_a_preloaded_module_changed_on_disk_makes_the_template_stale(tmp_path):
    module = tmp_path / "lesson_code.py"
    module.write_text("X = 1\n")
    files = {str(module): module.stat().st_mtime}
    assert not forks._stale(files)
    os.utime(module, (time.time() + 5, time.time() + 5))
    assert forks._stale(files)
    module.unlink()
    assert forks._stale(files)


def test_the_environment_without_the_requests_own_variables_is_the_templates():
    env = {"PATH": "/bin", "VOILA_KERNEL_ID": "k", "HTTP_X_CARTAS_BROWSER": "b", "QUERY_STRING": "lang=en",
           "SERVER_PORT": "1", "JPY_SESSION_NAME": "s", "OPENBLAS_NUM_THREADS": "1"}
    assert forks.base_environment(env) == {"PATH": "/bin", "OPENBLAS_NUM_THREADS": "1"}
