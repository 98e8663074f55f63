"""A ``kanji --dict`` entry holding a control character (a bidirectional override, a C1
control) never reaches stderr raw: it is refused with its file and line, the character shown
escaped, or (an entry that is no word of kanji) skipped with a warning that shows it escaped.
"""

from __future__ import annotations

import re

import pytest
from conftest import EXAMPLES

from wordforge_cli.core.text import CONTROLS

RAW = re.compile(f"[{CONTROLS}]")


@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\u200f", "\x9b", "\x85", "\x1b"])
@pytest.mark.parametrize("entry", ["悪{}意", "ひら{}がな"])
def test_a_dict_entry_with_a_control_is_never_shown_raw(run, tmp_path, char, entry):
    words = (EXAMPLES / "kanji-weather.txt").read_text(encoding="utf-8")
    path = tmp_path / "dict.txt"
    path.write_text(words + entry.format(char) + "\n", encoding="utf-8")
    result = run("kanji", "--dict", path, "--base", "3", "--bring", "10", "-n", "1",
                 "--seed", "7")
    assert not RAW.search(result.stderr.replace("\n", "")), result.stderr
    assert not RAW.search(result.stdout.replace("\n", ""))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and f"{path}:" in result.stderr
    assert f"U+{ord(char):04X}" in result.stderr
