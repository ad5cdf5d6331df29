"""One browser for many images: :func:`drawing_session`.

Starting Chromium takes longer than drawing an image (2-3 s against a few tenths), so the
callers that write many images (``workbench render`` over its pages, the Sphinx extension over
a build) draw them inside a session: its browser (a kaleido ``Kaleido``, driven through
kaleido's batch interface from an event loop in a thread of its own) starts with the first
image and closes when the session ends. A browser that cannot start is an error at once
(never a wait); after an error or Ctrl-C the image being drawn is finished, then the browser
closes, before the caller removes its temporary files, so no file is written afterwards.

Example:
    >>> with drawing_session():   # no image drawn: no browser started
    ...     in_session()
    True
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from typing import Any

PATIENCE = 120.0
"""Seconds to wait for the browser to start, or to finish an image before it is closed."""

_SESSION: dict[str, Any] = {"depth": 0, "pid": None, "browser": None}
"""How many :func:`drawing_session` blocks this process is inside, which process entered them
(a forked worker starts its own) and their browser, once started."""


@contextlib.contextmanager
def drawing_session():
    """Every PNG / SVG written inside the ``with`` block (by :func:`~.output.write_figures` and
    what calls it) shares one browser: it starts with the first image and closes when the
    block ends, also on an error or Ctrl-C. Sessions nest; the outermost one closes it."""
    if _SESSION["pid"] != os.getpid():   # entered in a parent before a fork: not this process's
        _SESSION.update(depth=0, pid=os.getpid(), browser=None)
    _SESSION["depth"] += 1
    try:
        yield
    finally:
        _SESSION["depth"] -= 1
        if _SESSION["depth"] == 0:
            close_browser()


def in_session() -> bool:
    """Whether this process is inside a :func:`drawing_session`."""
    return bool(_SESSION["depth"]) and _SESSION["pid"] == os.getpid()


def draw(specs: list[dict], options: dict[str, Any]) -> None:
    """Draw kaleido figure specs (``fig``, ``path``, ``opts``) with the session's browser,
    started with ``options`` (kaleido's own) if it is not running yet."""
    if _SESSION["browser"] is None:
        _SESSION["browser"] = _Browser(options)
    _SESSION["browser"].draw(specs)


def close_browser() -> None:
    """Close the session's browser (after the image it is drawing), if it runs."""
    browser, _SESSION["browser"] = _SESSION["browser"], None
    if browser is not None and _SESSION["pid"] == os.getpid():
        browser.close()


class _Browser:
    """A kaleido browser kept open, driven from an event loop running in a thread of its own
    (kaleido is asynchronous; the callers are not)."""

    def __init__(self, options: dict[str, Any]):
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="workbench-browser")
        self._thread.start()
        self._kaleido = None
        self._pending = None
        try:
            self._wait(self._start(options), PATIENCE)
        except BaseException:   # it could not start, or Ctrl-C while it starts: let it finish
            self.close()        # starting, then close it (its profile folder removed with it)
            raise

    async def _start(self, options: dict[str, Any]) -> None:
        import kaleido  # lazy: kaleido
        browser = kaleido.Kaleido(**options)
        await browser.__aenter__()   # opens Chromium; raises if it cannot start
        self._kaleido = browser

    def _wait(self, coroutine, timeout: float | None = None):
        self._pending = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return self._pending.result(timeout)

    def draw(self, specs: list[dict]) -> None:
        self._wait(self._kaleido.write_fig_from_object(specs, cancel_on_error=True))

    def close(self) -> None:
        """Let the image being drawn finish, then close the browser and its thread."""
        try:
            if self._pending is not None and not self._pending.done():
                with contextlib.suppress(BaseException):
                    self._pending.result(PATIENCE)
            if self._kaleido is not None:
                self._wait(self._kaleido.__aexit__(None, None, None), PATIENCE)
        finally:
            self._stop_loop()

    def _stop_loop(self) -> None:
        """Stop the loop after cancelling what still runs on it (a browser that failed to
        start leaves its watchdog waiting), so closing it leaves no task pending."""
        with contextlib.suppress(BaseException):
            asyncio.run_coroutine_threadsafe(_cancel_the_rest(), self._loop).result(PATIENCE)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(PATIENCE)
        if not self._thread.is_alive():
            self._loop.close()


async def _cancel_the_rest() -> None:
    """Cancel every other task of the running loop and wait until they have ended."""
    tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
