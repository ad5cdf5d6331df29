"""``python -m workbench`` is the ``workbench`` command."""
from .cli import entry

entry()
