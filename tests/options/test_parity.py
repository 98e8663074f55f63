"""Parity of the three front ends, generated from the engines' specs
(wordforge_cli/options/spec.py).

For every field of every engine's spec and a set of probe values made from the field's own
type (both ends of a range and one past each, a wrong type, every choice and a typo of one,
...), the command line, a ``--config`` file and a pack section must all accept the value or all
refuse it with the same message; accepted values must parse to the same thing. A field added
to a spec is probed here without another line of test.

And what they make: an option given on the command line, as a top-level key of a ``--config``
file or in a preset of that file (``--preset`` or the file's own ``preset:``) gives the same
bytes (records, ``--stats``, stderr without its timings), the command line winning over the
file; a pack section's keys given in the section or through the config file it names (a kanji
preset, a crossword config) give the same section files.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import pytest
import yaml
from conftest import CONFIGS, EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordforge_cli.core.errors import WfkitError
from wordforge_cli.options.spec import CLI, CONFIG, PACK, Field, Names, Pair, Parsed, Spec

SKIP = object()  # a probe a front end cannot express (a list on the command line)


@dataclass
class Engine:
    name: str
    spec: Spec
    command: tuple[str, ...]
    load_config: Any  # path -> the engine's config object
    config_options: Any  # config object -> {name: value}
    section: dict[str, Any] | None  # a minimal pack section of this engine (None: no pack)
    files: tuple[str, ...] = ()  # example files the section names
    args: tuple[str, ...] = ()  # what the command line needs besides the probed option


def _engines() -> list[Engine]:
    from wordforge_cli.crossword import config as cw
    from wordforge_cli.kanji import config as kanji_config
    from wordforge_cli.wordforge import config as words

    def crossword(kind: str, spec: Spec, *command: str) -> Engine:
        return Engine(kind, spec, ("crossword", *command), cw.load_config,
                      lambda cfg: cfg.options,
                      {"kind": kind, "vocab": "tech.yaml", "count": 1}, ("tech.yaml",))

    return [
        crossword("crossword", cw.BATCH + cw.BOARD + cw.STYLED),
        crossword("endless", cw.ENDLESS + cw.BOARD, "endless"),
        crossword("challenge", cw.CHALLENGE + cw.STYLED + cw.BOARD, "challenge"),
        Engine("kanji", kanji_config.POOLS, ("kanji",), kanji_config.load_config,
               lambda cfg: cfg.options, {"kind": "kanji", "count": 1}),
        Engine("kanji-play", kanji_config.PLAY, ("kanji", "play"), kanji_config.load_config,
               lambda cfg: cfg.options, None, args=("--pool", "pool.jsonl")),
        Engine("rarity", words.RATING, ("rarity",), None, None,
               {"kind": "rarity", "vocab": "words.yaml"}, ("words.yaml",)),
        Engine("balance", words.GAME + words.RULE, ("balance",), None, None,
               {"kind": "balance", "count": 1}),
        Engine("tiles", words.BEST, ("tiles",), None, None, None),
    ]


ENGINES = _engines()


def probes(f: Field) -> list[Any]:
    """Values worth trying for a field, from its type alone (none for a file: each front end
    names files from where it stands, the pack from the pack config's folder)."""
    t = f.type
    if f.is_file:
        return []
    if t is click.BOOL:
        return [True, False, "maybe", 3]
    if isinstance(t, click.IntRange | click.FloatRange):
        out: list[Any] = ["x", [1, 2]]
        step = 1 if isinstance(t, click.IntRange) else 0.5
        for end, sign in ((t.min, -1), (t.max, 1)):
            if end is not None:
                out += [end, end + sign * step]
        if isinstance(t, click.IntRange):
            out += [2.5, True]
        return out
    if isinstance(t, click.types.IntParamType | click.types.FloatParamType):
        return [0, 7, "x", 2.5]
    if isinstance(t, click.Choice):
        first = str(t.choices[0])
        return [*t.choices, "zzz", first[:-1] + ("x" if first[-1] != "x" else "y"), 5]
    if isinstance(t, Pair):
        return ["3-4", "4-3", [3, 4], 3, "x", [1], "0-2", [True, 2]]
    if isinstance(t, Names):
        return ["all", t.choices[0], f"{t.choices[0]},{t.choices[-1]}", "zzz", [t.choices[0]],
                []]
    if isinstance(t, Parsed):  # player models of both games: each valid for one of them
        return ["greedy", "lookahead@3", "greedy@x", "C2", "zipf:3", "all", "x", 5,
                ["greedy", "C2"], [], {"a": 1}]
    return ["x"]


def cli_text(f: Field, value: Any) -> list[str] | object:
    """The command-line words that give ``value``, or SKIP."""
    if f.type is click.BOOL:
        if not isinstance(value, bool):
            return SKIP
        decls = f.decls[0].split("/")
        if value:
            return [decls[0]]
        return [decls[1]] if len(decls) > 1 else []
    if isinstance(value, list | dict):
        return SKIP
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    return [f.flag, text]


def cli_outcome(engine: Engine, f: Field, value: Any) -> tuple[str, Any]:
    words = cli_text(f, value)
    if words is SKIP:
        return ("skip", None)
    command, ctx = _command(engine)
    try:
        sub = command.make_context(engine.command[-1], [*engine.args, *words], parent=ctx)
    except click.BadParameter as exc:
        return ("refused", exc.message)
    return ("accepted", _plain(sub.params[f.name]))


def _command(engine: Engine) -> tuple[click.Command, click.Context]:
    """The engine's (sub)command and the context it runs under."""
    from wordforge_cli.cli import cli

    ctx = click.Context(cli, info_name="wfkit")
    command: Any = cli
    for name in engine.command:
        command = command.get_command(ctx, name)
        if name != engine.command[-1]:
            # the group's own settings (its -h), as a real run has them: Click caches a
            # command's help option from the first context it sees
            ctx = click.Context(command, info_name=name, parent=ctx, **command.context_settings)
    return command, ctx


def config_outcome(engine: Engine, f: Field, value: Any, tmp: Path) -> tuple[str, Any]:
    path = tmp / f"{engine.name}-config.yaml"
    text = yaml.safe_dump({f.config_key: value}, default_flow_style=None)
    path.write_text(text, encoding="utf-8")
    try:
        cfg = engine.load_config(path)
    except WfkitError as exc:
        assert exc.field == f.config_key, str(exc)
        assert exc.line == 1 and exc.path == str(path)
        return ("refused", exc.message)
    return ("accepted", _plain(engine.config_options(cfg).get(f.name)))


def pack_outcome(engine: Engine, f: Field, value: Any, tmp: Path) -> tuple[str, Any]:
    from wordforge_cli.batch.kinds import prepare_section
    from wordforge_cli.pack.config import load_pack_config

    for name in engine.files:
        if not (tmp / name).exists():
            shutil.copy(EXAMPLES / name, tmp / name)
    section = {"name": "s", **engine.section, f.config_key: value}
    path = tmp / "pack.yaml"
    path.write_text(yaml.safe_dump({"seed": 1, "sections": [section]}), encoding="utf-8")
    config = load_pack_config(path)
    try:
        prepare_section(config, config.specs[0])
    except WfkitError as exc:
        if exc.field == f"sections[0].{f.config_key}" and not exc.message.startswith(
                "can never succeed"):
            assert exc.path == str(path) and exc.line is not None
            return ("refused", exc.message)
        # a value the reader took and the engine then refused (say, a band no word fits)
    return ("accepted", None)


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


CASES = [(e, f, v) for e in ENGINES for f in e.spec for v in probes(f)]


@pytest.mark.parametrize(("engine", "field", "value"), CASES,
                         ids=[f"{e.name}-{f.name}-{v!r}" for e, f, v in CASES])
def test_front_ends_agree(engine: Engine, field: Field, value: Any, tmp_path: Path) -> None:
    outcomes = {}
    if CLI in field.fronts:
        outcomes[CLI] = cli_outcome(engine, field, value)
    if CONFIG in field.fronts:
        outcomes[CONFIG] = config_outcome(engine, field, value, tmp_path)
    if PACK in field.fronts and engine.section is not None:
        outcomes[PACK] = pack_outcome(engine, field, value, tmp_path)
    shown = {k: v for k, v in outcomes.items() if v[0] != "skip"}
    verdicts = {k: v[0] for k, v in shown.items()}
    assert len(set(verdicts.values())) <= 1, shown
    refused = {k: v[1] for k, v in shown.items() if v[0] == "refused"}
    assert len(set(refused.values())) <= 1, refused
    parsed = [v[1] for k, v in shown.items() if v[0] == "accepted" and k != PACK]
    assert all(p == parsed[0] for p in parsed), shown


def test_every_spec_field_is_a_parameter_of_its_command() -> None:
    """pip-tools' rule: a config key is one of the command's own parameters."""
    for engine in ENGINES:
        params = {p.name for p in _command(engine)[0].params}
        for f in [*engine.spec.on(CONFIG), *engine.spec.on(CLI)]:
            assert f.name in params, (engine.name, f.name)


def test_an_unknown_config_key_names_its_line_and_a_close_key(tmp_path: Path) -> None:
    for engine in ENGINES:
        if not engine.spec.on(CONFIG):
            continue
        f = max(engine.spec.on(CONFIG), key=lambda f: len(f.config_key))
        path = tmp_path / "c.yaml"
        middle = len(f.config_key) // 2
        typo = f.config_key[:middle] + "x" + f.config_key[middle:]
        path.write_text(f"# a comment\n{typo}: 1\n", encoding="utf-8")
        with pytest.raises(WfkitError) as info:
            engine.load_config(path)
        assert info.value.line == 2
        assert f"unknown key '{typo}'" in info.value.message
        assert f"did you mean '{f.config_key}'" in info.value.message


def test_the_field_is_rendered_per_front_end(tmp_path: Path) -> None:
    """One error, three spellings of its field: --budget, budget, sections[0].budget."""
    from wordforge_cli.core.errors import UsageError

    assert str(UsageError("too big", field="max_grade")) == "--max-grade: too big"
    crossword = ENGINES[0]
    budget = crossword.spec["budget"]
    too_big = budget.type.max + 1
    assert cli_outcome(crossword, budget, too_big)[0] == "refused"
    path = tmp_path / "c.yaml"
    path.write_text(f"budget: {too_big}\n", encoding="utf-8")
    with pytest.raises(WfkitError) as info:
        crossword.load_config(path)
    assert str(info.value).startswith(f"{path}:1: budget: {too_big} is not in the range")


# ---- disagreements between the front ends, one by one ----------------------------------------

def _pack(tmp_path: Path, section: dict[str, Any], *files: str) -> Path:
    for name in files:
        shutil.copy(EXAMPLES / name, tmp_path / name)
    path = tmp_path / "pack.yaml"
    path.write_text(yaml.safe_dump({"seed": 1, "sections": [{"name": "s", **section}]},
                                   default_flow_style=None), encoding="utf-8")
    return path


def _error(result: Any) -> str:
    lines = [x for x in result.stderr.splitlines() if x.startswith("wfkit: error: ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(("command", "flag", "key", "value", "section", "files", "message"), [
    (("crossword", "--vocab", str(EXAMPLES / "tech.yaml")), "--budget", "budget", 5_000_000,
     {"kind": "crossword", "vocab": "tech.yaml", "count": 1}, ("tech.yaml",),
     "5000000 is not in the range 1<=x<=1000000"),
    (("kanji", "-n", "1"), "--attempts", "attempts", 500_000, {"kind": "kanji", "count": 1},
     (), "500000 is not in the range 1<=x<=100000"),
])
def test_a_limit_is_the_same_on_every_front_end(run, tmp_path, command, flag, key, value,
                                                 section, files, message):
    cli = _error(run(*command, flag, str(value)))
    assert f"'{flag}': {message}" in cli
    config = tmp_path / "c.yaml"
    config.write_text(f"{key}: {value}\n", encoding="utf-8")
    from_config = _error(run(*command, "--config", config))
    assert f"{config}:1: {key}: {message}" in from_config
    pack = _pack(tmp_path, {**section, key: value}, *files)
    from_pack = _error(run("pack", "build", pack, "--out", tmp_path / "out"))
    assert f"{pack}:" in from_pack and f"sections[0].{key}: {message}" in from_pack


def test_an_endless_plan_that_can_never_succeed_is_exit_2_with_its_reason(run, tmp_path):
    vocab = tmp_path / "tiny.yaml"
    vocab.write_text("language: en\nwords: [ab, ba, abab]\n", encoding="utf-8")
    cli = run("crossword", "endless", "--vocab", vocab, "--count", "2", "--seed", "1")
    assert cli.exit_code == 2
    reason = "no band of the endless plan can be made (impossible request:"
    assert reason in _error(cli)
    shutil.copy(vocab, tmp_path / "v.yaml")
    pack = _pack(tmp_path, {"kind": "endless", "vocab": "v.yaml", "count": 2})
    built = run("pack", "build", pack, "--out", tmp_path / "out")
    assert built.exit_code == 2 and reason in _error(built)


def test_kanji_pools_out_of_budget_are_counted_alike_by_the_command_and_a_pack(run, tmp_path):
    """The engine's policy for both: a pool that misses its kanji range within its attempts is
    counted as failed and the run goes on."""
    import json

    stats = tmp_path / "stats.json"
    out = tmp_path / "pools.jsonl"
    cli = run("kanji", "-n", "12", "--kanji", "47-48", "--attempts", "1", "--seed", "1",
              "-q", "-o", out, "--stats", stats)
    assert cli.exit_code == 0, cli.stderr
    summary = json.loads(stats.read_text(encoding="utf-8"))["stats"]
    assert summary["failed"] > 0 and summary["made"] > 0
    assert summary["made"] + summary["failed"] == 12
    assert len(out.read_text(encoding="utf-8").splitlines()) == summary["made"]
    reasons = [line for line in cli.stderr.splitlines() if line.endswith("counted as failed")]
    assert len(reasons) == summary["failed"]  # every missing pool its line, quiet or not
    assert all(re.match(r"wfkit: pool \d+: no pool with 47-48 kanji", r) for r in reasons)
    pack = _pack(tmp_path, {"kind": "kanji", "count": 12, "kanji": "47-48", "attempts": 1})
    built = run("pack", "build", pack, "--out", tmp_path / "out")
    assert built.exit_code == 0, built.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    section = manifest["sections"][0]["stats"]
    assert section["failed"] > 0 and section["made"] + section["failed"] == 12


def test_a_vocabulary_in_another_language_is_refused_by_the_command_and_a_pack(run, tmp_path):
    vocab = tmp_path / "ja.yaml"
    vocab.write_text("language: ja\nwords: [neko, inu]\n", encoding="utf-8")
    message = "language 'ja': WordForge rates English words (en)"
    cli = run("rarity", "--vocab", vocab)
    assert cli.exit_code == 2 and f"{vocab}: {message}" in _error(cli)
    pack = _pack(tmp_path, {"kind": "rarity", "vocab": "ja.yaml"})
    built = run("pack", "build", pack, "--out", tmp_path / "out")
    assert built.exit_code == 2 and f"{vocab}: {message}" in _error(built)


@pytest.mark.parametrize(("command", "values", "section", "files", "flag", "key", "message"), [
    (("crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "-n", "1"),
     {"min_len": 9, "max_len": 9}, {"kind": "crossword", "vocab": "tech.yaml", "count": 1},
     ("tech.yaml",), "--min-len", "band", "impossible request: no word of 9-9 letters"),
    (("kanji", "-n", "1"), {"min_zipf": 99}, {"kind": "kanji", "count": 1}, (),
     "--min-zipf", "min_zipf", "base 5 + bring 25 needs 30 words; the filters leave 0 of"),
])
def test_an_engine_refusal_names_its_own_field_on_every_front_end(
        run, tmp_path, command, values, section, files, flag, key, message):
    """A value every reader takes and the engine then refuses (a band no word has, a Zipf
    floor no word reaches) is named by the field the engine refuses, where it was given:
    its flag, its line in --config, its key in a pack section (a batch's band), or its line
    in the config a pack section names."""
    field = next(iter(values))
    words = [w for name, v in values.items() for w in (f"--{name.replace('_', '-')}", str(v))]
    assert f"{flag}: {message}" in _error(run(*command, *words))
    config = tmp_path / "c.yaml"
    config.write_text("".join(f"{k}: {v}\n" for k, v in values.items()), encoding="utf-8")
    assert f"{config}:1: {field}: {message}" in _error(run(*command, "--config", config))
    given = {key: list(values.values()) if key == "band" else values[key]}
    pack = _pack(tmp_path, {**section, **given}, *files)
    from_pack = _error(run("pack", "build", pack, "--out", tmp_path / "out"))
    assert f"{pack}:" in from_pack
    assert f"sections[0].{key}: can never succeed: {message}" in from_pack
    pack = _pack(tmp_path, {**section, "config": "c.yaml"})
    from_pack = _error(run("pack", "build", pack, "--out", tmp_path / "out"))
    assert f"{config}:1: {field}: can never succeed: {message}" in from_pack


def test_a_preset_value_the_engine_refuses_is_named_at_its_line(run, tmp_path):
    config = tmp_path / "k.yaml"
    config.write_text("presets:\n  rare:\n    min_zipf: 99\n", encoding="utf-8")
    refused = _error(run("kanji", "-n", "1", "--config", config, "--preset", "rare"))
    assert f"{config}:3: min_zipf: base 5 + bring 25 needs 30 words" in refused
    # on the command line the flag wins over the preset, and is named
    given = _error(run("kanji", "-n", "1", "--config", config, "--preset", "rare",
                       "--min-zipf", "98"))
    assert "--min-zipf: base 5 + bring 25 needs 30 words" in given
    assert "--player: at most two players" in _error(run(
        "kanji", "-n", "1", "--self-play", *["--player", "greedy"] * 3))


# ----------------------------------------------------------------------- the same bytes
SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
TIMING = re.compile(r"\d[\d,.]*\s?(?:[a-z]+/s|ms|s)\b")


def _cli(options: dict[str, Any]) -> list[str]:
    """Options as command-line words (``True`` is a bare flag)."""
    words: list[str] = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, list):
            for item in value:
                words += [flag, str(item)]
        else:
            words += [flag, str(value)]
    return words


def _made(run: Any, tmp_path: Path, *args: object) -> tuple[Any, ...]:
    out, stats = tmp_path / "out", tmp_path / "stats.json"
    out.unlink(missing_ok=True)
    stats.unlink(missing_ok=True)
    result = run(*args, "-o", out, "--stats", stats)
    summary = json.loads(stats.read_text(encoding="utf-8")) if stats.exists() else None
    if summary is not None:  # (where the values came from, a file or a preset, is the front's)
        summary.pop("timing", None)
        for key in ("config", "preset"):
            summary["request"].pop(key, None)
    err = TIMING.sub("T", result.stderr).replace(" (preset custom)", "")
    return (result.exit_code, out.read_bytes() if out.exists() else None, summary, err)


def _yaml(path: Path, data: Any) -> Path:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------ kanji
@st.composite
def kanji_options(draw: st.DrawFn) -> dict[str, Any]:
    """Valid POOLS values a small run meets quickly (the keys are the config's)."""
    pool: dict[str, Any] = {
        "base": st.integers(1, 6), "bring": st.integers(1, 30),
        "kanji": st.integers(10, 40).map(lambda low: f"{low}-{low + 25}"),
        "max_grade": st.integers(5, 9), "base_max_grade": st.integers(3, 9),
        "min_zipf": st.sampled_from([1.5, 2.5, 3.0]), "attempts": st.integers(1, 40),
        "hidden_examples": st.integers(0, 8), "self_play": st.just(True),
        "games": st.integers(1, 3),
    }
    keys = draw(st.lists(st.sampled_from(sorted(pool)), min_size=1, max_size=5, unique=True))
    return {key: draw(pool[key]) for key in keys}


@SETTINGS
@given(options=kanji_options(), count=st.integers(1, 3), seed=st.integers(0, 2**63 - 1))
def test_a_kanji_option_is_the_same_from_the_command_line_a_config_and_a_preset(
        run: Any, tmp_path: Path, options: dict[str, Any], count: int, seed: int) -> None:
    common = ["kanji", "-n", count, "--seed", seed]
    bundled = yaml.safe_load((CONFIGS / "kanji.yaml").read_text(encoding="utf-8"))
    cli = _made(run, tmp_path, *common, *_cli(options))
    top = _yaml(tmp_path / "top.yaml", {**bundled, **options})
    assert _made(run, tmp_path, *common, "--config", top) == cli
    presets = {**bundled, "presets": {**bundled["presets"], "custom": options}}
    preset = _yaml(tmp_path / "preset.yaml", presets)
    assert _made(run, tmp_path, *common, "--config", preset, "--preset", "custom") == cli
    default = _yaml(tmp_path / "default.yaml", {**presets, "preset": "custom"})
    assert _made(run, tmp_path, *common, "--config", default) == cli
    # the command line wins over a config that says otherwise
    wrong = _yaml(tmp_path / "wrong.yaml", {**bundled, **_others(options)})
    assert _made(run, tmp_path, *common, "--config", wrong, *_cli(options)) == cli


def _others(options: dict[str, Any]) -> dict[str, Any]:
    """Other valid values for the same keys (a flag's: off)."""
    def other(key: str, value: Any) -> Any:
        if value is True:
            return False
        if key in ("layout", "style", "styles"):
            return {"layout": "strict", "style": "most", "styles": "head"}[key] \
                if value != {"layout": "strict", "style": "most", "styles": "head"}[key] \
                else {"layout": "loose", "style": "tail", "styles": "alt"}[key]
        if key == "kanji":
            return "5-60"
        if isinstance(value, float):
            return value + 0.5
        return value + 1 if key not in ("max_grade", "base_max_grade") or value < 9 else 8
    return {key: other(key, value) for key, value in options.items()}


# -------------------------------------------------------------------------------- crossword
BOARD_KEYS: dict[str, Any] = {
    "budget": st.sampled_from([1, 40, 3000]), "layout": st.sampled_from(["loose", "strict"]),
    "max_width": st.integers(5, 12), "max_height": st.integers(5, 12),
    "styles": st.sampled_from(["all", "tail", "tail,alt"]), "difficulty": st.just(True),
    "no_redraw": st.just(True), "strict_vocab": st.just(True),
}
BATCH_KEYS: dict[str, Any] = {
    "style": st.sampled_from(["none", "tail", "head", "alt", "most"]),
    "redraws": st.integers(1, 20), "min_len": st.just(3), "max_len": st.integers(3, 6),
}


@st.composite
def crossword_options(draw: st.DrawFn) -> tuple[list[str], dict[str, Any]]:
    form = draw(st.sampled_from(["batch", "batch", "endless", "challenge"]))
    pool = {**BOARD_KEYS, **(BATCH_KEYS if form == "batch" else {})}
    if form == "challenge":
        pool["redraws"] = BATCH_KEYS["redraws"]
    if form == "endless":
        del pool["no_redraw"]
    keys = draw(st.lists(st.sampled_from(sorted(pool)), min_size=1, max_size=6, unique=True))
    options = {key: draw(pool[key]) for key in keys}
    if "max_len" in options:
        options["min_len"] = 3
    head = {"batch": [], "endless": ["endless"], "challenge": ["challenge"]}[form]
    count = {"batch": "120", "endless": "60", "challenge": "4"}[form]
    fold = draw(st.sampled_from([[], ["--keep-small"]]))
    return [*head, "--vocab", str(EXAMPLES / "tech.yaml"), "--count", count, *fold], options


@SETTINGS
@given(form=crossword_options(), seed=st.integers(0, 2**63 - 1))
def test_a_crossword_option_is_the_same_from_the_command_line_and_a_config(
        run: Any, tmp_path: Path, form: tuple[list[str], dict[str, Any]], seed: int) -> None:
    head, options = form
    bundled = yaml.safe_load((CONFIGS / "crossword.yaml").read_text(encoding="utf-8"))
    cli = _made(run, tmp_path, "crossword", *head, "--seed", seed, *_cli(options))
    # a tiny budget may make nothing at all (a challenge set needs all of its boards): the
    # documented could-not-do, which the config must give just the same
    assert cli[0] == 0 or (cli[0] == 1 and "ran out of their budget" in cli[3]), cli[3]
    config = _yaml(tmp_path / "cw.yaml", {**bundled, **options})  # (a group option)
    assert _made(run, tmp_path, "crossword", "--config", config, *head, "--seed", seed) == cli
    wrong = _yaml(tmp_path / "wrong.yaml", {**bundled, **_others(options)})
    assert _made(run, tmp_path, "crossword", "--config", wrong, *head, "--seed", seed,
                 *_cli(options)) == cli


# ------------------------------------------------------------------------------------- pack
def _section_files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != "manifest.json"}


def _build(run: Any, root: Path, name: str, sections: list[dict[str, Any]]) -> dict[str, bytes]:
    config = _yaml(root / f"{name}.yaml", {"name": "fronts", "seed": 11, "sections": sections})
    out = root / name
    result = run("pack", "build", config, "--out", out, "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    return _section_files(out)


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(kanji=kanji_options(), board=st.fixed_dictionaries(
    {}, optional={key: BOARD_KEYS[key] for key in ("budget", "layout", "max_width", "styles")}
    | {"style": BATCH_KEYS["style"], "redraws": BATCH_KEYS["redraws"]}))
def test_a_section_key_is_the_same_in_the_section_and_in_the_config_it_names(
        run: Any, tmp_path: Path, kanji: dict[str, Any], board: dict[str, Any]) -> None:
    root = tmp_path / "p"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    shutil.copy(EXAMPLES / "tech.yaml", root)
    kanji.pop("self_play", None)  # (a pack section plays with its own 'players' list)
    kanji.pop("games", None)
    crossword = {"name": "boards", "kind": "crossword", "vocab": "tech.yaml", "count": 40,
                 "render": ["text", "ipuz"], "render_limit": 3}
    pools = {"name": "pools", "kind": "kanji", "count": 2, "render": ["text"],
             "render_limit": 1}
    direct = _build(run, root, "direct", [{**crossword, **board}, {**pools, **kanji}])
    bundled_kanji = yaml.safe_load((CONFIGS / "kanji.yaml").read_text(encoding="utf-8"))
    bundled_kanji["presets"]["custom"] = kanji
    _yaml(root / "k.yaml", bundled_kanji)
    bundled_cw = yaml.safe_load((CONFIGS / "crossword.yaml").read_text(encoding="utf-8"))
    _yaml(root / "c.yaml", {**bundled_cw, **board})
    named = _build(run, root, "named", [{**crossword, "config": "c.yaml"},
                                        {**pools, "config": "k.yaml", "preset": "custom"}])
    assert named == direct
