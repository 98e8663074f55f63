"""The territory game as the kanji article plays it, and simulated players for self-play.

Rules (the article's, with what it leaves open decided here):

- The board is a pool's kanji tiles. Two players, A first, alternate naming a dictionary jukugo
  made only of board kanji that uses at least one kanji nobody holds (``check_answer``'s rules).
- The mover takes every kanji of the word, the opponent's too (a *steal*): A holding 熱帯 and
  気圧 (4 kanji, B's margin -4), B answering 熱帯低気圧 takes all five: B 5, A 0, margin +5.
- A player's score is the number of kanji held; more wins, equal is a draw.
- A player who knows no legal word passes; the game ends when both pass in a row (*no known
  move*: neither player knows a legal word; the board may still hold words nobody knows) or
  after the move limit (*move limit*; passes do not count as moves).
- The move limit is the game's end rule, a config value (``limit``, 0: play to the end). Its
  default, 30, is not a rule of the article: the article's 思いつき variant shows the pool's
  words, n + m = 5 + 25 = 30 of them, "これなら...計30手で決着をつけることが可能" (showing
  them makes a 30-move game possible). It ends most games of the denser presets before either
  player runs out of words, so every self-play report gives the share of each end reason.
- *Hidden* compounds are legal words of the board that the pool does not show.

Players choose from the words they know (the shown words, plus the dictionary words of the
board at or above a Zipf floor, or all of them):

- ``greedy``: the move that gains the most margin now (kanji taken free + 2 x kanji stolen),
  ties broken by the seeded random stream;
- ``lookahead``: the move that leaves the best margin after the opponent's greedy reply (the
  ``width`` best immediate moves examined).

Pure: plain data and a seeded ``random.Random``; kanji are bits of a board-sized int.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from wordforge_cli.core.engine import OutOfBudget, describe
from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.core.rng import derive_seed
from wordforge_cli.kanji.dictionary import Dictionary
from wordforge_cli.kanji.pool import check_request, hidden_compounds, make_pool, pool_record

if TYPE_CHECKING:
    from wordforge_cli.kanji.pool import PoolRequest

SHOWN_ONLY = float("inf")  # a Zipf floor no hidden word reaches
MOVE_LIMIT = 30  # the article's 5 + 25 shown words: "計30手で決着" (see the module docstring)
NO_KNOWN_MOVE = "no known move"
LIMIT_END = "move limit"
KINDS = ("greedy", "lookahead")


@dataclass(frozen=True)
class Player:
    """A simulated player: how it chooses, and which words it knows."""

    kind: str = "greedy"
    min_zipf: float | None = None  # knows hidden words at or above this Zipf (None: all)
    width: int = 8                 # lookahead: immediate moves examined

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown player kind {self.kind!r} (one of {', '.join(KINDS)})")

    @property
    def name(self) -> str:
        floor = "" if self.min_zipf is None else (
            "@shown" if self.min_zipf == SHOWN_ONLY else f"@{self.min_zipf:g}")
        return f"{self.kind}{floor}"


def parse_player(text: str) -> Player:
    """``greedy``, ``lookahead``, ``greedy@3.5`` (knows hidden words of Zipf >= 3.5),
    ``greedy@shown`` (knows only the words the pool shows)."""
    kind, _, floor = text.strip().partition("@")
    if kind not in KINDS:
        raise ValueError(f"unknown player '{text}' (greedy, lookahead, optionally @ZIPF)")
    if floor == "shown":
        return Player(kind, SHOWN_ONLY)
    try:
        return Player(kind, float(floor) if floor else None)
    except ValueError:
        raise ValueError(f"'{text}': the Zipf floor after @ must be a number") from None


@dataclass(frozen=True)
class KanjiBoard:
    """A pool's board: kanji as bits, its legal words as masks."""

    kanji: tuple[str, ...]
    words: tuple[str, ...]         # every dictionary word made of board kanji (ascending id)
    masks: tuple[int, ...]
    shown: tuple[bool, ...]        # the pool lists the word
    zipf: tuple[float | None, ...]

    @property
    def full(self) -> int:
        return (1 << len(self.kanji)) - 1

    def taken(self, word: int, mask: int) -> str:
        """The kanji of ``mask`` in word ``word``, in the word's order (kept: the games of a
        pool take the same kanji again)."""
        key = (word, mask)
        hit = self._taken.get(key)
        if hit is None:
            hit = self._taken[key] = self.text(mask, self.words[word])
        return hit

    @cached_property
    def _taken(self) -> dict[tuple[int, int], str]:
        return {}

    @cached_property
    def _indexes(self) -> dict[tuple[int, ...], _Known]:
        """A vocabulary's words indexed by kanji (:class:`Index`), made once a board."""
        return {}

    @cached_property
    def _pos(self) -> dict[str, int]:
        """Kanji -> its bit (made once a board: every move's record reads it)."""
        return {ch: i for i, ch in enumerate(self.kanji)}

    def bits(self, text: Iterable[str]) -> int:
        pos = self._pos
        mask = 0
        for ch in text:
            mask |= 1 << pos[ch]
        return mask

    def text(self, mask: int, order: str | None = None) -> str:
        """The kanji of ``mask`` (in the order of ``order``, a word, when given)."""
        if order is not None:
            pos = self._pos
            return "".join(ch for ch in dict.fromkeys(order) if mask >> pos[ch] & 1)
        return "".join(ch for i, ch in enumerate(self.kanji) if mask >> i & 1)

    def known(self, player: Player, shown_variant: bool = True) -> tuple[int, ...]:
        """Indexes of the words ``player`` can name on this board (found once a board and
        vocabulary: every game of a pool asks again)."""
        floor = player.min_zipf
        key = (floor, shown_variant)
        hit = self._known.get(key)
        if hit is None:
            hit = self._known[key] = tuple(
                i for i, (s, z) in enumerate(zip(self.shown, self.zipf, strict=True))
                if (s and shown_variant) or floor is None or (z is not None and z >= floor))
        return hit

    @cached_property
    def _known(self) -> dict[tuple[float | None, bool], tuple[int, ...]]:
        return {}


def make_board(dictionary: Dictionary, kanji: Sequence[str],
               shown_words: Iterable[str] = ()) -> KanjiBoard:
    """The board of a pool record's ``kanji`` and ``words`` under ``dictionary``."""
    kanji = tuple(dict.fromkeys(kanji))
    shown = set(shown_words)
    ids = hidden_compounds(dictionary, kanji)
    pos = {ch: i for i, ch in enumerate(kanji)}
    words = tuple(dictionary.words[i] for i in ids)
    masks = tuple(sum(1 << pos[ch] for ch in set(w)) for w in words)
    return KanjiBoard(kanji, words, masks, tuple(w in shown for w in words),
                 tuple(dictionary.zipf[i] for i in ids))


@dataclass
class State:
    """Who holds what; ``held[p]`` is player p's mask (p = 0 moves first)."""

    held: list[int] = field(default_factory=lambda: [0, 0])
    moves: int = 0

    def score(self, p: int) -> int:
        return self.held[p].bit_count()

    def margin(self, p: int) -> int:
        return self.score(p) - self.score(1 - p)


def legal(board: KanjiBoard, state: State, word: int) -> bool:
    return bool(board.masks[word] & ~(state.held[0] | state.held[1]))


@dataclass(frozen=True)
class Move:
    player: int
    word: str
    taken: str     # kanji nobody held
    stolen: str    # kanji taken from the opponent
    hidden: bool   # not among the pool's shown words
    scores: tuple[int, int]


def play_move(board: KanjiBoard, state: State, p: int, word: int) -> Move:
    """Apply a legal move; raises ValueError for an illegal one."""
    mask = board.masks[word]
    free = mask & ~(state.held[0] | state.held[1])
    if not free:
        raise ValueError(f"{board.words[word]} takes no kanji nobody holds")
    stolen = mask & state.held[1 - p]
    state.held[p] |= mask
    state.held[1 - p] &= ~mask
    state.moves += 1
    text = board.words[word]
    return Move(p, text, board.taken(word, free), board.taken(word, stolen),
                not board.shown[word], (state.score(0), state.score(1)))


# ---- the words a player knows, indexed by kanji ------------------------------------------------
# A player's known words are the bits of small ints (bit j: the j-th word known); per kanji, the
# words holding it. Each word's count of free kanji and of the opponent's kanji is kept
# bit-sliced (planes[b]: the words whose count has bit b set), so a move updates a few ints per
# kanji it takes, and a choice is a few ints per bit of the gain, not a look at every word.

def _increment(planes: list[int], words: int) -> None:
    """Add 1 to the counts of ``words``."""
    carry = words
    for b, plane in enumerate(planes):
        planes[b] = plane ^ carry
        carry &= plane
        if not carry:
            return
    planes.append(carry)


def _decrement(planes: list[int], words: int) -> None:
    """Take 1 from the counts of ``words`` (each at least 1)."""
    borrow = words
    for b, plane in enumerate(planes):
        planes[b] = plane ^ borrow
        borrow &= ~plane
        if not borrow:
            return


def _gains(free: list[int], opp: list[int]) -> list[int]:
    """The planes of free + 2 x opp (a move's gain: free kanji, and twice the stolen)."""
    out = [free[0]] if free else [0]
    carry = 0
    for b in range(1, max(len(free), len(opp) + 1)):
        x = free[b] if b < len(free) else 0
        y = opp[b - 1] if b - 1 < len(opp) else 0
        out.append(x ^ y ^ carry)
        carry = x & y | carry & (x ^ y)
    if carry:
        out.append(carry)
    return out


def _top(gain: list[int], legal: int) -> tuple[int, int]:
    """The highest gain of the ``legal`` words, and the words that have it."""
    top = 0
    for b in range(len(gain) - 1, -1, -1):
        with_bit = legal & gain[b]
        if with_bit:
            legal = with_bit
            top |= 1 << b
    return top, legal


class _Known:
    """One player's known words, indexed (see above); counts for the empty board."""

    def __init__(self, board: KanjiBoard, known: Sequence[int]):
        self.known = tuple(known)
        self.holding = [0] * len(board.kanji)  # kanji -> the known words holding it
        free: list[int] = []
        for j, i in enumerate(self.known):
            m = board.masks[i]
            for k in range(len(board.kanji)):
                if m >> k & 1:
                    self.holding[k] |= 1 << j
            _add_count(free, 1 << j, m.bit_count())
        self.free = free

    def words(self, bits: int) -> list[int]:
        """The known words of ``bits``, in the order known."""
        out = []
        while bits:
            low = bits & -bits
            out.append(self.known[low.bit_length() - 1])
            bits ^= low
        return out


def _add_count(planes: list[int], word: int, count: int) -> None:
    for b in range(count.bit_length()):
        while len(planes) <= b:
            planes.append(0)
        if count >> b & 1:
            planes[b] |= word


class Index:
    """Both players' known words indexed by kanji for one game (what :func:`play_game` plays
    through): :meth:`choose` names the word the rules' plain reference names, every word
    known looked at (the tests' ``territory_reference.choose``; a test holds them equal),
    :meth:`play` moves the counts with the board. Built once a board and vocabulary."""

    def __init__(self, board: KanjiBoard, known: tuple[Sequence[int], Sequence[int]]):
        self.board = board
        cache = board._indexes
        self.players = []
        for words in known:
            key = tuple(words)
            made = cache.get(key)
            if made is None:
                made = cache[key] = _Known(board, key)
            self.players.append(made)
        self.free = [list(k.free) for k in self.players]  # per player: free kanji counts
        self.opp: list[list[int]] = [[], []]                # and the opponent's kanji

    def play(self, state: State, p: int, word: int) -> None:
        """Count the move of ``p`` naming ``word`` (call before :func:`play_move` applies it
        to ``state``)."""
        mask = self.board.masks[word]
        held = state.held[0] | state.held[1]
        taken, stolen = mask & ~held, mask & state.held[1 - p]
        me, them = self.players[p], self.players[1 - p]
        while taken:
            low = taken & -taken
            taken ^= low
            k = low.bit_length() - 1
            _decrement(self.free[p], me.holding[k])
            _decrement(self.free[1 - p], them.holding[k])
            _increment(self.opp[1 - p], them.holding[k])
        while stolen:
            low = stolen & -stolen
            stolen ^= low
            k = low.bit_length() - 1
            _decrement(self.opp[p], me.holding[k])
            _increment(self.opp[1 - p], them.holding[k])

    def choose(self, state: State, p: int, player: Player, rng: random.Random) -> int | None:
        """The word ``player`` (seat ``p``) names, or None (a pass), as the rules say."""
        free, opp = self.free[p], self.opp[p]
        legal = 0
        for plane in free:
            legal |= plane
        if not legal:
            return None
        gain = _gains(free, opp)
        me = self.players[p]
        if player.kind == "lookahead":
            return self._lookahead(state, p, player, rng, gain, legal)
        best = _top(gain, legal)[1]
        if best & (best - 1) == 0:  # one word
            return me.known[best.bit_length() - 1]
        for _ in range(rng.randrange(best.bit_count())):  # the n-th of the ties, as known
            best &= best - 1
        return me.known[(best & -best).bit_length() - 1]

    def _lookahead(self, state: State, p: int, player: Player, rng: random.Random,
                   gain: list[int], legal: int) -> int:
        """:meth:`choose`'s lookahead: the options by gain (highest first, then as known),
        down to the ``width``-th one's gain; each less the opponent's best greedy reply."""
        me, them = self.players[p], self.players[1 - p]
        options: list[tuple[int, int]] = []  # (gain, word) by gain, then as known
        left = legal
        while left and len(options) < player.width:
            g, level = _top(gain, left)
            options += [(g, i) for i in me.words(level)]
            left ^= level
        masks = self.board.masks
        scored = []
        for g, i in options:
            # the opponent's counts after the move: its free kanji taken become ours, and so
            # do its own kanji taken (both now the opponent's to it)
            m = masks[i]
            held = state.held[0] | state.held[1]
            taken, stolen = m & ~held, m & state.held[1 - p]
            free, opp = list(self.free[1 - p]), list(self.opp[1 - p])
            both = taken | stolen
            while both:
                low = both & -both
                both ^= low
                k = low.bit_length() - 1
                if low & taken:
                    _decrement(free, them.holding[k])
                _increment(opp, them.holding[k])
            reply_legal = 0
            for plane in free:
                reply_legal |= plane
            reply = _top(_gains(free, opp), reply_legal)[0] if reply_legal else 0
            scored.append((g - reply, i))
        top = max(g for g, _ in scored)
        ties = [i for g, i in scored if g == top]
        return ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]


@dataclass(frozen=True)
class Pass:
    """A turn on which the player knew no legal word."""

    player: int
    scores: tuple[int, int]


@dataclass
class Game:
    moves: list[Move]
    scores: tuple[int, int]
    ended: str  # NO_KNOWN_MOVE or LIMIT_END
    log: list[Move | Pass] = field(default_factory=list)  # every turn, passes too

    @property
    def margin(self) -> int:
        """The first player's margin at the end."""
        return self.scores[0] - self.scores[1]

    @property
    def winner(self) -> int | None:
        return None if self.margin == 0 else (0 if self.margin > 0 else 1)

    @property
    def steals(self) -> int:
        return sum(1 for m in self.moves if m.stolen)

    @property
    def hidden_moves(self) -> int:
        return sum(1 for m in self.moves if m.hidden)


# word looks one game may take (a greedy move looks at each word its player knows; a lookahead
# move adds ``width`` looks at every word the opponent knows per move it weighs): counted
# from the board before the game, so a crafted pool is refused at once, never timed out
MAX_GAME_COST = 4_000_000


def game_cost(board: KanjiBoard, players: tuple[Player, Player], *, limit: int | None = MOVE_LIMIT,
              shown_variant: bool = True) -> int:
    """The most word looks one game of ``board`` can take. Every move takes a kanji nobody
    held, so a game has at most one move per kanji (or ``limit``), and no more than one
    pass between two moves."""
    known = (board.known(players[0], shown_variant), board.known(players[1], shown_variant))
    moves = len(board.kanji) if limit is None else min(limit, len(board.kanji))
    look = max(len(known[p]) + (players[p].width * len(known[1 - p])
                                if players[p].kind == "lookahead" else 0) for p in (0, 1))
    return (2 * moves + 2) * look


def cost_problem(board: KanjiBoard, players: tuple[Player, Player], *,
                 limit: int | None = MOVE_LIMIT, shown_variant: bool = True) -> str | None:
    """Why a game of ``board`` is refused as too much work (None: it may be played)."""
    cost = game_cost(board, players, limit=limit, shown_variant=shown_variant)
    if cost <= MAX_GAME_COST:
        return None
    return (f"a game of this pool ({len(board.kanji):,} kanji, {len(board.words):,} words) "
            f"could take {cost:,} word looks; at most {MAX_GAME_COST:,} (a smaller pool, a "
            "lower --limit, or greedy players)")


def play_game(board: KanjiBoard, players: tuple[Player, Player], rng: random.Random, *,
              limit: int | None = MOVE_LIMIT, shown_variant: bool = True) -> Game:
    """One game from the empty board; player 0 moves first."""
    index = Index(board, (board.known(players[0], shown_variant),
                          board.known(players[1], shown_variant)))
    state = State()
    moves: list[Move] = []
    log: list[Move | Pass] = []
    p = 0
    passes = 0
    ended = NO_KNOWN_MOVE
    while True:
        if limit is not None and state.moves >= limit:
            ended = LIMIT_END
            break
        word = index.choose(state, p, players[p], rng)
        if word is None:
            passes += 1
            log.append(Pass(p, (state.score(0), state.score(1))))
            if passes == 2:
                break
        else:
            passes = 0
            index.play(state, p, word)
            moves.append(play_move(board, state, p, word))
            log.append(moves[-1])
        p = 1 - p
    return Game(moves, (state.score(0), state.score(1)), ended, log)


# ---- self-play over pools ----------------------------------------------------------------------

@dataclass(frozen=True)
class Balance:
    """A pool's figures over ``games`` self-play games (half with each player first)."""

    games: int
    first_wins: int
    second_wins: int
    draws: int
    margin_sum: int   # first player's margins summed
    steals: int
    moves: int
    hidden_moves: int
    kanji: int
    limit_ends: int = 0                  # games the move limit ended (the rest: no known move)
    model_wins: tuple[int, int] = (0, 0)  # games won by players[0]'s model, players[1]'s

    @property
    def first_win_rate(self) -> float:
        return self.first_wins / self.games if self.games else 0.0

    @property
    def advantage(self) -> float:
        """The first player's mean margin per board kanji (0: fair)."""
        return self.margin_sum / (self.games * self.kanji) if self.games and self.kanji else 0.0

    def record(self) -> dict[str, Any]:
        from wordforge_cli.core.intervals import rounded, wilson

        g = self.games or 1
        low, high = wilson(self.first_wins, self.games)
        return {"games": self.games, "first_win_rate": round(self.first_win_rate, 4),
                "first_win_interval": [round(low, 4), round(high, 4)],
                "first_wins": self.first_wins, "second_wins": self.second_wins,
                "draws": self.draws, "mean_margin": rounded(self.margin_sum / g, 3),
                "advantage": rounded(self.advantage, 4),
                "steals": round(self.steals / g, 3), "length": round(self.moves / g, 3),
                "hidden_moves": round(self.hidden_moves / g, 3),
                "ended": {NO_KNOWN_MOVE: self.games - self.limit_ends,
                          LIMIT_END: self.limit_ends},
                "model_wins": list(self.model_wins)}


def self_play(board: KanjiBoard, players: tuple[Player, Player], rng: random.Random, games: int,
              *, limit: int | None = MOVE_LIMIT, shown_variant: bool = True,
              played: list[tuple[tuple[Player, Player], Game]] | None = None) -> Balance:
    """``games`` games; odd games swap who moves first, so a stronger model favours no seat.
    Each game is appended to ``played`` when given, with its seats (a trace)."""
    first = second = draws = margin = steals = moves = hidden = limit_ends = 0
    by_model = [0, 0]
    for g in range(games):
        seats = players if g % 2 == 0 else (players[1], players[0])
        game = play_game(board, seats, rng, limit=limit, shown_variant=shown_variant)
        if played is not None:
            played.append((seats, game))
        if game.winner == 0:
            first += 1
        elif game.winner == 1:
            second += 1
        else:
            draws += 1
        if game.winner is not None:
            by_model[game.winner if g % 2 == 0 else 1 - game.winner] += 1
        limit_ends += game.ended == LIMIT_END
        margin += game.margin
        steals += game.steals
        moves += len(game.moves)
        hidden += game.hidden_moves
    return Balance(games, first, second, draws, margin, steals, moves, hidden,
                   len(board.kanji), limit_ends, (by_model[0], by_model[1]))


# ---- batches: self-play figures per pool, and balanced pools -----------------------------------

@dataclass(frozen=True)
class SelfPlay:
    """How a batch's pools are played: players, games per pool, move limit, balance band."""

    players: tuple[Player, Player] = (Player(), Player())
    games: int = 4
    limit: int | None = MOVE_LIMIT
    shown_variant: bool = True
    band: float | None = None      # keep pools with |advantage| <= band (None: keep all)
    budget: int = 20               # pools drawn at most per kept pool
    fresh: int = 4                 # band: games a kept pool is played again, on other seeds

    def check(self) -> None:
        if not 1 <= self.games <= 1000:
            raise UsageError(f"--games must be 1 to 1000, not {self.games}")
        if self.band is not None and not 0 <= self.band <= 1:
            raise UsageError(f"--band must be 0 to 1 (a share of the board), not {self.band}")
        if not 1 <= self.budget <= 100_000:
            raise UsageError(f"--balance-attempts must be 1 to 100000, not {self.budget}")
        if not 0 <= self.fresh <= 1000:
            raise UsageError(f"--fresh-games must be 0 to 1000, not {self.fresh}")
        if self.limit is not None and self.limit < 0:
            raise UsageError(f"--limit must be 0 (none) or more, not {self.limit}")


def judge(balance: Balance, band: float | None) -> str | None:
    """Why a pool is rejected under ``band`` (None: kept)."""
    if band is None or abs(balance.advantage) <= band + 1e-12:
        return None
    return "first player ahead" if balance.advantage > 0 else "second player ahead"


def played_pools(dictionary: Dictionary, request: PoolRequest, spec: SelfPlay, seed: int,
                 indices: Iterable[int], scope: tuple[str, ...] = ("kanji",),
                 rejected: dict[str, int] | None = None,
                 ) -> Iterator[dict[str, Any] | OutOfBudget]:
    """Pool records with a ``balance`` figure, redrawn until inside ``spec.band``.

    Pool i's first draw is exactly the unbalanced pool i (``item_rng(seed, *scope, i)``);
    redraw a > 1 draws from ``(seed, *scope, i, "redraw", a)``, and the record's ``seed`` is
    the stream it was drawn from. Rejections are counted by reason in ``rejected``; a pool
    whose budget (kanji count, or balance draws) runs out is an ``OutOfBudget``, as
    ``pool_items`` yields: the engine's policy is to count it and go on.

    A pool kept under the band was chosen *for* its games, so those games flatter it; it is
    played again, ``spec.fresh`` games from ``(pool seed, "fresh")`` (seeds no selection saw),
    and the record's ``balance.fresh`` gives those figures and whether they fall outside the
    band: what the pool plays like, not what it was picked for.
    """
    spec.check()
    view = check_request(dictionary, request)
    counts = rejected if rejected is not None else {}
    for index in indices:
        for attempt in range(1, spec.budget + 1):
            where = (index,) if attempt == 1 else (index, "redraw", attempt)
            pool_seed = derive_seed(seed, *scope, *where)
            try:
                pool = make_pool(dictionary, request, random.Random(pool_seed), view)
            except CannotDo as exc:  # the kanji-count budget: counted, the run goes on
                yield OutOfBudget(exc.message)
                break
            record = pool_record(dictionary, request, pool, index, pool_seed)
            board = make_board(dictionary, record["kanji"], record["words"])
            balance = self_play(board, spec.players, random.Random(derive_seed(pool_seed,
                                                                               "play")),
                                spec.games, limit=spec.limit, shown_variant=spec.shown_variant)
            reason = judge(balance, spec.band)
            if reason is None:
                record["balance"] = {**balance.record(), "redraws": attempt - 1}
                if spec.band is not None and spec.fresh:
                    fresh = self_play(board, spec.players,
                                      random.Random(derive_seed(pool_seed, "fresh")),
                                      spec.fresh, limit=spec.limit,
                                      shown_variant=spec.shown_variant)
                    record["balance"]["fresh"] = {
                        **fresh.record(), "outside_band": judge(fresh, spec.band) is not None}
                yield record
                break
            counts[reason] = counts.get(reason, 0) + 1
        else:
            yield OutOfBudget(f"pool {index}: no pool inside the balance band +-{spec.band:g} "
                              f"in {spec.budget} draws (widen --band or raise "
                              "--balance-attempts)")


FRESH_COUNTS = ("pools", "games", "first_wins", "second_wins", "draws", "limit_ends",
                "outside_band")
BALANCE_FIGURES = ("first_win_rate", "advantage", "mean_margin", "steals", "length",
                   "hidden_moves", "redraws")


@dataclass
class BalanceStats:
    """Self-play figures of a batch: exact value counts (mergeable), rejections by reason.

    The :class:`wordforge_cli.core.engine.Statistics` protocol over pool records that carry a
    ``balance`` figure; a pool whose budget ran out adds nothing here (the pool statistics
    count it), but the draws ``--balanced`` rejected on its way do (``reject``).
    """

    pools: int = 0
    games: int = 0
    first_wins: int = 0
    second_wins: int = 0
    draws: int = 0
    values: dict[str, dict[float, int]] = field(
        default_factory=lambda: {f: {} for f in BALANCE_FIGURES})
    rejected: dict[str, int] = field(default_factory=dict)
    limit_ends: int = 0
    model_wins: list[int] = field(default_factory=lambda: [0, 0])
    # --balanced: the kept pools played again on fresh seeds
    fresh: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FRESH_COUNTS, 0))
    fresh_advantage: dict[float, int] = field(default_factory=dict)

    def add(self, record: dict[str, Any] | None, rejected: dict[str, int] | None = None
            ) -> None:
        """Count a played pool's figures (None: a pool out of budget) and the draws
        ``--balanced`` rejected on its way, by reason."""
        self.reject(rejected or {})
        if record is None:
            return
        b = record["balance"]
        self.pools += 1
        self.games += b["games"]
        self.first_wins += b["first_wins"]
        self.second_wins += b["second_wins"]
        self.draws += b["draws"]
        for name in BALANCE_FIGURES:
            counts = self.values[name]
            counts[b[name]] = counts.get(b[name], 0) + 1
        self.limit_ends += b["ended"][LIMIT_END]
        for i in (0, 1):
            self.model_wins[i] += b["model_wins"][i]
        f = b.get("fresh")
        if f is not None:
            for key, got in (("pools", 1), ("games", f["games"]),
                             ("first_wins", f["first_wins"]),
                             ("second_wins", f["second_wins"]), ("draws", f["draws"]),
                             ("limit_ends", f["ended"][LIMIT_END]),
                             ("outside_band", int(f["outside_band"]))):
                self.fresh[key] += got
            self.fresh_advantage[f["advantage"]] = (
                self.fresh_advantage.get(f["advantage"], 0) + 1)

    def fail(self, count: int = 1) -> None:
        """Pools out of budget are the pool statistics' to count."""

    def reject(self, reasons: dict[str, int]) -> None:
        for k, c in reasons.items():
            self.rejected[k] = self.rejected.get(k, 0) + c

    def merge(self, other: BalanceStats) -> BalanceStats:
        self.pools += other.pools
        self.games += other.games
        self.first_wins += other.first_wins
        self.second_wins += other.second_wins
        self.draws += other.draws
        for name in BALANCE_FIGURES:
            for v, c in other.values[name].items():
                self.values[name][v] = self.values[name].get(v, 0) + c
        self.reject(other.rejected)
        self.limit_ends += other.limit_ends
        for i in (0, 1):
            self.model_wins[i] += other.model_wins[i]
        for key in FRESH_COUNTS:
            self.fresh[key] += other.fresh[key]
        for v, c in other.fresh_advantage.items():
            self.fresh_advantage[v] = self.fresh_advantage.get(v, 0) + c
        return self

    def to_state(self) -> dict[str, Any]:
        """JSON-able counts (values sorted; a float figure survives JSON exactly)."""
        return {"pools": self.pools, "games": self.games, "first_wins": self.first_wins,
                "second_wins": self.second_wins, "draws": self.draws,
                "values": {f: [[v, c] for v, c in sorted(self.values[f].items())]
                           for f in BALANCE_FIGURES},
                "rejected": [[k, c] for k, c in sorted(self.rejected.items())],
                "limit_ends": self.limit_ends, "model_wins": list(self.model_wins),
                "fresh": {k: self.fresh[k] for k in FRESH_COUNTS},
                "fresh_advantage": [[v, c] for v, c in sorted(self.fresh_advantage.items())]}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> BalanceStats:
        """The counts ``to_state`` wrote; ValueError/KeyError/TypeError for anything else."""
        stats = cls(pools=_count(state["pools"]), games=_count(state["games"]),
                    first_wins=_count(state["first_wins"]),
                    second_wins=_count(state["second_wins"]), draws=_count(state["draws"]))
        for f in BALANCE_FIGURES:
            stats.values[f] = {_number(v): _count(c) for v, c in state["values"][f]}
        stats.rejected = {_reason(k): _count(c) for k, c in state["rejected"]}
        stats.limit_ends = _count(state["limit_ends"])
        stats.model_wins = [_count(c) for c in state["model_wins"]]
        if len(stats.model_wins) != 2:
            raise ValueError("model_wins: two counts")
        stats.fresh = {k: _count(state["fresh"][k]) for k in FRESH_COUNTS}
        stats.fresh_advantage = {_number(v): _count(c) for v, c in state["fresh_advantage"]}
        return stats

    def summary(self) -> dict[str, Any]:
        g = self.games or 1
        out: dict[str, Any] = {"pools": self.pools, "games": self.games,
                               "wins": {"first": round(self.first_wins / g, 4),
                                        "second": round(self.second_wins / g, 4),
                                        "draw": round(self.draws / g, 4)},
                               "rejected": sum(self.rejected.values()),
                               "rejected_by_reason": dict(sorted(self.rejected.items()))}
        for name in BALANCE_FIGURES:
            out[name] = describe(Counter(self.values[name]))
        out.update(self.intervals())
        return out

    def intervals(self) -> dict[str, Any]:
        """The figures a designer acts on with their 95% intervals (``core.intervals``).

        ``intervals.first``: the first player's share of the decided games (Wilson over
        games, fair 0.5; games on one board are not independent, so ``first_win_rate``, the
        mean over pools of the pools' own rates, draws counting as not won, is the steadier
        interval);
        ``advantage``: its mean over pools, fair 0. ``ended``: each end reason's share of the
        games. ``models``: each --player model's share of the decided games, whichever seat
        it had (the models swap seats every game), and its Bradley-Terry rating on the Elo
        scale (the pair's ratings 400 log10 of their odds apart). ``fresh`` (--balanced):
        the same for the kept pools played again on seeds no selection saw, and how many of
        them fall outside the band there.
        """
        from wordforge_cli.core import intervals as ci

        decided = self.first_wins + self.second_wins
        half = self.draws / 2
        strengths = ci.bradley_terry(["1", "2"], {(0, 1): self.model_wins[0] + half,
                                                  (1, 0): self.model_wins[1] + half})
        elo = ci.elo_scale(strengths)
        out: dict[str, Any] = {
            "intervals": {
                "method": ci.METHOD,
                "first": ci.rate(self.first_wins, decided, fair=0.5),
                "draw": ci.rate(self.draws, self.games),
                "first_win_rate": ci.mean_of(self.values["first_win_rate"], digits=4,
                                             within=ci.SHARE),
                "advantage": ci.mean_of(self.values["advantage"], fair=0.0, digits=4)},
            "ended": {NO_KNOWN_MOVE: ci.rate(self.games - self.limit_ends, self.games),
                      LIMIT_END: ci.rate(self.limit_ends, self.games)},
            "models": [{"player": i + 1, "wins": ci.rate(self.model_wins[i], decided,
                                                         fair=0.5), "elo": elo[i]}
                       for i in (0, 1)]}
        f = self.fresh
        if f["pools"]:
            fresh_decided = f["first_wins"] + f["second_wins"]
            out["fresh"] = {
                "pools": f["pools"], "games": f["games"],
                "first": ci.rate(f["first_wins"], fresh_decided, fair=0.5),
                "second": ci.rate(f["second_wins"], fresh_decided, fair=0.5),
                "draw": ci.rate(f["draws"], f["games"]),
                "advantage": ci.mean_of(self.fresh_advantage, fair=0.0, digits=4),
                "outside_band": ci.rate(f["outside_band"], f["pools"]),
                "ended": {LIMIT_END: ci.rate(f["limit_ends"], f["games"])}}
        return out


REJECT_REASONS = ("first player ahead", "second player ahead")


def _count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a count: {value!r}")
    return value


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"not a figure: {value!r}")
    return value


def _reason(value: object) -> str:
    if value not in REJECT_REASONS:
        raise ValueError(f"not a rejection reason: {value!r}")
    return str(value)
