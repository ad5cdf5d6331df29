"""The mechanics: ``pool`` (everything a data file can say) and ``narrative`` (Erzählspiel)."""
from .base import MAX_DICE, Mechanic
from .narrative import NarrativeDie
from .pool import PoolMechanic

__all__ = ["MAX_DICE", "Mechanic", "NarrativeDie", "PoolMechanic"]
