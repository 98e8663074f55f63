"""A config (rules, crossword, kanji, a pack's) is refused before it is parsed when it could
hold far more values than any config does: its line breaks and YAML indicators (``,`` ``:``
``-`` ``[`` ``{`` ``?``, one before every value) are counted on its bytes, at most 100,000
(the bundled configs hold about 300). A 16 MiB config of a million keys took a gigabyte and
13 s before its first unknown key was refused.
"""

from __future__ import annotations

import pytest
from conftest import CONFIGS, EXAMPLES

from wordforge_cli.io.yamlio import MARKS, MAX_CONFIG_MARKS

MB = 1 << 20
SHAPES = {
    "a million keys": lambda: "extra:\n" + "".join(f"  k{i:07d}: v\n" for i in range(1_000_000)),
    "a flow mapping": lambda: "extra: {" + ", ".join(f"k{i}: 1" for i in range(300_000)) + "}\n",
    "nested flow lists": lambda: "extra: " + "[[a], " * 200_000 + "[a]]\n",
}


def marks(path) -> int:
    raw = path.read_bytes()
    return sum(raw.count(mark) for mark in MARKS)


def test_every_bundled_config_is_far_under_the_count():
    for path in [*CONFIGS.glob("*.yaml"), EXAMPLES / "pack.yaml",
                 EXAMPLES / "rarity-retuned.yaml"]:
        assert marks(path) < MAX_CONFIG_MARKS // 100, path


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("command", ["crossword", "rarity", "kanji", "pack"])
def test_a_config_of_more_values_than_any_config_is_refused_unparsed(run, tmp_path, shape,
                                                                   command):
    bundled = {"crossword": "crossword.yaml", "rarity": "rarity.yaml", "kanji": "kanji.yaml",
               "pack": None}[command]
    head = (CONFIGS / bundled).read_text(encoding="utf-8") if bundled else (
        "seed: 1\nsections:\n  - {name: b, kind: crossword, count: 1, vocab: v.yaml}\n")
    path = tmp_path / "c.yaml"
    path.write_text(head + SHAPES[shape](), encoding="utf-8")
    assert path.stat().st_size < 16 * MB
    args = {"crossword": ["crossword", "--config", path, "--vocab", EXAMPLES / "tech.yaml"],
            "rarity": ["score", "kitchen", "--config", path],
            "kanji": ["kanji", "--config", path, "-n", "1"],
            "pack": ["pack", "build", path, "--out", tmp_path / "out"]}[command]
    result = run(*args)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and f"{path}:" in result.stderr
    assert "line breaks and YAML indicators" in result.stderr
    assert f"at most {MAX_CONFIG_MARKS:,} are read" in result.stderr
