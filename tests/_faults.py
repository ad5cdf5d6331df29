"""Running the workbench in a real process under a fault, and reading what it left on disk.

The faults: a file size limit (``RLIMIT_FSIZE``: a write past it fails with EFBIG, as on a
full disk), Ctrl-C sent to the whole process group (as a terminal sends it) at a chosen
moment, and a read-only folder (for root, whom permissions do not stop, a read-only bind
mount in a private mount namespace made with ``unshare``).
"""
from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
READY = "workbench-test: started"
# The command line as the console script runs it, plus one line on stderr once the package
# is imported, so a Ctrl-C can be timed from the moment the command's own code runs. With
# ``--python CODE`` it runs Python instead and reports a WorkbenchError or Ctrl-C in one line.
HARNESS = f"""
import sys
import workbench.cli as cli
from workbench.errors import WorkbenchError
sys.stderr.write({READY!r} + "\\n")
sys.stderr.flush()
if sys.argv[1:2] != ["--python"]:
    cli.entry(sys.argv[1:])
try:
    exec(sys.argv[2])
except WorkbenchError as exc:
    print(f"error: {{exc}}", file=sys.stderr)
    sys.exit(2)
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr)
    sys.exit(130)
finally:  # the work is over: a late Ctrl-C during shutdown cannot cut it (as cli.entry does)
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
"""
_READ_ONLY_MOUNT = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'


@dataclass
class Done:
    code: int
    out: str
    err: str
    seconds: float = 0.0   # from the command's start (the harness line) to its exit

    @property
    def last_line(self) -> str:
        lines = [line for line in self.err.splitlines() if line.strip() and line != READY]
        return lines[-1] if lines else ""

    def problem_lines(self) -> list[str]:
        """stderr without the harness line and progress bars (tqdm redraws with \\r)."""
        lines = []
        for line in self.err.replace("\r", "\n").splitlines():
            if line.strip() and line != READY and "it/s]" not in line and "point/s]" not in line \
                    and "section/s]" not in line and "%|" not in line:
                lines.append(line)
        return lines


def _preexec(fsize: int | None):
    def setup():
        signal.signal(signal.SIGINT, signal.SIG_DFL)   # a test runner may have it ignored
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return setup


def run(argv: list[str], cwd: Path, *, fsize: int | None = None, interrupt_after: float | None = None,
        interrupt_on: str | None = None, read_only: Path | None = None,
        timeout: float = 600, stop_with: int = signal.SIGINT) -> Done:
    """Run ``workbench ARGV`` in ``cwd``; with ``interrupt_after``, send SIGINT to its process
    group that many seconds after the command started (or let it finish if it is quicker);
    with ``interrupt_on``, as soon as stderr matches that regular expression; with
    ``read_only``, that folder cannot be written to during the run."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    command = [sys.executable, "-c", HARNESS, *argv]
    if read_only is not None and os.geteuid() == 0:
        command = ["unshare", "--map-root-user", "--mount", "sh", "-c", _READ_ONLY_MOUNT,
                   str(read_only), *command]
    elif read_only is not None:
        read_only.chmod(0o555)
    errors = cwd.parent / f".stderr-{os.getpid()}-{time.monotonic_ns()}"
    try:
        return _run(command, cwd, env, errors, fsize, interrupt_after, interrupt_on, timeout,
                    stop_with)
    finally:
        if read_only is not None and os.geteuid() != 0:
            read_only.chmod(0o755)


def _wait_for(pattern: str, errors: Path, process, deadline: float) -> None:
    while not re.search(pattern, errors.read_text(encoding="utf-8", errors="replace")):
        if process.poll() is not None or time.monotonic() > deadline:
            return
        time.sleep(0.02)


def _run(command, cwd, env, errors, fsize, interrupt_after, interrupt_on, timeout,
         stop_with) -> Done:
    with open(errors, "w+", encoding="utf-8") as stream:
        process = subprocess.Popen(command, cwd=cwd, env=env,
                                   stdout=subprocess.PIPE, stderr=stream, text=True,
                                   start_new_session=True, preexec_fn=_preexec(fsize))
        deadline = time.monotonic() + timeout
        try:
            _wait_for(re.escape(READY), errors, process, deadline)
            started = time.monotonic()
            if interrupt_on is not None:
                _wait_for(interrupt_on, errors, process, deadline)
            if interrupt_after is not None:
                time.sleep(interrupt_after)
            if (interrupt_after is not None or interrupt_on is not None) and process.poll() is None:
                if stop_with == signal.SIGINT:
                    os.killpg(process.pid, signal.SIGINT)   # as a terminal's Ctrl-C
                else:
                    process.send_signal(stop_with)   # as kill PID
            out, _ = process.communicate(timeout=timeout)
            seconds = time.monotonic() - started
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        stream.seek(0)
        err = stream.read()
    errors.unlink()
    return Done(process.returncode, out, err, seconds)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) and its bytes."""
    return {str(path.relative_to(folder)): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def leftovers(folder: Path) -> list[str]:
    """Temporary files a writer left behind (it must remove them on every failure)."""
    return [str(p.relative_to(folder)) for p in folder.rglob("*")
            if ".partial" in p.name and p.name.startswith(".") or p.name.startswith(".wb-probe")]
