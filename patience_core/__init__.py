"""patience: patience (solitaire) card games on the command line, with plugins for every game.

The package root exports what a game plugin needs to register itself: :data:`hookimpl`, the
marker for hook implementations (the pluggy project name, the marker name and the entry-point
group are all ``patience``). Everything else a plugin may use is in :mod:`patience_core.api`.
"""

from __future__ import annotations

import pluggy

__all__ = ["API_VERSION", "__version__", "hookimpl"]

__version__ = "0.1.0"

#: The version of the plugin API (:mod:`patience_core.api`); it changes only by adding.
API_VERSION = "1.1"

#: Marker for hook implementations in plugins: ``@hookimpl def patience_register_games(...)``.
hookimpl = pluggy.HookimplMarker("patience")
