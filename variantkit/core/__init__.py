"""The position core.

One position of a variant's compiled `Rules` (variantkit.rules) as integers
(piece codes per cell, one bit mask per piece code and per side), its legal
moves from the compiled tables, make and unmake on a stack, and the attack
test.  It imports no later stage: the rules of play (`outcome`), the
notation and the faces build on its internal API, and the public `Game`
(variantkit.game) wraps it.

- `moves`: the internal move tuples and their kinds;
- `position`: `Position`, one royal piece per side and plain captures;
- `general`: `GeneralPosition`, the rules beyond those (no or several royal
  pieces, forced capture, explosions, counted checks, counted endings, ...),
  and whether a declared end condition holds;
- `conditions`: the tests on a position declared end conditions are made of;
- `flips`: pieces turning over (`flips:`), and the drops that rule allows.
"""
