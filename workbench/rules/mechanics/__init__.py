"""The mechanics: ``pool`` (everything a data file can say, :mod:`.pool`) and ``narrative``
(Erzählspiel, :mod:`.narrative`). :mod:`.pool` loads pydantic, so it is imported when the
first data file is read, not with ``import workbench``."""
from .base import MAX_DICE, Mechanic

__all__ = ["MAX_DICE", "Mechanic"]
