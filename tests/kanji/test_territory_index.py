"""Kanji self-play's index against the plain rules: the word each player names through
``territory.Index`` is the word ``choose`` (``territory_reference.py``) names looking at every
word, on drawn boards, states and players; a game played through the index is the game played
through ``choose``."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from territory_reference import choose

from wordforge_cli.kanji import territory as T
from wordforge_cli.kanji.territory import (
    LIMIT_END,
    NO_KNOWN_MOVE,
    Game,
    Index,
    KanjiBoard,
    Move,
    Pass,
    Player,
    State,
    play_game,
    play_move,
)

KANJI = "一二三四五六七八九十百千万円年月日火水木金土"


@st.composite
def boards(draw: st.DrawFn) -> KanjiBoard:
    """A board of 2-22 kanji and up to 60 words of 1-5 of them (repeats allowed), some shown,
    some with a Zipf value."""
    n = draw(st.integers(2, len(KANJI)))
    kanji = tuple(KANJI[:n])
    count = draw(st.integers(1, 60))
    words, masks = [], []
    for _ in range(count):
        picked = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=5, unique=True))
        words.append("".join(kanji[k] for k in picked))
        masks.append(sum(1 << k for k in picked))
    shown = tuple(draw(st.lists(st.booleans(), min_size=count, max_size=count)))
    zipf = tuple(draw(st.lists(st.one_of(st.none(), st.floats(0, 7)), min_size=count,
                               max_size=count)))
    return KanjiBoard(kanji, tuple(words), tuple(masks), shown, zipf)


players = st.builds(Player, st.sampled_from(("greedy", "lookahead")),
                    st.one_of(st.none(), st.floats(0, 7), st.just(T.SHOWN_ONLY)),
                    st.integers(1, 12))


def _moves_to(board: KanjiBoard, rng: random.Random, moves: int) -> tuple[State, Index,
                                                                           tuple[int, ...]]:
    """A state reached by ``moves`` random legal moves (as many as there are), with an index
    that followed them; returns what both players know too."""
    known = tuple(range(len(board.words)))
    index = Index(board, (known, known))
    state = State()
    p = 0
    for _ in range(moves):
        held = state.held[0] | state.held[1]
        options = [i for i in known if board.masks[i] & ~held]
        if not options:
            break
        word = rng.choice(options)
        index.play(state, p, word)
        play_move(board, state, p, word)
        p = 1 - p
    return state, index, known


@settings(max_examples=400)
@given(boards(), players, st.integers(0, 2**32), st.integers(0, 30), st.integers(0, 1))
def test_the_index_names_the_word_choose_names(board, player, seed, moves, p):
    state, index, known = _moves_to(board, random.Random(seed), moves)
    a, b = random.Random(seed + 1), random.Random(seed + 1)
    assert index.choose(state, p, player, a) == choose(board, state, p, player, known, b,
                                                       known)
    assert a.getstate() == b.getstate()  # the same draws from the seeded stream


@settings(max_examples=300)
@given(boards(), players, players, st.integers(0, 2**32), st.booleans())
def test_each_players_own_vocabulary_is_indexed_apart(board, first, second, seed, shown):
    """Players knowing different words: every choice of a whole game agrees with choose()."""
    known = (board.known(first, shown), board.known(second, shown))
    index = Index(board, known)
    state = State()
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    pair = (first, second)
    p = 0
    for _ in range(2 * len(board.kanji) + 2):
        word = index.choose(state, p, pair[p], rng_a)
        assert word == choose(board, state, p, pair[p], known[p], rng_b, known[1 - p])
        if word is not None:
            index.play(state, p, word)
            play_move(board, state, p, word)
        p = 1 - p


def _reference_game(board: KanjiBoard, players: tuple[Player, Player], rng: random.Random, *,
                    limit: int | None, shown_variant: bool) -> Game:
    """A game played as the rules say: choose() over every word known, every move."""
    known = (board.known(players[0], shown_variant), board.known(players[1], shown_variant))
    state = State()
    moves: list[Move] = []
    log: list[Move | Pass] = []
    p = passes = 0
    ended = NO_KNOWN_MOVE
    while True:
        if limit is not None and state.moves >= limit:
            ended = LIMIT_END
            break
        word = choose(board, state, p, players[p], known[p], rng, known[1 - p])
        if word is None:
            passes += 1
            log.append(Pass(p, (state.score(0), state.score(1))))
            if passes == 2:
                break
        else:
            passes = 0
            moves.append(play_move(board, state, p, word))
            log.append(moves[-1])
        p = 1 - p
    return Game(moves, (state.score(0), state.score(1)), ended, log)


@settings(max_examples=300)
@given(boards(), players, players, st.integers(0, 2**32),
       st.one_of(st.none(), st.integers(0, 40)), st.booleans())
def test_a_game_through_the_index_is_the_game_through_choose(board, first, second, seed,
                                                             limit, shown):
    game = play_game(board, (first, second), random.Random(seed), limit=limit,
                     shown_variant=shown)
    again = _reference_game(board, (first, second), random.Random(seed), limit=limit,
                            shown_variant=shown)
    assert game == again


@given(st.lists(st.integers(0, 9), min_size=1, max_size=40), st.data())
def test_bit_sliced_counts_add_take_and_rank_as_plain_counts(counts, data):
    """The index's counts: per word (a bit), +1 / -1 on a set of words, free + 2 x opp, the
    highest gain and the words with it."""
    n = len(counts)
    free: list[int] = []
    for j, c in enumerate(counts):
        T._add_count(free, 1 << j, c)
    opp: list[int] = []
    plain_free, plain_opp = list(counts), [0] * n
    for _ in range(data.draw(st.integers(0, 12))):
        words = data.draw(st.integers(0, 2**n - 1))
        if data.draw(st.booleans()):
            words &= sum(1 << j for j in range(n) if plain_free[j] > 0)
            T._decrement(free, words)
            plain_free = [c - (words >> j & 1) for j, c in enumerate(plain_free)]
        else:
            T._increment(opp, words)
            plain_opp = [c + (words >> j & 1) for j, c in enumerate(plain_opp)]

    def value(planes: list[int], j: int) -> int:
        return sum((plane >> j & 1) << b for b, plane in enumerate(planes))

    assert [value(free, j) for j in range(n)] == plain_free
    assert [value(opp, j) for j in range(n)] == plain_opp
    gains = T._gains(free, opp)
    assert [value(gains, j) for j in range(n)] == [f + 2 * o for f, o in
                                                   zip(plain_free, plain_opp, strict=True)]
    legal = sum(1 << j for j in range(n) if plain_free[j])
    if legal:
        top, best = T._top(gains, legal)
        plain_top = max(plain_free[j] + 2 * plain_opp[j] for j in range(n) if plain_free[j])
        assert top == plain_top
        assert best == sum(1 << j for j in range(n) if plain_free[j]
                           and plain_free[j] + 2 * plain_opp[j] == plain_top)


@given(boards(), st.data())
def test_the_kanji_a_word_takes_read_as_before(board, data):
    for _ in range(5):
        word = data.draw(st.integers(0, len(board.words) - 1))
        mask = data.draw(st.integers(0, board.full)) & board.masks[word]
        assert board.taken(word, mask) == board.text(mask, board.words[word])
        assert board.taken(word, mask) == "".join(
            ch for ch in dict.fromkeys(board.words[word])
            if mask >> board.kanji.index(ch) & 1)
