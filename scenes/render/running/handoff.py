"""Small named values that the tasks of one split render and the client pass each other while they
run: the plan streams what it has measured and says where the first part ends, the first part says
how far it has got and when it is free, the last part answers, the client says stop. Each name has
one meaning, put by one side (and the answer only once, see ``scenes.render.splitting``); readers look
(:meth:`Handoff.get`) or wait (:meth:`Handoff.wait`) and see the latest value, or ``None`` before
the first.

Two implementations, one per executor: files in a folder of this machine for the local process
pool, and Dask's ``Variable`` (kept by the scheduler, so workers need no shared file system).
Both are plain picklable handles, sent to the tasks as an argument.

>>> import tempfile
>>> handoff = FolderHandoff(tempfile.mkdtemp())
>>> handoff.get("end") is None
True
>>> handoff.put("end", 7); handoff.get("end")
7
>>> handoff.wait("stop", 0.05) is None, handoff.wait("end", 0.05)
(True, 7)
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path

__all__ = ["Handoff", "FolderHandoff", "DaskHandoff"]


class Handoff:
    """Named JSON-able values shared by the client and the tasks of one job."""

    def put(self, name: str, value) -> None:
        raise NotImplementedError

    def get(self, name: str):
        """The latest value put under ``name``, or ``None`` if there is none yet."""
        raise NotImplementedError

    def wait(self, name: str, timeout: float):
        """The value under ``name``, waiting up to ``timeout`` seconds for one to be put; ``None``
        if none came. On Dask the scheduler answers when the value is set, which costs far less
        than asking again and again (a worker waiting beside a render must not take its CPU); a
        folder is looked at every 10 ms, which costs microseconds."""
        raise NotImplementedError

    def discard(self, names: tuple[str, ...]) -> None:
        """Forget the values under ``names`` (the client, once the job's tasks are over)."""

    def for_thread(self) -> "Handoff":
        """This hand-off, usable from another thread of this process as well."""
        return self


class FolderHandoff(Handoff):
    """One JSON file per name in ``folder``, replaced atomically (a reader never sees half a
    value). Local processes only."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    def put(self, name: str, value) -> None:
        handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=f".{name}.")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(value, file)
        os.replace(temporary, self.folder / f"{name}.json")

    def get(self, name: str):
        try:
            return json.loads((self.folder / f"{name}.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None

    def wait(self, name: str, timeout: float):
        deadline = time.monotonic() + timeout
        while (value := self.get(name)) is None and time.monotonic() < deadline:
            time.sleep(0.01)  # a look at a local file costs microseconds
        return value

    def discard(self, names: tuple[str, ...]) -> None:
        for name in names:
            (self.folder / f"{name}.json").unlink(missing_ok=True)


class DaskHandoff(Handoff):
    """One ``distributed.Variable`` per name, ``prefix``-named. On a worker it uses the worker's
    client; the client passes its own (which is not pickled with the handle)."""

    def __init__(self, prefix: str, client=None):
        self.prefix = prefix
        self.client = client

    def __reduce__(self):
        return (DaskHandoff, (self.prefix,))

    def for_thread(self) -> "DaskHandoff":
        from distributed import get_client

        return DaskHandoff(self.prefix, self.client or get_client())  # a task's own thread finds the worker's client

    def _variable(self, name: str):
        from distributed import Variable, get_client

        return Variable(f"{self.prefix}-{name}", client=self.client or get_client())

    def put(self, name: str, value) -> None:
        self._variable(name).set(value)

    def get(self, name: str):
        return self.wait(name, 0)

    def wait(self, name: str, timeout: float):
        try:  # the scheduler answers when a value is set, or at the timeout: no polling
            return self._variable(name).get(timeout=timeout)
        except TimeoutError:
            return None

    def discard(self, names: tuple[str, ...]) -> None:
        for name in names:
            self._variable(name).delete()
