"""The dice mechanics; a system's data file names one of them by ``kind``."""
from .bounce_pool import BouncePool
from .narrative import NarrativeDie
from .open_ended import OpenEndedPool
from .success_pool import SuccessPool

MECHANICS = {m.kind: m for m in (SuccessPool, BouncePool, OpenEndedPool, NarrativeDie)}

__all__ = ["MECHANICS", "SuccessPool", "BouncePool", "OpenEndedPool", "NarrativeDie"]
