"""``pack preview`` reads only the records it pictures, and refuses one of them that is
oversized whatever ``--items`` asks: with the default six (where a 1,040,000-character answer
ran out of memory at 6 GB) and with the most, one line naming the section file and line,
exit 2, no page written. A record past the pictured ones is never read.
"""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import EXAMPLES


@pytest.fixture(scope="module")
def two_boards(tmp_path_factory):
    from click.testing import CliRunner

    from wordforge_cli.cli import cli

    tmp = tmp_path_factory.mktemp("boards")
    shutil.copy(EXAMPLES / "tech.yaml", tmp / "tech.yaml")
    (tmp / "pack.yaml").write_text("seed: 3\nsections:\n  - name: boards\n    kind: crossword\n"
                                   "    count: 2\n    vocab: tech.yaml\n")
    result = CliRunner().invoke(cli, ["pack", "build", str(tmp / "pack.yaml"), "--out",
                                      str(tmp / "pack")])
    assert result.exit_code == 0, result.output
    return tmp / "pack"


def oversized_second(built, tmp_path):
    pack = tmp_path / "pack"
    shutil.copytree(built, pack)
    path = pack / "boards.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 2
    records[1]["answer"] = "a" * 1_040_000
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return pack, path


@pytest.mark.parametrize("items", [None, "2", "200"])
def test_an_oversized_answer_pictured_is_refused_for_any_number_of_items(tmp_path, run,
                                                                          two_boards, items):
    pack, path = oversized_second(two_boards, tmp_path)
    args = [] if items is None else ["--items", items]
    result = run("pack", "preview", pack, "-o", tmp_path / "p.html", *args)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "a text of 1,040,000 characters" in result.stderr
    assert f"{path}:2:" in result.stderr
    assert not (tmp_path / "p.html").exists()


@pytest.mark.parametrize("items", ["0", "1"])
def test_a_record_past_the_pictured_ones_is_never_read(tmp_path, run, two_boards, items):
    pack, _path = oversized_second(two_boards, tmp_path)
    result = run("pack", "preview", pack, "-o", tmp_path / "p.html", "--items", items)
    assert result.exit_code == 0, result.stderr
    assert "a" * 5000 not in (tmp_path / "p.html").read_text()
