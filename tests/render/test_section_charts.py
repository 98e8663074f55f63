"""Charts of a crossword or kanji section's statistics, drawn from a manifest anyone could
edit: any JSON value in any field draws a well-formed picture or nothing, never an error, a
non-finite or negative bar, or unescaped text."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from wordforge_cli.render.charts import MAX_BARS, crossword_charts, pool_charts

NS = "{http://www.w3.org/2000/svg}"
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**20),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                    st.sampled_from(["<b>&", "1", "-1", "²"]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=6)),
    max_leaves=30)
QUANTILES = st.fixed_dictionaries({q: st.one_of(st.integers(0, 200), JSON)
                                   for q in ("min", "p10", "median", "p90", "max", "mean")})
CROSSWORD = st.fixed_dictionaries({}, optional={
    "made": st.one_of(st.integers(-2, 10**6), JSON),
    "attempts": st.one_of(st.fixed_dictionaries({k: st.one_of(st.integers(0, 10**4), JSON)
                                                 for k in ("median", "worst", "total")}), JSON),
    "blank_failure": st.one_of(st.dictionaries(
        st.one_of(st.sampled_from(["tail", "<x>&"]), st.text(max_size=40)),
        st.one_of(st.fixed_dictionaries({"rate": st.one_of(st.floats(-1, 101), JSON)}), JSON),
        max_size=20), JSON),
    "size": st.one_of(st.fixed_dictionaries({}, optional={
        way: st.one_of(st.dictionaries(st.integers(-5, 200).map(str), st.integers(0, 50),
                                       max_size=80), JSON) for way in ("width", "height")}),
        JSON)})
KANJI = st.fixed_dictionaries({}, optional={
    "pools": st.one_of(st.integers(-2, 10**4), JSON),
    "kanji_count": st.one_of(QUANTILES, JSON), "hidden_count": st.one_of(QUANTILES, JSON),
    "orphan_count": st.one_of(QUANTILES, JSON)})


def well_formed(charts: list[tuple[str, str]]) -> None:
    for svg, caption in charts:
        assert isinstance(caption, str)
        root = ET.fromstring(svg)  # escaped: any text from the manifest parses as text
        bars = [r for r in root.iter(f"{NS}rect") if r.get("class") == "bar"]
        assert 0 < len(bars) <= MAX_BARS
        for bar in bars:
            height = float(bar.get("height"))
            assert math.isfinite(height) and 0 < height <= 160
        assert math.isfinite(float(root.get("width")))


@settings(max_examples=150, deadline=None)
@given(stats=st.one_of(CROSSWORD, JSON.filter(lambda v: isinstance(v, dict))))
def test_crossword_charts_of_any_figures(stats):
    well_formed(crossword_charts(stats))


@settings(max_examples=150, deadline=None)
@given(stats=st.one_of(KANJI, JSON.filter(lambda v: isinstance(v, dict))))
def test_pool_charts_of_any_figures(stats):
    well_formed(pool_charts(stats))


def test_spoiled_figures_draw_nothing():
    assert crossword_charts({"made": 5, "blank_failure": {"tail": {"rate": 140}}}) == []
    assert crossword_charts({"made": 0, "attempts": {"median": 1, "worst": 2, "total": 3}}) == []
    assert crossword_charts({"size": {"width": {"x": 3}, "height": {"4": -1}}}) == []
    assert pool_charts({"pools": 3, "kanji_count": {"min": 1, "p10": None, "median": 2,
                                                     "p90": 3, "max": 4, "mean": 2}}) == []
    orphans_beyond_kanji = {"pools": 3, "kanji_count": {"mean": 10}, "orphan_count": {"mean": 11}}
    assert pool_charts(orphans_beyond_kanji) == []


def test_a_long_size_histogram_draws_its_first_bars_and_says_so():
    width = {str(n): 1 for n in range(1, 200)}
    (svg, caption), = crossword_charts({"size": {"width": width}})
    assert svg.count('class="bar"') == MAX_BARS
    assert f"(the first {MAX_BARS} of 199)" in caption


def test_the_tallest_bars_value_clears_the_title():
    from wordforge_cli.render.charts import bar_chart

    root = ET.fromstring(bar_chart(["a", "b"], [40, 7], "title"))
    texts = [(float(t.get("y")), float(t.get("font-size"))) for t in root.iter(f"{NS}text")]
    (title_y, title_size), (value_y, value_size) = texts[0], texts[1]
    # (central baselines: each text spans half its size above and below its y)
    assert value_y - value_size / 2 >= title_y + title_size / 2 + 2
