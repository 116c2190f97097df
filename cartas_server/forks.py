"""Kernels forked from a warm template process, for a class's Voilà server.

Every dashboard a learner opens gets a kernel of its own, and a kernel started as a new process
spends most of its start importing: Python, IPython, ipykernel, ipywidgets, numpy and the
lesson's own modules, about 0.6 s of CPU each time, the same work for every page. The
`ForkingProvisioner` (voila.json: `KernelProvisionerFactory.default_provisioner_name`
"cartas-forking") starts one *template* process per server that imports all that once, and
gets each kernel by `fork()` from it: the kernel starts with those modules already in memory
(shared with the template until written) and imports only what its lesson adds.

Decided rules:

- A kernel is forked only when it would have been exactly the kernel a new process makes: its
  command is this interpreter's `-m ipykernel_launcher ...`, and its environment equals the
  template's but for the request's own variables (`PER_KERNEL`: Voilà's, the request's, the
  browser's), which no preloaded module reads at import. Any other kernel is started as
  jupyter-client starts it (a new process), and so is every kernel while the template is
  still warming up, or when it failed, or took more than `ANSWER_SECONDS` to answer; a
  template that ended while importing is warmed again only `RETRY_SECONDS` later.
- The template forks only while it is one thread (a fork copies no other thread), and never
  after one of the modules it preloaded changed on disk since: it then says it is stale, that
  kernel starts as a new process and the next one warms a new template up (a teacher editing
  a lesson's code sees the change in the next page opened, as with new processes). A template
  that runs threads once its modules are imported (numpy's OpenBLAS, without
  `OPENBLAS_NUM_THREADS=1`) never forks, and no other is warmed for that environment.
- A forked kernel is what a new one is: its own session and process group (signals, interrupts
  and culling reach it and its children), the working directory (on `sys.path` as IPython puts
  it), `sys.argv` and environment it was given, its parent's pid in `JPY_PARENT_PID` (it ends
  when the template does), random generators seeded afresh, the comm targets ipywidgets
  registers when imported in a kernel (`KERNEL_EXTENSIONS`), and `/proc/<pid>/cmdline` and
  `environ` rewritten to its own (the template starts with room for them, `ROOM`), so that `ps`
  and every tool reading /proc see the kernel as it is.
- What a fork cannot make new: the kernels of one template share its seed of Python's string
  hashes (`PYTHONHASHSEED`), as kernels started with that variable set do.
- Only on Linux (a pidfd watches a process that is not the server's child); elsewhere every
  kernel starts as a new process.
- A template let go of (stale, failed, or the server's `close_template`) forks no more and ends
  once its kernels have: a class's running lessons never end for it. When the server ends, the
  template ends at once, and its kernels with it (ipykernel's parent poller), as a server's
  own kernels do.
- The provisioner watches a forked kernel (not its child) through a pidfd: `poll` says 0 once it
  has ended (its exit status goes to its parent, the template, which reaps it).
"""
from __future__ import annotations

import atexit
import ctypes
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from jupyter_client.provisioning import LocalProvisioner

TEMPLATE_MODULE = "cartas_server.forks"
# What every kernel imports before its first cell, then what the lessons import.
PRELOAD = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "IPython", "ipywidgets",
           "numpy", "cartas_server.kernel", "widgets.components.page")
PRELOAD_PACKAGES = ("widgets.pages",)  # every module of these too
# Preloaded modules that register with the running kernel when imported in one (ipywidgets:
# its comm targets, without which a page asks for each widget's state one message at a time);
# in the template there is no kernel, so a forked kernel loads them as IPython extensions.
KERNEL_EXTENSIONS = ("ipywidgets",)
# Environment variables set per kernel (the request, Voilà, jupyter-client), which may differ
# between a kernel and the template: prefixes, then whole names.
PER_KERNEL = ("VOILA_", "HTTP_", "SERVER_", "JPY_")
PER_KERNEL_NAMES = frozenset({"QUERY_STRING", "SCRIPT_NAME", "PATH_INFO", "KERNEL_ID"})
ROOM_VARIABLE = "CARTAS_KERNEL_ROOM"
ROOM = 32 * 1024  # bytes of environment kept for a kernel's own
ARGUMENTS_ROOM = 4096  # and of command line (Linux shows a page of a rewritten one)
ANSWER_SECONDS = 10.0
RETRY_SECONDS = 60.0  # after a template ended while importing (a lesson's module broken on disk)
CAN_FORK = sys.platform == "linux" and hasattr(os, "pidfd_open")  # Linux 5.3 and later


def _readable(fd: int, timeout: float | None) -> bool:
    """Whether `fd` is readable (a pidfd: its process ended) within `timeout` seconds (None:
    however long it takes). poll(2), which any descriptor number suits."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(None if timeout is None else timeout * 1000))


def per_kernel(name: str) -> bool:
    return name.startswith(PER_KERNEL) or name in PER_KERNEL_NAMES


def base_environment(env: dict[str, str]) -> dict[str, str]:
    """`env` without the per-kernel variables: what the template is started with."""
    return {k: v for k, v in env.items() if not per_kernel(k)}


class ForkedKernel:
    """The kernel process as jupyter-client's provisioner uses a `Popen`: poll, wait, signal.
    Its exit status is its parent's (the template's) to know: 0 here once it has ended."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int):
        self.pid = pid
        self.returncode: int | None = None
        try:
            self._pidfd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:  # ended (and reaped) already
            self._pidfd, self.returncode = None, 1

    def _ended(self, timeout: float | None) -> bool:
        if self._pidfd is None:
            return True
        if not _readable(self._pidfd, timeout):
            return False
        os.close(self._pidfd)
        self._pidfd = None
        self.returncode = 0
        return True

    def poll(self) -> int | None:
        return self.returncode if self._ended(0) else None

    def wait(self, timeout: float | None = None) -> int:
        if not self._ended(timeout):
            raise subprocess.TimeoutExpired(str(self.pid), timeout or 0)
        return self.returncode or 0

    def send_signal(self, signum: int) -> None:
        """As `Popen.send_signal`: nothing once the process has ended."""
        if self.poll() is not None or self._pidfd is None:
            return
        try:
            signal.pidfd_send_signal(self._pidfd, signum)
        except ProcessLookupError:  # it ended meanwhile
            pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def close(self) -> None:
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None

    __del__ = close


class Template:
    """The warm process kernels are forked from, as the server sees it: two pipes and a pid."""

    def __init__(self, env: dict[str, str]):
        self.env = env
        requests_read, self._requests = os.pipe()
        self._answers, answers_write = os.pipe()
        room = {ROOM_VARIABLE: " " * ROOM}
        self.process = subprocess.Popen(
            [sys.executable, "-m", TEMPLATE_MODULE, str(requests_read), str(answers_write), " " * ARGUMENTS_ROOM],
            env={**env, **room}, stdin=subprocess.DEVNULL, pass_fds=(requests_read, answers_write), cwd="/")
        os.close(requests_read)
        os.close(answers_write)
        self.ready = False
        self.failed = False
        self.unforkable = ""  # why no template of this environment can fork, once one said so
        self._lock = threading.Lock()
        self._buffer = b""

    def _line(self, timeout: float) -> dict[str, Any] | None:
        """The template's next answer, or None when none came within `timeout` seconds."""
        while b"\n" not in self._buffer:
            if not _readable(self._answers, timeout):
                return None
            chunk = os.read(self._answers, 4096)
            if not chunk:
                raise EOFError("the kernel template ended")
            self._buffer += chunk
            timeout = ANSWER_SECONDS
        line, self._buffer = self._buffer.split(b"\n", 1)
        answer: dict[str, Any] = json.loads(line)
        return answer

    def wait_ready(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the template to have imported what it preloads."""
        with self._lock:
            return self._wait_ready(timeout)

    def _wait_ready(self, timeout: float) -> bool:
        if not self.ready and not self.failed:
            try:
                answer = self._line(timeout)
            except (OSError, EOFError, ValueError):
                answer = {"failed": "no answer"}
            if answer is not None:
                self._answered(answer)
                self.ready = not self.failed
        return self.ready

    def _answered(self, answer: dict[str, Any]) -> None:
        """Note an answer that is no kernel: the template has ended, or will after its kernels."""
        if "pid" in answer or "ready" in answer or "refused" in answer:
            return
        self.unforkable = str(answer.get("unforkable", ""))
        self.failed = True
        self.close()

    def fork(self, args: list[str], cwd: str, env: dict[str, str]) -> int | None:
        """A kernel forked with these arguments (after `-m ipykernel_launcher`), or None when the
        template cannot give one now (the caller starts a new process)."""
        with self._lock:
            if not self._wait_ready(0):
                return None  # still importing, or failed
            try:
                os.write(self._requests, json.dumps({"args": args, "cwd": cwd, "env": env}).encode() + b"\n")
                answer = self._line(ANSWER_SECONDS) or {"failed": "no answer in time"}
            except (OSError, EOFError, ValueError):
                answer = {"failed": "no answer"}
            self._answered(answer)
            return int(answer["pid"]) if "pid" in answer else None  # "refused": this kernel only

    def close(self) -> None:
        """Let go of the template: it forks no more kernels, and ends once the ones it forked
        have (at once when it has none). A class's running kernels are never ended for it."""
        for fd in (self._requests, self._answers):
            try:
                os.close(fd)
            except OSError:
                pass
        self._requests = self._answers = -1
        _retired.append(self)

    def ended(self) -> bool:
        return self.process.poll() is not None


_retired: list[Template] = []  # templates let go of, waited for (reaped) once they end


_template: Template | None = None
_template_lock = threading.Lock()
_retry_at = [0.0]  # no template is warmed before then (monotonic seconds)


def current_template() -> Template | None:
    """This server's template, once a kernel has been asked for."""
    return _template


def close_template() -> None:
    """Let go of this server's template (`Template.close`); the next kernel warms a new one."""
    global _template
    with _template_lock:
        if _template is not None:
            _template.close()
        _template = None


atexit.register(close_template)


def forked_kernel(cmd: list[str], cwd: str, env: dict[str, str]) -> int | None:
    """The pid of a kernel for `cmd` forked from this server's template, or None (see the
    module's rules for when)."""
    global _template
    _retired[:] = [t for t in _retired if not t.ended()]
    if not CAN_FORK or cmd[:3] != [sys.executable, "-m", "ipykernel_launcher"]:
        return None
    base = base_environment(env)
    with _template_lock:
        if _template is not None and _template.failed:
            if _template.unforkable and _template.env == base:
                return None  # no template of this environment can fork: never warm another
            if not _template.ready:  # it ended while importing: try again in a while
                _retry_at[0] = time.monotonic() + RETRY_SECONDS
            _template = None
        if _template is None:
            if time.monotonic() < _retry_at[0]:
                return None
            _template = Template(base)
            return None  # warming up: this kernel starts as a new process
        template = _template
    if template.env != base:
        return None
    return template.fork(cmd[3:], cwd, env)


class ForkingProvisioner(LocalProvisioner):  # type: ignore[misc]
    """jupyter-client's local provisioner, whose kernels are forked from a warm template when
    they can be (module rules), else started as new processes."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any):
        env = kwargs.get("env")
        cwd = str(kwargs.get("cwd") or os.getcwd())
        pid = forked_kernel(cmd, cwd, dict(env)) if env is not None else None
        if pid is not None:
            try:
                process = ForkedKernel(pid)
            except OSError:  # no descriptor to watch it with (at the process's limit): not this one
                os.kill(pid, signal.SIGKILL)  # just forked, still the template's child: no other
                pid = None
        if pid is None:
            return await super().launch_kernel(cmd, **kwargs)
        self.process = process
        self.pid = self.pgid = pid
        self.cwd = cwd
        self.log.debug("Kernel %s forked from the template as process %d", self.kernel_id, pid)
        return self.connection_info

    async def cleanup(self, restart: bool = False) -> None:
        if isinstance(self.process, ForkedKernel):
            self.process.close()
        await super().cleanup(restart)


# ---------------------------------------------------------------------------------------------
# The template process: `python -m cartas_server.forks <requests fd> <answers fd> <room>`.


def _preload() -> None:
    import importlib
    import pkgutil

    for name in PRELOAD:
        importlib.import_module(name)
    for package in PRELOAD_PACKAGES:
        module = importlib.import_module(package)
        for info in pkgutil.iter_modules(module.__path__):
            importlib.import_module(f"{package}.{info.name}")


def _module_files() -> dict[str, float]:
    files = {}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if path:
            try:
                files[path] = os.stat(path).st_mtime
            except OSError:
                continue
    return files


def _stale(files: dict[str, float]) -> bool:
    for path, mtime in files.items():
        try:
            if os.stat(path).st_mtime != mtime:
                return True
        except OSError:
            return True
    return False


def _areas() -> tuple[int, int, int, int]:
    """This process's command line and environment areas (arg_start, arg_end, env_start,
    env_end, fields 48 to 51 of /proc/self/stat)."""
    fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
    arg_start, arg_end, env_start, env_end = (int(fields[n - 3]) for n in (48, 49, 50, 51))
    return arg_start, arg_end, env_start, env_end


def _write_area(start: int, end: int, data: bytes, fill: bytes) -> None:
    data = data[: end - start - 1] + b"\0"
    ctypes.memmove(start, data.ljust(end - start, fill), end - start)


def _encoded(strings: list[str], separator: bytes) -> bytes:
    return separator.join(s.encode("utf-8", "surrogateescape") for s in strings)


def _run_kernel(request: dict[str, Any]) -> int:
    """In the forked child: become the kernel the request describes and run it; its exit code."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
    signal.signal(signal.SIGINT, signal.default_int_handler)
    os.setsid()
    args = [str(a) for a in request["args"]]
    env = {str(k): str(v) for k, v in request["env"].items()}
    env["JPY_PARENT_PID"] = str(os.getppid())
    # the template's variables first, in its order (the same bytes at the same places in the
    # environment area, for any library that kept a pointer there), then the kernel's own
    own = [k for k in os.environ if k != ROOM_VARIABLE and k in env] + [k for k in env if k not in os.environ]
    os.chdir(str(request["cwd"]))  # IPython puts '' (this directory) on sys.path, as for any kernel
    os.environ.clear()  # the template's strings are no longer the environment's...
    os.environ.update(env)
    arg_start, arg_end, env_start, env_end = _areas()
    # ...so their area holds the kernel's own; the command line is written as setproctitle(3)
    # writes one (the area ends with no NUL: Linux reads it up to its first NUL)
    command = [sys.executable, "-m", "ipykernel_launcher", *args]
    _write_area(arg_start, arg_end, _encoded(command, b" ") + b"\0", b" ")
    _write_area(env_start, env_end, _encoded([f"{k}={env[k]}" for k in own], b"\0") + b"\0", b"\0")
    sys.argv = [sys.modules["ipykernel"].__path__[0] + "_launcher.py", *args]  # ipykernel_launcher.py
    import random

    import numpy

    random.seed()
    numpy.random.seed()
    from ipykernel.kernelapp import IPKernelApp

    app = IPKernelApp.instance()
    app.initialize()
    for name in KERNEL_EXTENSIONS:  # what their import did not do in the template
        app.shell.extension_manager.load_extension(name)
    app.start()
    return 0


_kernels: set[int] = set()  # in the template: the kernels it forked that have not ended


def _reap(signum: int, frame: Any) -> None:
    try:
        while True:
            pid = os.waitpid(-1, os.WNOHANG)[0]
            if not pid:
                return
            _kernels.discard(pid)
    except ChildProcessError:
        pass


def _linger(server: int) -> int:
    """The server let go of this template: end once its kernels have, or at once when the
    server itself has ended (the kernels, whose parent this is, then end too)."""
    while _kernels and os.getppid() == server:
        time.sleep(0.5)
    return 0


def _serve(requests_fd: int, answers_fd: int) -> int:
    """Preload, then fork a kernel for each request until the server's pipe closes (0) or a
    module changed; in a forked child, the kernel's exit code once it has run."""
    server = os.getppid()
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]  # as ipykernel_launcher does: a kernel's IPython adds its own directory
    # ipykernel reads JPY_PARENT_PID when it is imported: a forked kernel's parent is this process
    os.environ["JPY_PARENT_PID"] = str(os.getpid())
    _preload()
    files = _module_files()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a server's Ctrl-C ends it through its pipe
    signal.signal(signal.SIGCHLD, _reap)
    requests = os.fdopen(requests_fd, "rb", buffering=0)

    def answer(message: dict[str, Any]) -> None:
        os.write(answers_fd, json.dumps(message).encode() + b"\n")

    if len(os.listdir("/proc/self/task")) != 1:  # e.g. OpenBLAS's threads, numpy imported without
        answer({"unforkable": "the template runs threads once its modules are imported"})  # OPENBLAS_NUM_THREADS=1
        return 0
    answer({"ready": True})
    line = b""
    while True:
        chunk = requests.read(65536)
        if not chunk:
            return _linger(server)  # the server let go of this template, or ended
        line += chunk
        while b"\n" in line:
            text, line = line.split(b"\n", 1)
            request = json.loads(text)
            if _stale(files):
                answer({"stale": "a preloaded module changed on disk"})
                return _linger(server)
            if len(os.listdir("/proc/self/task")) != 1:
                answer({"unforkable": "the template is not single-threaded"})
                return _linger(server)
            room = sum(len(f"{k}={v}".encode()) + 1 for k, v in request["env"].items()) + 64
            if room > ROOM:
                answer({"refused": "the kernel's environment is larger than the room for it"})
                continue
            # no SIGCHLD between the fork and the kernel's count (a kernel ending at once)
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
            pid = os.fork()
            if pid == 0:
                requests.close()
                os.close(answers_fd)
                return _run_kernel(request)
            _kernels.add(pid)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
            answer({"pid": pid})


if __name__ == "__main__":
    sys.exit(_serve(int(sys.argv[1]), int(sys.argv[2])))
