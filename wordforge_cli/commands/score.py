"""``wfkit score``: what a word scores in a WordForge battle, with the whole breakdown."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.core.messages import echo
from wordforge_cli.options.command import command
from wordforge_cli.options.shared import quiet_option
from wordforge_cli.wordforge.config import (
    RuleFiles,
    checked_words,
    play_one,
    rule_options,
    score_record,
)

if TYPE_CHECKING:
    from wordforge_cli.wordforge.rarity import Rules


def parse_positions(text: str | None, length: int) -> tuple[int, ...]:
    """``--wild 1,3`` -> 0-based positions (1-based on the command line, like the tiles)."""
    if not text:
        return ()
    positions = set()
    for part in text.split(","):
        part = part.strip()
        if not (part.isascii() and part.isdigit()) or len(part) > 9 or not 1 <= int(part) <= length:
            raise UsageError(f"--wild: '{part}' is not a letter position 1..{length}")
        positions.add(int(part) - 1)
    return tuple(sorted(positions))


def breakdown_text(rec: dict[str, Any], rules: Rules) -> str:
    """A readable breakdown of one scored record."""
    from wordforge_cli.wordforge.rarity import decimal_text

    tiles = " ".join(f"{t['letter'].upper()}{'?' if t['wild'] else ''}{t['points']}"
                     for t in rec["tiles"])
    n = rec["letters"]
    sr = rules.score
    mode = "battle" if rec["battle"] else "catalogue"
    lines = [
        f"{rec['word']}  ({mode} rules{', Gold Rush' if rec['gold_rush'] else ''})",
        f"  tiles          {tiles} = {rec['tile_sum']}",
        f"  length term    ({n} - {sr.base_length}) x {decimal_text(sr.per_letter)}"
        f" = {rec['length_term']:zg}",
        f"  base           max(0, {rec['tile_sum']} + {rec['length_term']:zg}) = {rec['base']:zg}",
        f"  length bonus   +{rec['length_bonus']:zg}" + ("  (Overdrive x"
                                                         f"{decimal_text(sr.overdrive)})"
                                                         if rec["overdrive"] else ""),
        f"  subtotal       {rec['subtotal']:zg}",
    ]
    for name, factor in rec["multipliers"].items():
        note = ""
        if name == "rarity":
            note = f"  {rec['label']} {rec['rarity']} (catalogue {rec['catalogue_rarity']}, " \
                   f"{rec['source']})"
        if name == "combo":
            note = f"  (combo {rec['combo']})"
        lines.append(f"  x {name:<12} {factor:zg}{note}")
    lines.append(f"  score          floor({rec['exact']}) = {rec['score']}")
    return "\n".join(lines) + "\n"


@command()
@click.argument("word", required=False)
@rule_options
@click.option("--no-battle", is_flag=True,
              help="Use the catalogue rarity (no 7+ letter upgrade).")
@click.option("--combo", type=click.IntRange(0, 1000), default=0, show_default=True,
              help="Combo count (multiplier 1 + combo x 0.15).")
@click.option("--double", is_flag=True, help="Double (x2).")
@click.option("--link", is_flag=True, help="Link: same first letter as the previous word (x1.5).")
@click.option("--overdrive", is_flag=True, help="Overdrive: the length bonus doubles.")
@click.option("--gold-rush", is_flag=True, help="Gold Rush: one more tier up.")
@click.option("--fortress", is_flag=True,
              help="The opponent's Fortress cuts this score by 30% (x0.7).")
@click.option("--wild", "wild", metavar="POSITIONS",
              help="Letter positions played with a wild tile (worth 0), e.g. 1,3.")
@click.option("--turns", metavar="W1,W2,...",
              help="Score one player's successive words, carrying combo and link.")
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as JSON.")
@quiet_option
def score(word: str | None, rule: RuleFiles, no_battle: bool, combo: int, double: bool,
          link: bool, overdrive: bool,
          gold_rush: bool, fortress: bool, wild: str | None, turns: str | None,
          as_json: bool) -> None:
    """Score a word by the WordForge formula, with its breakdown.

    floor((max(0, tile points + (letters - 3) x 2) + length bonus) x rarity x combo x double
    x link x fortress), exact (no float rounding). Battle rules are on: 7+ letter words
    with frequency data play one tier up. A word that is not playable exits with status 1.

    \b
    Examples:
      wfkit score quaff --cefr examples/article-cefr.yaml
      wfkit score xylophone --combo 2 --double --json
      wfkit score --turns cat,cats,castle,clam
    """
    from wordforge_cli.io.output import dumps
    from wordforge_cli.wordforge.rarity import Play

    if (word is None) == (turns is None):
        raise UsageError("give one WORD or --turns W1,W2,... (see wfkit score --help)")
    if turns and wild:
        raise UsageError("--wild applies to one WORD, not to --turns")
    battle = not no_battle
    use_lemma = rule.lemma
    if turns is None:
        assert word is not None
        (word,) = checked_words([word])
        rules, tables = rule.load()
        play = Play(combo, double, link, overdrive, fortress, parse_positions(wild, len(word)))
        rating, result = play_one(word, rules, tables, use_lemma=use_lemma, battle=battle,
                                  gold_rush=gold_rush, play=play)
        if not rating.playable:
            raise CannotDo(f"'{word}' is not playable (not in the word list): it scores nothing")
        rec = score_record(rating, result, rules, play, battle=battle, gold_rush=gold_rush)
        echo(dumps(rec) if as_json else breakdown_text(rec, rules), nl=as_json)
        return

    from wordforge_cli.wordforge.rarity import turn_plays

    words = checked_words(turns.split(","))
    rules, tables = rule.load()
    playable = [tables.words.get(w) is not None for w in words]
    total = 0
    out = []
    for turn, (w, ok, (this_combo, this_link)) in enumerate(
            zip(words, playable, turn_plays(words, playable, combo=combo, link=link),
                strict=True), start=1):
        if not ok:
            rec = {"turn": turn, "word": w, "playable": False, "combo": 0, "link": False,
                   "score": 0}
        else:
            play = Play(this_combo, double, this_link, overdrive, fortress)
            rating, result = play_one(w, rules, tables, use_lemma=use_lemma, battle=battle,
                                      gold_rush=gold_rush, play=play)
            rec = {"turn": turn, **score_record(rating, result, rules, play, battle=battle,
                                                gold_rush=gold_rush)}
        total += rec["score"]
        out.append(rec)
    if as_json:
        for rec in out:
            echo(dumps(rec))
        echo(dumps({"total": total, "turns": len(out)}))
        return
    for rec in out:
        if not rec["playable"]:
            echo(f"turn {rec['turn']}: {rec['word']}  not playable: scores 0, combo "
                       "resets")
            continue
        extras = [f"combo {rec['combo']}"] + (["link"] if rec["link"] else [])
        echo(f"turn {rec['turn']}: {rec['word']}  {rec['label']}  {', '.join(extras)}  "
                   f"score {rec['score']}")
    echo(f"total {total}")
