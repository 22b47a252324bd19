"""The root of zrec's error tree.

Every error zrec raises because of what a user wrote or asked for derives from
:class:`ZrecError`, so a program can catch them all in one place, and every such error
class is named ``...Error``.  The layers add their own branches:

- notation: :class:`~zrec.notation.errors.ZrecSyntaxError` and the JSON errors;
- rules: :class:`~zrec.rules.base.RulesError` with ``IllegalMoveError``,
  ``AmbiguousMoveError``, ``SetupError``, ``OptionError``, ``InputError`` and
  ``UnknownGameError``;
- play: :class:`~zrec.play.replay.ReplayError` (a record that cannot be replayed; an
  illegal move keeps its code and its legal moves);
- outputs: ``DiagramError``, ``PageError``, ``ConversionError``, ``OutputError``.

Each branch also keeps the built-in base it always had (``ValueError``, ``OSError``,
``LookupError``), so older callers that catch those still work.
"""

from __future__ import annotations


class ZrecError(Exception):
    """Base of every error zrec raises for a user's input or request."""
