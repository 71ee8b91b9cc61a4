"""The engine's evaluation: what a position is worth to the side to move.

`Evaluation(variant)` derives every table once, from the variant's
compiled moves on the empty board; `evaluate(position)` then only reads
them, so a quiescence node whose evaluation already fails high generates
no move at all.  Scores are in centipawns for the side to move.

The terms: material (declared `value:` keys; a piece without one gets an
estimate from its average mobility on the empty board, on the scale of the
pieces that do declare theirs; royal pieces carry none, unless a side may
lose one and play on; pieces in hand count a tenth more than on the
board); placement (each piece's reach on the empty board from its cell, a
static stand-in for mobility); the advancement of promoting pieces, more
for passed ones; the royal piece's centrality, shelter and safety (the
enemy pieces that attack its neighbourhood, the pieces in the enemy's
hand that may be dropped into it, its own pieces beside it), for a side
with one royal piece; a side's last pieces, where a bare royal piece
loses; the tempo.  The terms that differ between the middlegame and
the endgame are weighed by the material left besides promoting pieces,
pieces in hand included.
docs/engine.md lists them with their weights.
"""

from __future__ import annotations

from variantkit.core.position import Position
from variantkit.game import VariantFace
from variantkit.pieces import CAPTURE, MOVE, CellReach, piece_code, reach, span

PAWN = 100                  # centipawns
# Centipawns per cell a piece reaches on the empty board from where it
# stands: a static stand-in for mobility, which favours central cells.
PLACEMENT = 3
# Centipawns for having the move: the side to move is a tempo ahead.
TEMPO = 10
# The share of a promotion's gain that a promoting piece one move from its
# promotion region earns in the middlegame (twice that in the endgame); the
# bonus falls with the square of the distance.
ADVANCE = 0.08
# Centipawns per cell of the royal piece's two-move neighbourhood, above or
# below the board's mean: a penalty in the middlegame (a central king is
# exposed), a bonus in the endgame (a central king takes part).
KING_CENTRE = 3
# Centipawns per own promoting piece beside the royal piece, in the middlegame.
SHIELD = 10
# Centipawns per own other piece beside the royal piece, in the middlegame:
# a defender of its neighbourhood.
DEFENDER = 6
# The share of the attackers' worth that the royal piece's danger costs in
# the middlegame, by how many enemy pieces attack its neighbourhood (the
# royal piece's cell and the cells it reaches), counting the pieces in the
# enemy's hand when an empty cell of it awaits a drop: one attacker is seldom
# a threat, several together are (the last share holds for more).
ATTACK_SHARES = (0.0, 0.01, 0.04, 0.07, 0.09, 0.10, 0.11)
# The share of a promotion's gain that a passed promoting piece (no enemy
# promoting piece can reach its way to promotion) one move from its
# promotion region earns on top of its advancement in the middlegame (twice
# that in the endgame), falling with the square of the distance.
PASSED = 0.08
# Where a side left with royal pieces alone loses (`end: conditions: bare`,
# shatranj's bare king), what it costs a side to have no, one or two
# pieces besides its royal ones, in centipawns: the side ahead trades down
# towards baring the other, the side behind keeps its last pieces.
BARE_LAST = (300, 150, 50)
# The share of its value that a piece in hand is worth beyond it.
IN_HAND = 0.1
# Pawn-ish units per cell reached on the empty board, for estimated values
# when no piece of the variant declares one (the chess pieces give about 0.4).
MOBILITY_SCALE = 0.4
# Positions whose scores are kept, per side to move: a search meets many
# positions again (each iteration of its deepening, the next move's
# search); the store is emptied when full.
CACHE_LIMIT = 1 << 17


def reach_counts(variant: VariantFace, code: int) -> list[int]:
    """How many cells a piece (by code) reaches on the empty board from each
    cell, by all its moves (first-move-only ones aside)."""
    return [variant.rules.empty_board_reach(code, cell, initial=False).bit_count()
            for cell in range(variant.rules.board.size)]


def _bare_danger(left: int) -> int:
    """What a side with `left` pieces besides its royal ones loses, where a
    side left with royal pieces alone loses (`BARE_LAST`)."""
    return BARE_LAST[left] if left < len(BARE_LAST) else 0


def royals_may_fall(variant: VariantFace) -> bool:
    """Whether a side may lose a royal piece and play on (`check: all` or
    `check: last`): then a royal piece is material like any other."""
    royals = variant.rules.royals
    return royals.check_all or royals.check_last > 0


def mobility_values(variant: VariantFace) -> dict[str, float]:
    """Each valued piece's mean number of cells reached on the empty board,
    over every cell: every piece but the royal ones that cannot be lost."""
    out: dict[str, float] = {}
    royals_valued = royals_may_fall(variant)
    for t in variant.rules.pieces.types:
        if not t.royal or royals_valued:
            counts = reach_counts(variant, piece_code(t.index, 0))
            out[t.name] = sum(counts) / len(counts)
    return out


def piece_values(variant: VariantFace) -> dict[str, float]:
    """Each valued piece's value in pawns: declared, or estimated from its
    mobility on the scale of the declared values.  Royal pieces have none,
    unless a side may lose one and play on (Spartan chess's two kings):
    each is then worth what it reaches, as an estimated piece is."""
    mobility = mobility_values(variant)
    declared = {t.name: float(t.value) for t in variant.rules.pieces.types
                if t.name in mobility and t.value is not None}
    reached = sum(mobility[name] for name in declared)
    scale = sum(declared.values()) / reached if declared and reached else MOBILITY_SCALE
    return {name: declared.get(name, round(m * scale, 2)) for name, m in mobility.items()}


def promotion_distances(variant: VariantFace, code: int, region: int) -> list[int]:
    """How many moves a piece (by code) needs on the empty board to reach
    `region` from each cell: 0 inside it, -1 where it never does."""
    size = variant.rules.board.size
    reach = [variant.rules.empty_board_reach(code, cell, initial=False) for cell in range(size)]
    distance = [0 if region >> cell & 1 else -1 for cell in range(size)]
    reached, moves = region, 0
    while True:
        moves += 1
        found = 0
        for cell in range(size):
            if distance[cell] < 0 and reach[cell] & reached:
                distance[cell] = moves
                found |= 1 << cell
        if not found:
            return distance
        reached |= found


def advancement(distance: list[int], gain: int, share: float = ADVANCE) -> list[int]:
    """Centipawns a promoting piece earns on each cell by its distance to
    promotion: `share` of the `gain` one move away, falling with the square
    of the distance to nothing on the farthest cells."""
    farthest = max(distance)
    out = []
    for moves in distance:
        if moves <= 0:
            out.append(0)
        else:
            progress = (farthest - moves) / (farthest - 1) if farthest > 1 else 1.0
            out.append(round(share * gain * progress * progress))
    return out


def forward_closure(variant: VariantFace, code: int, region: int) -> list[int]:
    """The cells a promoting piece (by code) may walk to from each cell on
    the empty board by its moves that go to empty cells, again and again
    until it reaches `region`, its own cell included: its ways to
    promotion."""
    size = variant.rules.board.size
    steps = [0] * size
    for g in variant.rules.codes.generators[code]:
        if g.mode & MOVE and not g.initial:
            for cell in range(size):
                steps[cell] |= reach(g.tables[cell], 1 << cell)
    closure = []
    for cell in range(size):
        seen = frontier = 1 << cell
        while frontier:
            grown = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                if not low & region:
                    grown |= steps[low.bit_length() - 1]
            frontier = grown & ~seen
            seen |= frontier
        closure.append(seen)
    return closure


def capture_reach(variant: VariantFace, code: int, cell: int) -> int:
    """The cells a piece (by code) captures on from `cell` on the empty
    board (its first-move-only moves aside)."""
    found = 0
    for g in variant.rules.codes.generators[code]:
        if g.mode & CAPTURE and not g.initial:
            found |= reach(g.tables[cell], 1 << cell)
    return found


def full_span(tables: list[CellReach]) -> int:
    """Every cell that one cell's tables may reach, whatever the occupancy."""
    found = 0
    for table in tables:
        found |= span(table)
    return found


def attack_sources(spans: list[int], zones: list[int]) -> list[int]:
    """For each cell's zone in `zones`, the cells whose span (`spans`, per
    cell: every cell a piece standing there may ever capture on) meets it:
    where a piece may stand to attack that zone."""
    into = [0] * len(spans)  # per cell, the cells whose span holds it
    for source, cells in enumerate(spans):
        while cells:
            low = cells & -cells
            into[low.bit_length() - 1] |= 1 << source
            cells ^= low
    out = []
    for zone in zones:
        found = 0
        while zone:
            low = zone & -zone
            found |= into[low.bit_length() - 1]
            zone ^= low
        out.append(found)
    return out


def guarded(variant: VariantFace, codes: list[int]) -> list[int]:
    """For each cell, the cells that a promoting piece of `codes` standing
    there may stand on or capture on, wherever it walks to on its way to
    promotion."""
    size = variant.rules.board.size
    out = [0] * size
    for code in codes:
        promotion = variant.rules.promotion.promotions[code & 1].get(code)
        walks = forward_closure(variant, code, promotion.region if promotion else 0)
        captures = [capture_reach(variant, code, cell) for cell in range(size)]
        for cell in range(size):
            walked = cells = walks[cell]
            while walked:
                low = walked & -walked
                walked ^= low
                cells |= captures[low.bit_length() - 1]
            out[cell] |= cells
    return out


def stoppers(variant: VariantFace, code: int, region: int, guards: list[int]) -> list[int]:
    """For a promoting piece (by code) on each cell, the cells from which an
    enemy promoting piece may stop it (`guards`, from `guarded`): on its
    way to `region`, or walking forward to a cell where it stands on that
    way or captures on it.  Without enemy promoting pieces on them, the
    piece is passed."""
    size = variant.rules.board.size
    ways = forward_closure(variant, code, region)
    return [sum(1 << enemy_cell for enemy_cell in range(size)
                if enemy_cell != cell and guards[enemy_cell] & ways[cell])
            for cell in range(size)]


def neighbourhood(variant: VariantFace, code: int) -> list[int]:
    """How many cells a piece (by code) reaches in one or two moves on the
    empty board from each cell: how central the cell is for it."""
    size = variant.rules.board.size
    reach = [variant.rules.empty_board_reach(code, cell, initial=False) for cell in range(size)]
    out = []
    for cell in range(size):
        near, cells = reach[cell], reach[cell]
        while cells:
            low = cells & -cells
            near |= reach[low.bit_length() - 1]
            cells ^= low
        out.append(near.bit_count())
    return out


class Evaluation:
    """The evaluation tables of one variant and the evaluation itself."""

    def __init__(self, variant: VariantFace) -> None:
        rules = variant.rules
        self.values = piece_values(variant)
        n_codes = rules.codes.n_codes
        # Centipawns per piece code, unsigned and signed (White positive).
        self.value = [0] * n_codes
        for t in rules.pieces.types:
            for side in range(2):
                self.value[piece_code(t.index, side)] = round(self.values.get(t.name, 0) * PAWN)
        self._valued = [code for code in range(2, n_codes) if self.value[code]]
        # Signed centipawns of a piece of each valued code on each cell: its
        # value and its placement (and its advancement, for promoting pieces).
        self.worth: list[list[int]] = [[] for _ in range(n_codes)]
        for code in self._valued:
            sign = -1 if code & 1 else 1
            self.worth[code] = [sign * (self.value[code] + PLACEMENT * count)
                                for count in reach_counts(variant, code)]
        # Pieces in hand count as material too (variants with `hands` only),
        # somewhat more than on the board: a drop may go to any cell.
        held = rules.hands
        self._hand_valued = [code for code in self._valued
                             if code in held.hand_codes[code & 1]] if held.has_hands else []
        self._hand_worth = [round(v * (1 + IN_HAND)) * (-1 if code & 1 else 1)
                            for code, v in enumerate(self.value)]
        self._init_terms(variant)

    def _init_terms(self, variant: VariantFace) -> None:
        """The evaluation's tables beyond material and placement, each
        derived from the variant's compiled moves: the advancement of
        promoting pieces, the game phase, the royal piece's place."""
        rules = variant.rules
        n_codes, size = rules.codes.n_codes, rules.board.size
        # Promoting pieces: signed centipawns per cell for their advancement
        # (counted again in the endgame), and the codes that are no such
        # piece, whose material tells the game phase.
        self._advance: list[list[int]] = [[] for _ in range(n_codes)]
        self._phase_weight = [0] * n_codes
        self._officers: list[list[int]] = [[], []]   # per side: the codes of the phase
        self._promoting: list[list[int]] = [[], []]  # per side
        # Passed promoting pieces: signed centipawns per cell, and per cell
        # the cells of the enemy promoting pieces that would stop them.
        self._passed: list[list[int]] = [[] for _ in range(n_codes)]
        self._stoppers: list[list[int]] = [[] for _ in range(n_codes)]
        for code in self._valued:
            side = code & 1
            promotion = rules.promotion.promotions[side].get(code)
            if rules.codes.royal_code[code]:
                continue   # a royal piece that may be lost: material, but no officer
            if promotion is None:
                self._phase_weight[code] = self.value[code]
                self._officers[side].append(code)
                continue
            self._promoting[side].append(code)
            gain = max((self.value[c] for c in promotion.choices), default=0) - self.value[code]
            if gain > 0:
                distance = promotion_distances(variant, code, promotion.region)
                bonus = advancement(distance, gain)
                sign = -1 if side else 1
                self._advance[code] = [sign * b for b in bonus]
                self.worth[code] = [w + sign * b
                                     for w, b in zip(self.worth[code], bonus, strict=True)]
                self._passed[code] = [sign * b for b in advancement(distance, gain, PASSED)]
        # A passed promoting piece: none of the enemy's promoting pieces
        # stands where it could stop it.
        guards = [guarded(variant, self._promoting[side]) for side in range(2)]
        for code in range(n_codes):
            if self._passed[code]:
                side = code & 1
                self._stoppers[code] = stoppers(variant, code,
                                                rules.promotion.promotions[side][code].region,
                                                guards[1 - side])
        start = variant.new_game().position
        self._phase_total = max(1, sum(self._phase_weight[code] * start.bb[code].bit_count()
                                       for code in range(n_codes)))
        # The royal piece: its centrality (its one- and two-move
        # neighbourhood against the board's mean), a penalty in the
        # middlegame and a bonus in the endgame, and its neighbours.  Read
        # wherever a side has one royal piece: always under `per-side: one`,
        # and, where a side may lose a royal piece of its only royal kind,
        # while it has one left (Spartan chess's Persians, and its Spartans
        # down to one king); `_lone_royal` then holds that kind's code per
        # side.  (Other games of several royal pieces, explosions' or a side
        # without any, go without these terms.)
        self._king_centre: list[list[int]] = [[0] * size, [0] * size]
        self._king_near: list[list[int]] = [[0] * size, [0] * size]
        kinds = [t for t in rules.pieces.types if t.royal]
        lone = not rules.royals.one_royal and len(kinds) == 1 and royals_may_fall(variant)
        self._king_terms = rules.royals.one_royal or lone
        self._lone_royal: list[int] = \
            [piece_code(kinds[0].index, side) for side in range(2)] if lone else []
        if self._king_terms:
            for t in kinds:
                for side in range(2):
                    code = piece_code(t.index, side)
                    near = neighbourhood(variant, code)
                    mean = sum(near) / size
                    sign = -1 if side else 1
                    self._king_centre[side] = [sign * round(KING_CENTRE * (n - mean)) for n in near]
                    self._king_near[side] = [rules.empty_board_reach(code, cell, initial=False)
                                             for cell in range(size)]
        # The royal piece's safety: the cells its attackers aim at, and each
        # valued piece's captures as tables to read under the position's
        # occupancy.  `attack_sources[code]` gives, for each cell of the
        # enemy's royal piece, the cells from which a piece of that code may
        # ever capture in its neighbourhood, whatever stands between (a
        # hopper reaches none on the empty board, but may through a
        # screen): only the pieces on them are read under the occupancy,
        # picked with one mask per code.
        self._king_zone = [[near | 1 << cell for cell, near in enumerate(self._king_near[side])]
                           for side in range(2)]
        self._capture_tables: list[list[list[CellReach]]] = [[] for _ in range(n_codes)]
        self.attack_sources: list[list[int]] = [[] for _ in range(n_codes)]
        for code in self._valued:
            tables = [g.tables for g in rules.codes.generators[code]
                      if g.mode & CAPTURE and not g.initial]
            if tables and self._king_terms:
                self._capture_tables[code] = tables
                spans = [full_span([t[cell] for t in tables]) for cell in range(size)]
                self.attack_sources[code] = attack_sources(spans,
                                                           self._king_zone[1 - (code & 1)])
        # Whether a side left with royal pieces alone loses (`BARE_LAST`).
        self._bare_loses = any(c.kind == "bare" and c.result == "loss"
                               for c in rules.end.conditions)
        # Scores of positions met before, per side to move, by placement
        # and hands (the position's hash): all the evaluation reads.
        self._cache: list[dict[int, int]] = [{}, {}]
        self.cache_limit = CACHE_LIMIT
        # The board's sums at the last position scored, and its pieces (by
        # code) they were summed from: the next position scored, most often
        # a few moves away in the search, is summed from them by the pieces
        # that differ alone, whatever rule moved, took or placed them.
        self._summed: list[int] = [0] * n_codes
        self._board_worth = 0     # signed worth (value, placement, advancement)
        self._board_advance = 0   # signed advancement, counted again in the endgame
        self._board_material = 0  # the material that tells the game phase

    def clear(self) -> None:
        """Forget the scores kept and the board's sums: the next position
        is summed whole."""
        self._cache = [{}, {}]
        self._summed = [0] * len(self._summed)
        self._board_worth = self._board_advance = self._board_material = 0

    def evaluate(self, position: Position) -> int:
        """`score(position)`, kept for the next time the position is met."""
        cache = self._cache[position.stm]
        known = cache.get(position.hash)
        if known is not None:
            return known
        found = self.score(position)
        if len(cache) >= self.cache_limit:
            cache.clear()
        cache[position.hash] = found
        return found

    def _board_sums(self, bb: list[int]) -> tuple[int, int, int]:
        """The board's signed worth, signed advancement and phase material
        for the pieces `bb` (the position's masks by code): those of the
        last position scored, changed by the pieces added and taken since."""
        summed, worth, advance, weight = self._summed, self.worth, self._advance, self._phase_weight
        total, extra_total, material = self._board_worth, self._board_advance, self._board_material
        for code in self._valued:
            pieces = bb[code]
            changed = pieces ^ summed[code]
            if not changed:
                continue
            summed[code] = pieces
            cell_worth, extra = worth[code], advance[code]
            added = changed & pieces
            taken = changed ^ added
            material += weight[code] * (added.bit_count() - taken.bit_count())
            while added:
                low = added & -added
                cell = low.bit_length() - 1
                total += cell_worth[cell]
                if extra:
                    extra_total += extra[cell]
                added ^= low
            while taken:
                low = taken & -taken
                cell = low.bit_length() - 1
                total -= cell_worth[cell]
                if extra:
                    extra_total -= extra[cell]
                taken ^= low
        self._board_worth, self._board_advance, self._board_material = \
            total, extra_total, material
        return total, extra_total, material

    def score(self, position: Position) -> int:
        """Material, placement, the advancement of promoting pieces (more
        for passed ones), the royal piece's place, shelter and safety, and
        the tempo, in centipawns for the side to move.  The terms that
        differ between the middlegame and the endgame are weighed by the
        material left besides promoting pieces, in hand too (all of it at
        the start: the middlegame)."""
        sources, capture_tables, value = self.attack_sources, self._capture_tables, self.value
        bb, side_bb = position.bb, position.side_bb
        royal = self._lone_royals(bb) if self._lone_royal else position.royal
        occupied = side_bb[0] | side_bb[1]
        # The promoting pieces of each side, which may stop the other's.
        promoting = [0, 0]
        for side in range(2):
            for code in self._promoting[side]:
                promoting[side] = promoting[side] | bb[code]
        # Each side's royal neighbourhood, and the worth and number of the
        # enemy pieces that attack it.
        zones = [0, 0]
        if self._king_terms:
            for side in range(2):
                if royal[side] >= 0:
                    zones[side] = self._king_zone[side][royal[side]]
        danger, attackers = [0, 0], [0, 0]
        score, endgame, material = self._board_sums(bb)
        middle = 0
        for code in self._valued:
            pieces = bb[code]
            if not pieces:
                continue
            enemy = 1 - (code & 1)
            passed = self._passed[code]
            if passed:
                stopped_by, enemy_promoting = self._stoppers[code], promoting[enemy]
                while pieces:
                    low = pieces & -pieces
                    cell = low.bit_length() - 1
                    if not stopped_by[cell] & enemy_promoting:
                        middle += passed[cell]
                        endgame += 2 * passed[cell]
                    pieces ^= low
            # Its pieces that may attack the enemy's royal neighbourhood,
            # read under the occupancy.
            if zones[enemy] and sources[code]:
                near = bb[code] & sources[code][royal[enemy]]
                zone, tables = zones[enemy], capture_tables[code]
                while near:
                    low = near & -near
                    cell = low.bit_length() - 1
                    hits = 0
                    for table in tables:
                        hits |= reach(table[cell], occupied)
                    if hits & zone:
                        danger[enemy] = danger[enemy] + value[code]
                        attackers[enemy] = attackers[enemy] + 1
                    near ^= low
        hands, hand_worth, weight = position.hands, self._hand_worth, self._phase_weight
        in_hand, hand_kinds = [0, 0], [0, 0]
        for code in self._hand_valued:
            held = hands[code]
            if held:
                score += hand_worth[code] * held
                material += weight[code] * held
                in_hand[code & 1] = in_hand[code & 1] + value[code] * held
                hand_kinds[code & 1] = hand_kinds[code & 1] + 1
        total = self._phase_total
        phase = min(material, total)
        if self._king_terms:
            shares, last = ATTACK_SHARES, len(ATTACK_SHARES) - 1
            for side in range(2):
                cell = royal[side]
                if cell >= 0:
                    centre = self._king_centre[side][cell]
                    middle -= centre
                    endgame += centre
                    near = self._king_near[side][cell]
                    shelter = (promoting[side] & near).bit_count()
                    beside = (side_bb[side] & near).bit_count()
                    safety = SHIELD * shelter + DEFENDER * (beside - shelter)
                    # Pieces in the enemy's hand threaten the empty cells
                    # of the neighbourhood, in proportion to how many there are.
                    zone = zones[side]
                    threat, count = danger[side], attackers[side]
                    if in_hand[1 - side]:
                        empty = (zone & ~occupied).bit_count()
                        if empty:
                            threat += in_hand[1 - side] * empty // zone.bit_count()
                            count += hand_kinds[1 - side]
                    safety -= round(threat * shares[min(count, last)])
                    middle += -safety if side else safety
        score += (middle * phase + endgame * (total - phase)) // total
        if self._bare_loses:
            score += _bare_danger(position.non_royal(1)) - _bare_danger(position.non_royal(0))
        return (-score if position.stm else score) + TEMPO

    def _lone_royals(self, bb: list[int]) -> list[int]:
        """Per side, the cell of its royal piece where it has one left,
        else -1 (several royal pieces guard each other, none is lost)."""
        cells = [-1, -1]
        for side in range(2):
            pieces = bb[self._lone_royal[side]]
            if pieces and not pieces & (pieces - 1):
                cells[side] = pieces.bit_length() - 1
        return cells

    def has_officers(self, position: Position, side: int) -> bool:
        """Whether `side` has a piece besides its royal and promoting ones."""
        bb = position.bb
        return any(bb[code] for code in self._officers[side])
