"""``pack preview`` of a crafted pack: the page
reads only files inside the pack, every manifest and record value is validated or escaped,
and headless Chromium runs no script but the page's own.
"""

from __future__ import annotations

import json
import os
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
import test_pack_fake  # noqa: F401  (registers the dice kind)
from test_pack import write_config
from test_pack_hostile import edit_manifest, one_line_error, snapshot
from test_pack_preview import find_chromium

XSS = "</title></pre><script>document.body.setAttribute('data-pwned','1')</script>" \
      "<img src=x onerror=\"document.body.setAttribute('data-pwned','2')\">\"'&"

CROSSWORD = """\
seed: 3
sections:
  - name: boards
    kind: crossword
    count: 2
    vocab: tech.yaml
"""


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(html: str) -> list[tuple[str, dict]]:
    parser = Tags()
    parser.feed(html)
    return parser.tags


def assert_inert(html: str) -> None:
    """Only the page's own script; no element or handler the manifest brought in."""
    found = tags(html)
    assert [t for t, _ in found].count("script") == 1
    assert not [t for t, _ in found if t in ("img", "iframe", "object", "embed", "link")]
    for _tag, attrs in found:
        assert not [a for a in attrs if a.startswith("on")], attrs


@pytest.fixture
def dice_pack(tmp_path, run):
    config = write_config(tmp_path, count=40)
    out = tmp_path / "pack"
    assert run("pack", "build", config, "--out", out, "--jobs", "1").exit_code == 0
    return out


@pytest.fixture(scope="module")
def board_pack(tmp_path_factory):
    from click.testing import CliRunner
    from conftest import EXAMPLES

    from wordforge_cli.cli import cli

    tmp = tmp_path_factory.mktemp("boards")
    (tmp / "tech.yaml").write_bytes((EXAMPLES / "tech.yaml").read_bytes())
    (tmp / "pack.yaml").write_text(CROSSWORD)
    out = tmp / "pack"
    result = CliRunner().invoke(cli, ["pack", "build", str(tmp / "pack.yaml"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_every_free_text_value_of_a_manifest_is_escaped(tmp_path, run, dice_pack):
    def poison(m):
        m["name"] = m["description"] = XSS
        m["config"]["file"] = XSS.replace("/", "_")
        m["sections"][0]["options"]["note"] = XSS
        m["sections"][0]["stats"][XSS] = XSS
        m["data"].append({"file": XSS, "sha256": "0" * 64, "bytes": 0, "source": XSS,
                          "license": XSS, "provenance": XSS, "sections": ["big"]})

    edit_manifest(dice_pack, poison)
    html = tmp_path / "p.html"
    result = run("pack", "preview", dice_pack, "-o", html)
    assert result.exit_code == 0, result.stderr
    text = html.read_text()
    assert_inert(text)
    chromium_dom_is_clean(html, tmp_path)


def test_hostile_record_text_in_boards_is_escaped(tmp_path, run, board_pack):
    path = board_pack / "boards.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    records[0]["answer"] = XSS
    records[0]["style"] = XSS
    for cell in records[0]["cells"]:
        cell["c"] = "<"  # one character, as a cell holds
    for word in records[0]["words"]:
        word["word"] = XSS
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    html = tmp_path / "p.html"
    result = run("pack", "preview", board_pack, "-o", html)
    assert result.exit_code == 0, result.stderr  # escaped, not refused
    assert_inert(html.read_text())
    chromium_dom_is_clean(html, tmp_path)
    records[1]["cells"] = 5  # a record the renders cannot draw: one line naming it
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    one_line_error(run("pack", "preview", board_pack, "-o", html), 2, "boards.jsonl:2:")


@pytest.mark.parametrize("shard", [
    {"index": "<script>alert(1)</script>", "count": 2},
    {"index": 1, "count": "<img src=x onerror=alert(1)>"},
    {"index": 3, "count": 2}, {"index": True, "count": 2}, [1, 2], "1/2",
])
def test_the_shard_index_and_count_are_checked(tmp_path, run, dice_pack, shard):
    edit_manifest(dice_pack, lambda m: m.update(shard=shard))
    one_line_error(run("pack", "preview", dice_pack, "-o", tmp_path / "p.html"), 2,
                   "manifest.json: shard")
    assert not (tmp_path / "p.html").exists()


@pytest.mark.parametrize("name", ["../../other/boards.jsonl", "/etc/hostname", "big.txt",
                                  "big.jsonl\n"])
def test_a_section_file_outside_the_pack_is_never_read(tmp_path, run, dice_pack, name):
    other = tmp_path / "other"
    other.mkdir()
    (other / "boards.jsonl").write_text('{"secret": "do not embed"}\n')
    edit_manifest(dice_pack, lambda m: m["sections"][0].update(file=name))
    result = run("pack", "preview", dice_pack, "-o", tmp_path / "p.html")
    one_line_error(result, 2, "sections[0].file")


def test_a_section_file_that_is_a_link_out_or_a_fifo(tmp_path, run, board_pack):
    outside = tmp_path / "secret.jsonl"
    outside.write_bytes((board_pack / "boards.jsonl").read_bytes())
    moved = tmp_path / "kept.jsonl"
    os.rename(board_pack / "boards.jsonl", moved)
    try:
        (board_pack / "boards.jsonl").symlink_to(outside)
        one_line_error(run("pack", "preview", board_pack, "-o", tmp_path / "p.html"), 2,
                       "symbolic link")
        (board_pack / "boards.jsonl").unlink()
        os.mkfifo(board_pack / "boards.jsonl")
        one_line_error(run("pack", "preview", board_pack, "-o", tmp_path / "p.html"), 2,
                       "is a FIFO")
        (board_pack / "boards.jsonl").unlink()
        (board_pack / "boards.jsonl").mkdir()
        one_line_error(run("pack", "preview", board_pack, "-o", tmp_path / "p.html"), 2,
                       "is a directory")
        (board_pack / "boards.jsonl").rmdir()
    finally:
        if os.path.lexists(board_pack / "boards.jsonl"):
            os.unlink(board_pack / "boards.jsonl")
        os.rename(moved, board_pack / "boards.jsonl")


@pytest.mark.parametrize(("text", "needle"), [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"format": "wfkit-pack/1", "x": ' + "[" * 5000 + "]" * 5000 + "}", "manifest.json"),
    ("\xff\xfe", "not UTF-8"),
    ('{"format": "wfkit-pack/1"', "not valid JSON"),
    ('{"format": "wfkit-pack/1", "name": []}', "manifest.json"),
])
def test_broken_manifests_are_one_line(tmp_path, run, dice_pack, text, needle):
    (dice_pack / "manifest.json").write_bytes(text.encode("latin-1") if "\xff" in text
                                              else text.encode())
    one_line_error(run("pack", "preview", dice_pack, "-o", tmp_path / "p.html"), 2, needle)


def test_deeply_nested_statistics_are_refused(tmp_path, run, dice_pack):
    deep: object = 1
    for _ in range(200):
        deep = {"k": deep}
    edit_manifest(dice_pack, lambda m: m["sections"][0]["stats"].update(deep=deep))
    one_line_error(run("pack", "preview", dice_pack, "-o", tmp_path / "p.html"), 2,
                   "sections[0].stats", "nested deeper")


def test_a_manifest_with_a_byte_order_mark_is_read(tmp_path, run, dice_pack):
    text = (dice_pack / "manifest.json").read_text()
    (dice_pack / "manifest.json").write_text("\ufeff" + text)
    result = run("pack", "preview", dice_pack, "-o", tmp_path / "p.html")
    assert result.exit_code == 0, result.stderr


def test_a_manifest_that_is_a_link_or_fifo(tmp_path, run, dice_pack):
    outside = tmp_path / "elsewhere.json"
    os.rename(dice_pack / "manifest.json", outside)
    (dice_pack / "manifest.json").symlink_to(outside)
    one_line_error(run("pack", "preview", dice_pack, "-o", tmp_path / "p.html"), 2,
                   "symbolic link")
    (dice_pack / "manifest.json").unlink()
    os.mkfifo(dice_pack / "manifest.json")
    before = snapshot(tmp_path)
    one_line_error(run("pack", "preview", dice_pack, "-o", tmp_path / "p.html"), 2, "FIFO")
    assert snapshot(tmp_path) == before


def chromium_dom_is_clean(html: Path, tmp_path: Path) -> None:
    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but Chromium is not installed")
        return
    dom = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
         html.resolve().as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert 'data-boards-drawn="' in dom.stdout  # the page's own script ran
    assert 'data-pwned="' not in dom.stdout  # no other did
    assert_inert(dom.stdout)
