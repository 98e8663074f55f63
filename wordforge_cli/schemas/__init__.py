"""JSON Schemas (draft 2020-12) of every record wfkit writes, shipped for game clients.

One file per record kind (``NAME.json``). A schema may point into another with a relative
``$ref`` (the pack manifest's section statistics are the engines' own); :func:`bundled` gives
a self-contained document with those embedded under ``$defs`` by their ``$id``, as the 2020-12
spec's bundling describes, so a client needs one file and no network.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

SCHEMA_DIR = Path(__file__).resolve().parent
# an identifier, not a location: .invalid never resolves, so nothing is fetched
BASE_URI = "https://wfkit.invalid/schemas/"


def names() -> list[str]:
    """Every schema's name, sorted (``crossword-board``, ``pack-manifest``, ...)."""
    return sorted(path.stem for path in SCHEMA_DIR.glob("*.json"))


@cache
def _load(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((SCHEMA_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return schema


def load(name: str) -> dict[str, Any]:
    """The schema ``name`` as stored (a fresh copy). KeyError for an unknown name."""
    if name not in names():
        raise KeyError(name)
    copy: dict[str, Any] = json.loads(json.dumps(_load(name)))
    return copy


def _external_refs(node: Any, base: str) -> set[str]:
    """The documents (absolute URIs without fragment) that ``$ref``s under ``node`` point to."""
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and not ref.startswith("#"):
            found.add(urldefrag(urljoin(base, ref)).url)
        for value in node.values():
            found |= _external_refs(value, base)
    elif isinstance(node, list):
        for value in node:
            found |= _external_refs(value, base)
    return found


def _name_of(uri: str) -> str:
    if not uri.startswith(BASE_URI) or not uri.endswith(".json"):
        raise KeyError(uri)
    return uri.removeprefix(BASE_URI).removesuffix(".json")


def bundled(name: str) -> dict[str, Any]:
    """Schema ``name`` with every schema it refers to embedded: valid on its own."""
    root = load(name)
    seen = {root["$id"]}
    todo = sorted(_external_refs(root, root["$id"]))
    embedded: dict[str, Any] = {}
    while todo:
        uri = todo.pop(0)
        if uri in seen:
            continue
        seen.add(uri)
        other = load(_name_of(uri))
        other.pop("$schema", None)
        embedded[uri] = other
        todo += sorted(_external_refs(other, uri) - seen)
    if embedded:
        root.setdefault("$defs", {}).update(embedded)
    return root

