"""``wfkit tiles``: deal WordForge's 98-tile bag, or check what a hand can make and score."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.core.messages import echo, quiet, say
from wordforge_cli.options.command import command
from wordforge_cli.options.shared import STATS, quiet_option, report_seed, seed_option
from wordforge_cli.wordforge.config import BEST, checked_words, play_one, rule_options

if TYPE_CHECKING:
    from wordforge_cli.batch.kinds import Item
    from wordforge_cli.batch.runner import Lines
    from wordforge_cli.wordforge.config import RuleFiles
    from wordforge_cli.wordforge.rarity import Rules


def checked_hand(text: str) -> str:
    from wordforge_cli.wordforge.rarity import WILD, word_problem

    letters = text.replace(WILD, "")
    if not text or (letters and word_problem(letters)):
        raise UsageError(f"--hand: '{text}' must be letters a-z and '?' (wild) only")
    return text.lower()


@command()
@click.option("--players", type=click.IntRange(1, 8), default=2, show_default=True,
              help="Players 1..8 (two sets of tiles from 3 players on).")
@click.option("-n", "--deals", type=click.IntRange(1, 1_000_000), default=1, show_default=True,
              help="How many independent deals (deal i draws from its own seeded stream).")
@seed_option
@click.option("--hand", metavar="LETTERS", help="A hand to check ('?' is a wild tile).")
@click.option("--word", metavar="WORD", help="With --hand: can the hand make WORD, and its score.")
@BEST.options()
@rule_options
@STATS.option()
@click.option("--json", "as_json", is_flag=True, help="Print records as JSON Lines.")
@quiet_option
@click.pass_context
def tiles(ctx: click.Context, players: int, deals: int, seed: int, hand: str | None,
          word: str | None, best: bool, top: int, rule: RuleFiles, stats_path: str | None,
          as_json: bool) -> None:
    """Deal hands of 10 from the 98-tile bag (shuffled with --seed), or check a hand.

    The bag holds the article's 26 letters with their points and counts (two sets from 3
    players); each player draws the next 10 tiles of the shuffled bag. With --hand and --word,
    says whether the hand can make the word (wild '?' tiles fill missing letters and score 0)
    and what it scores under battle rules; exit status 1 when it cannot. With --hand and
    --best, lists the K highest-scoring playable words the hand can make (ties by word),
    found exactly through an index of the word table by letter counts. Several deals
    report their hands' figures on stderr (points, vowels; --stats FILE as JSON).

    \b
    Examples:
      wfkit tiles --players 4 --seed 7
      wfkit tiles --players 2 -n 100 --seed 1 --json --stats deals.json
      wfkit tiles --hand QUAFFE?TRS --word quaff
      wfkit tiles --hand QUAFFE?TRS --best -k 5
    """
    if stats_path and hand:
        raise UsageError("--stats goes with dealing (-n), not with --hand")
    if best:
        if not hand or word:
            raise UsageError("--best goes with --hand (and not with --word)")
        _best_words(checked_hand(hand), top, rule, as_json)
        return
    if bool(hand) != bool(word):
        raise UsageError("--hand and --word go together")
    if hand and word:  # (one without the other was refused above)
        _check_hand(checked_hand(hand), checked_words([word])[0], rule, as_json)
        return

    from wordforge_cli.batch.sinks import stream, write_stats
    from wordforge_cli.batch.tiles import DealSection
    from wordforge_cli.wordforge.english import read_rules

    rules = read_rules(rule.config_path)
    if players > rules.tiles.max_players:
        raise UsageError(f"--players {players}: this config allows at most "
                         f"{rules.tiles.max_players}")
    section = DealSection("tiles", deals, (), 0, {"players": players}, rules=rules,
                          players=players)
    next(section.items(seed, 0, 1))  # a bag that cannot fill the hands fails here
    run = stream(section, seed, None, lines=None if as_json else _text(rules, deals > 1),
                 unit="deal")
    write_stats(stats_path, {"config": rule.config_path, **section.options, "deals": deals,
                             "seed": seed}, run)
    summary = run.summary
    if deals > 1 and not quiet():  # one deal shows its hands; a batch, their figures
        points, vowels = summary["hand_points"], summary["vowels"]
        say(f"tiles: {deals} deals, {summary['hands']} hands: points median "
            f"{points['median']} (p10 {points['p10']}, p90 {points['p90']}), vowels "
            f"median {vowels['median']} (p10 {vowels['p10']}, p90 {vowels['p90']}); "
            f"{summary['hands_without_vowel']} without a vowel, "
            f"{summary['q_without_u']} with Q but no U")
    report_seed(ctx, seed)


def _text(rules: Rules, numbered: bool) -> Lines:
    """A deal as text: its number (when there are several), each hand and its points, what
    the bag keeps."""
    points = rules.tiles.points

    def text(item: Item) -> list[bytes]:
        (deal,), (made,) = item.records, item.made
        shown = [f"deal {deal['deal']}"] if numbered else []
        for p, letters in enumerate(made.hands, start=1):
            shown.append(f"player {p}: {' '.join(letters.upper())}   "
                         f"({sum(points[ch] for ch in letters)} points)")
        shown.append(f"bag: {len(made.bag)} tiles left ({made.sets} set"
                     f"{'s' if made.sets > 1 else ''})")
        return ["\n".join(shown).encode()]

    return text


def _best_words(hand: str, top: int, rule: RuleFiles, as_json: bool) -> None:
    from wordforge_cli.io.output import dumps
    from wordforge_cli.wordforge.english import read_rules
    from wordforge_cli.wordforge.hands import best_record

    rules = read_rules(rule.config_path)
    index = rule.hand_index(rules, len(hand))
    found = index.best(hand, top)
    records = [best_record(hand, rank, b, rules) for rank, b in enumerate(found, start=1)]
    if as_json:
        for rec in records:
            echo(dumps(rec))
        return
    if not records:
        echo(f"{hand.upper()} makes no playable word")
        return
    echo(f"{hand.upper()}: the {len(records)} best of {len(index):,} playable words")
    for rec in records:
        wild = (f"  wild at {', '.join(map(str, rec['wild_positions']))}"
                if rec["wild_positions"] else "")
        echo(f"{rec['rank']:>4}  {rec['word']:<12} {rec['score']:>5}  {rec['label']}{wild}")


def _check_hand(hand: str, word: str, rule: RuleFiles, as_json: bool) -> None:
    from wordforge_cli.io.output import dumps
    from wordforge_cli.wordforge.rarity import Play, hand_cover

    uncovered, wilds = hand_cover(hand, word)
    can = len(uncovered) <= wilds
    rules, tables = rule.load()
    rating, result = play_one(word, rules, tables, use_lemma=rule.lemma, battle=True,
                              gold_rush=False, play=Play(wild=uncovered if can else ()))
    not_in_hand = "".join(word[i] for i in uncovered)
    rec: dict[str, Any] = {"hand": hand.upper(), "word": word, "can_make": can,
                           "not_in_hand": not_in_hand, "wilds": wilds,
                           "wild_positions": [i + 1 for i in uncovered] if can else [],
                           "playable": rating.playable, "rarity": None, "score": None}
    if can and rating.playable:  # (result is the score of this very play)
        rec["rarity"], rec["score"] = rules.tiers[result.tier].key, result.score
    if as_json:
        echo(dumps(rec))
    elif can:
        wild_note = (f" (wild at {', '.join(map(str, rec['wild_positions']))})"
                     if uncovered else "")
        scored = f"scores {rec['score']}" if rating.playable else "but it is not playable"
        echo(f"{hand.upper()} can make {word}{wild_note}: {scored}")
    else:
        echo(f"{hand.upper()} cannot make {word}: {', '.join(not_in_hand)} not in the "
                   f"hand and only {wilds} wild tile{'s' if wilds != 1 else ''}")
    if not can:
        raise CannotDo(f"the hand cannot make '{word}'")
    if not rating.playable:
        raise CannotDo(f"'{word}' is not playable (not in the word list): it scores nothing")
