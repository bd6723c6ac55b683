"""How a game in play ends when something fails: the terminal closing (:class:`HangUp`), a
failing plugin told from patience's own errors (:func:`raised_by_plugin`), and the one line
that says the game is kept (:func:`game_kept_line`)."""

from __future__ import annotations

import sys

from patience_core.errors import CORE_MODULES, plugin_behind

__all__ = ["HangUp", "game_kept_line", "own_exit_by_default", "raised_by_plugin"]


class HangUp(BaseException):
    """The terminal of the game closed (SIGHUP, see :func:`~patience_core.play.hang_up_raises`):
    play saves the game and ends quietly with exit code 129, as at the end of input. Not an
    :class:`Exception`, so that no ``except Exception`` of a plugin swallows it, and the atomic
    writer, which removes its temporary file on any exception, cleans up after a write it
    interrupts."""


def raised_by_plugin(exc: BaseException, game_module: str) -> bool:
    """Whether ``exc`` was raised in the code of ``game``'s plugin, so that play names the plugin
    as failing: an installed plugin's code raised it (:func:`~patience_core.errors.plugin_behind`),
    or its traceback passes through the module of ``game``'s class or through code that is
    neither patience's (nor the libraries it uses) nor Python's own (a plugin that is not
    installed as a distribution). Otherwise the error is patience's own (a full disk under the
    output, a bug of patience), reported as every command reports it.

    :param game_module: the module of the game's class (``type(game).__module__``).
    """
    if plugin_behind(exc) is not None:
        return True
    tb = exc.__traceback__
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        top = module.split(".")[0]
        elsewhere = top not in CORE_MODULES and top not in sys.stdlib_module_names
        if module == game_module or elsewhere:
            return True
        tb = tb.tb_next
    return False


def own_exit_by_default(exc: BaseException) -> bool:
    """Whether ``exc`` is an exit to let through (patience's own ``SystemExit``), rather than a
    failing plugin's: a ``SystemExit`` raised by no installed distribution's code. The command
    line passes its own, finer rule (``patience_core.cli.own_exit``)."""
    return isinstance(exc, SystemExit) and plugin_behind(exc) is None


def game_kept_line(what: str, saved: bool, resume: str) -> str:
    """The one line that ends a game its plugin broke: ``what`` went wrong, whether the game is
    saved, and how to resume it."""
    state = "is saved" if saved else "could NOT be saved"
    return f"patience: error: {what}; your game {state}; resume with: {resume}"
