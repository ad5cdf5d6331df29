"""Every file the workbench writes is written whole or not at all.

A writer never opens its target directly: it writes a temporary file in the target's folder,
flushes it to disk, and renames it over the target in one step (:func:`replacing`). A full
disk, a crash, a kill or Ctrl-C therefore leaves the old file byte for byte (at most a hidden
``.NAME.*.partial`` file remains after a hard kill); a library that deletes its output on
an error (the image exporter does) only ever deletes the temporary file. An existing target
keeps its permissions.

:func:`check_target` looks at a target before any work starts, so a bad ``--out`` is one line
at once rather than an error after minutes of computing: an empty name, ``-``, a name ending in
``/``, a folder, a missing folder, a device or pipe (also behind a symlink), a read-only file
and a folder that cannot be written to are each refused with the option's name and what is
allowed. A symlink to a regular file writes that file (the link stays).

Example:
    >>> import tempfile, pathlib
    >>> page = pathlib.Path(tempfile.mkdtemp()) / "odds.md"
    >>> write_text(page, "| 1 die | 33.3% |\\n").name
    'odds.md'
    >>> write_text(page.parent, "x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.files.TargetError: out '...': is a folder; allowed: a file name such as '.../odds.rst'
"""
from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
from pathlib import Path
from typing import Iterator, Sequence

from .errors import WorkbenchError, shown

PARTIAL = ".partial"
"""What the name of a temporary file ends in (before the target's own suffix)."""

_REPLACED: list[str] = []


def replaced() -> list[str]:
    """The targets this process has replaced so far, as they were given, oldest first: a
    Ctrl-C that arrives after a command's file was renamed into place says so.

    Example:
        >>> import tempfile, pathlib
        >>> before = len(replaced())
        >>> _ = write_text(pathlib.Path(tempfile.mkdtemp()) / "odds.md", "| 1 die | 33.3% |\\n")
        >>> replaced()[before:][0].endswith("odds.md")
        True
    """
    return list(_REPLACED)


class TargetError(WorkbenchError):
    """A file that cannot be written: names the option, the path given, the problem and what
    is allowed. :meth:`named` gives the same error under another option's name (the command
    line's ``--out`` for a Python function's ``out``)."""

    def __init__(self, option: str, given: object, problem: str, allowed: str | None = None):
        self.option, self.given, self.problem, self.allowed = option, given, problem, allowed
        message = f"{option} {_shown_path(given)}: {problem}"
        super().__init__(message + (f"; allowed: {allowed}" if allowed else ""))

    def named(self, option: str) -> "TargetError":
        """This error, naming ``option`` instead (``--out`` rather than ``out``)."""
        return TargetError(option, self.given, self.problem, self.allowed)


def _shown_path(given: object) -> str:
    """A path as typed, quoted; cut only when it is very long (a path is what the user must
    recognise, so it is not cut as short as other values in messages)."""
    if isinstance(given, os.PathLike):
        given = os.fspath(given)
    text = repr(given)
    return text if len(text) <= 240 else shown(given)


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def check_target(path: "str | os.PathLike", option: str = "out", *,
                 suffixes: Sequence[str] = (), example: str = "odds.rst") -> Path:
    """The file ``path`` names, checked for writing before any work; symlinks are followed.

    Args:
        path: the file to write (it may exist: it is then replaced whole).
        option: how the caller names the path in errors (``--out`` on the command line).
        suffixes: allowed endings, lower case with the dot (``(".png", ".svg")``); empty: any.
        example: a file name shown in errors as what would do.

    Raises:
        TargetError: an empty name, ``-``, a name ending in ``/``, another suffix, a folder, a
            missing folder, a device, pipe or socket, a read-only file, a folder that cannot
            be written to.

    Example:
        >>> check_target("nodir/", "--out")
        Traceback (most recent call last):
        ...
        workbench.files.TargetError: --out 'nodir/': names a folder (it ends with '/'); allowed: a file name such as 'nodir/odds.rst'
    """
    text = _file_name(path, option, example)
    given = Path(text)
    if suffixes and given.suffix.lower() not in suffixes:
        raise TargetError(option, text, "has another ending",
                          "a file name ending in " + ", ".join(suffixes))
    real = Path(os.path.realpath(given))   # a link to a page: write the page, keep the link
    _check_what_is_there(given, real, text, option, example)
    _check_folder(given, real, text, option)
    return real


def _file_name(path: object, option: str, example: str) -> str:
    """The path as text, refused when it names no file: not a string or path, empty, a NUL
    character, ``-``, a name ending in ``/`` (or ``.``, ``..``)."""
    if isinstance(path, os.PathLike) and not isinstance(path, bytes):
        text = os.fspath(path)
    else:
        text = path
    if not isinstance(text, str):
        raise TargetError(option, path, f"is a {type(path).__name__}",
                          f"a file name such as {example!r}")
    if not text.strip():
        raise TargetError(option, text, "is empty", f"a file name such as {example!r}")
    if "\0" in text:
        raise TargetError(option, text, "contains a NUL character", f"a file name such as {example!r}")
    if text.strip() == "-":   # many programs' stdout; here it would make a file named '-'
        raise TargetError(option, text, "names no file (to many programs '-' means stdout)",
                          f"a file name such as {example!r} ('./-' for a file named '-')")
    if text.endswith(("/", os.sep)) or os.path.basename(text) in (".", ".."):
        folder = text.rstrip("/" + os.sep) or text
        raise TargetError(option, text, "names a folder (it ends with '/')" if text.endswith(("/", os.sep))
                          else "names a folder", f"a file name such as {str(Path(folder) / example)!r}")
    return text


def _check_what_is_there(given: Path, real: Path, text: str, option: str, example: str) -> None:
    """What the name holds now, if anything, must be a regular file that may be written
    (links followed): not a folder, a device, pipe or socket, nor read-only."""
    try:
        status = os.stat(given)   # follows links, also /proc's (/dev/stdout: a pipe, no path)
    except (FileNotFoundError, NotADirectoryError):   # a missing folder is said below
        return
    except OSError as exc:   # a loop of links, a name too long, a file used as a folder
        raise TargetError(option, text, f"cannot be written ({_reason(exc)})",
                          f"a file name such as {example!r}") from None
    if stat.S_ISDIR(status.st_mode):
        raise TargetError(option, text, "is a folder",
                          f"a file name such as {str(given / example)!r}")
    if not stat.S_ISREG(status.st_mode):
        what = "a link to " if given.is_symlink() else ""
        raise TargetError(option, text, f"is {what}a device, pipe or socket, not a file",
                          "a regular file (new or existing)")
    if not status.st_mode & stat.S_IWUSR or not os.access(real, os.W_OK):
        raise TargetError(option, text, "is read-only",
                          "a file that may be written (chmod u+w) or a new name")


def _check_folder(given: Path, real: Path, text: str, option: str) -> None:
    """The target's folder exists and a file can be made in it (tried: a probe file made
    and removed at once)."""
    folder = real.parent
    if not folder.is_dir():
        # a link whose target's folder is missing: say that folder (its own folder is there)
        named, link = ((str(folder), f" (it is a link to {os.readlink(given)!r})")
                       if given.is_symlink() else (str(given.parent), ""))
        problem = (f"{named!r} is a file, not a folder" if folder.exists()
                   else f"folder {named!r} does not exist") + link
        raise TargetError(option, text, problem, "a file in an existing folder")
    try:   # the one sure test of a folder (permissions, a read-only disk, a full inode table);
        with _signals_held():   # Ctrl-C or a kill between the two steps left the probe behind
            import tempfile   # lazy: tempfile (only a command that writes needs it)
            descriptor, probe = tempfile.mkstemp(dir=folder, prefix=".wb-probe-")
            os.close(descriptor)
            os.unlink(probe)
    except OSError as exc:
        raise TargetError(option, text, f"cannot write in folder {str(given.parent) or '.'!r} "
                          f"({_reason(exc)})", "a folder you may write to") from None


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)   # no /proc: read it by setting it (and put it back at once)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while the rename happens, so "renamed" and "said so" agree."""
    held = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _flush_to_disk(path: Path) -> None:
    with open(path, "rb") as stream:
        try:
            os.fsync(stream.fileno())
        except OSError as exc:   # a file system that cannot sync (some network and FUSE
            if exc.errno not in (errno.EINVAL, errno.ENOTSUP):   # mounts): the rename still
                raise                                            # replaces the file whole


def _flush_folder(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:   # some file systems cannot sync a folder; the rename is still atomic
        pass
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def replacing(path: "str | os.PathLike", option: str = "out", *,
              example: str = "odds.rst", output: bool = True) -> Iterator[Path]:
    """A temporary path in the target's folder; when the ``with`` block ends without an error,
    it is flushed to disk and renamed over the target. On any error or Ctrl-C the temporary
    file is removed and the target is left as it was.

    The temporary name ends in the target's suffix, so libraries that pick a format by suffix
    (image export) write the right one. ``output=False``: a file of the workbench's own (a
    cache), not a command's output, so :func:`replaced` does not list it.

    Raises:
        TargetError: the target cannot be written (see :func:`check_target`), or writing
            failed (a full disk, a file size limit): the target is unchanged.

    Example:
        >>> import tempfile, pathlib
        >>> page = pathlib.Path(tempfile.mkdtemp()) / "odds.csv"
        >>> with replacing(page) as scratch:
        ...     _ = scratch.write_text("pool,p\\n1,0.5\\n")
        >>> page.read_text()
        'pool,p\\n1,0.5\\n'
    """
    target = check_target(path, option, example=example)
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    mode = stat.S_IMODE(old.st_mode) if old else 0o666 & ~_umask()
    import tempfile   # lazy: tempfile (only a command that writes needs it)

    try:
        descriptor, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:60]}.",
                                            suffix=PARTIAL + target.suffix[:16])
        os.close(descriptor)
    except OSError as exc:
        raise TargetError(option, path, f"cannot be written ({_reason(exc)})") from None
    scratch = Path(name)
    done = False
    try:
        yield scratch
        if not scratch.is_file():
            raise TargetError(option, path, "the writer left no file")
        _flush_to_disk(scratch)
        with contextlib.suppress(OSError):   # a file system without permissions (FAT, SMB)
            os.chmod(scratch, mode)
        if old is not None and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
            with contextlib.suppress(OSError):   # only root may give a file away
                os.chown(scratch, old.st_uid, old.st_gid)
        with _signals_held():
            os.replace(scratch, target)
            done = True
            if output:
                _REPLACED.append(os.fspath(path))
        _flush_folder(target.parent)
    except OSError as exc:
        raise TargetError(option, path, f"cannot be written ({_reason(exc)}); the file is "
                          "unchanged" if old else f"cannot be written ({_reason(exc)})") from None
    finally:
        if not done:
            with contextlib.suppress(OSError):
                scratch.unlink()


class TargetExists(TargetError):
    """:func:`creating` found something under the name already (it is left as it was)."""


@contextlib.contextmanager
def creating(path: "str | os.PathLike", option: str = "out", *,
             example: str = "odds.rst") -> Iterator[Path]:
    """As :func:`replacing`, for a file that must be new: the name is taken first (created
    empty, only if nothing is there: a file, a folder, a link), so nothing that was there
    before, nor what another process puts there meanwhile, is ever replaced. On an error or
    Ctrl-C the name is given up again (no empty file stays behind).

    Raises:
        TargetExists: something is already under that name (untouched).
        TargetError: the file cannot be written (see :func:`replacing`).

    Example:
        >>> import tempfile, pathlib
        >>> mine = pathlib.Path(tempfile.mkdtemp()) / "points.csv"
        >>> _ = mine.write_text("the user's own")
        >>> with creating(mine) as scratch:  # doctest: +ELLIPSIS
        ...     _ = scratch.write_text("pool,p\\n")
        Traceback (most recent call last):
        ...
        workbench.files.TargetExists: out '...points.csv': exists already (left as it was); allowed: a new name
        >>> mine.read_text()
        "the user's own"
    """
    if isinstance(path, (str, os.PathLike)) and os.path.lexists(path):
        raise TargetExists(option, path, "exists already (left as it was)", "a new name")
    target = check_target(path, option, example=example)
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:   # put there since the look above
        raise TargetExists(option, path, "exists already (left as it was)", "a new name") from None
    except OSError as exc:
        raise TargetError(option, path, f"cannot be written ({_reason(exc)})") from None
    os.close(descriptor)
    done = False
    try:
        with replacing(path, option, example=example) as scratch:   # over our own empty file
            yield scratch
        done = True
    finally:
        if not done:
            with contextlib.suppress(OSError):
                target.unlink()


def write_bytes(path: "str | os.PathLike", data: bytes, option: str = "out", *,
                output: bool = True) -> Path:
    """Replace ``path`` with ``data``, whole or not at all (see :func:`replacing`; ``output``
    as there).

    Example:
        >>> import tempfile, pathlib
        >>> write_bytes(pathlib.Path(tempfile.mkdtemp()) / "x.bin", b"\\x00\\x01").stat().st_size
        2
    """
    with replacing(path, option, output=output) as scratch:
        with open(scratch, "wb") as stream:
            stream.write(data)
    return Path(path)


def write_text(path: "str | os.PathLike", text: str, option: str = "out", *,
               encoding: str = "utf-8") -> Path:
    """Replace ``path`` with ``text`` (line ends written as they are in ``text``), whole or
    not at all (see :func:`replacing`).

    Example:
        >>> import tempfile, pathlib
        >>> page = write_text(pathlib.Path(tempfile.mkdtemp()) / "odds.md", "a\\r\\nb\\n")
        >>> page.read_bytes()
        b'a\\r\\nb\\n'
    """
    return write_bytes(path, text.encode(encoding), option)


def copy_file(source: "str | os.PathLike", path: "str | os.PathLike", option: str = "out") -> Path:
    """Replace ``path`` with a copy of ``source``, whole or not at all."""
    import shutil   # lazy: shutil (only copies need it)

    with replacing(path, option) as scratch:
        shutil.copyfile(source, scratch)
    return Path(path)
