"""Heatmaps as SVG written by us (Markdown beside the file, HTML inline): well-formed, a cell per
weight in matplotlib's colours, user tokens escaped; and the Markdown path loads no matplotlib."""

from __future__ import annotations

import base64
import json
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

import pytest
import sympy as sp

from mha_symbolic import AttentionSpec, derive
from mha_symbolic.solution.svg_heatmap import BLUES, colour, png, svg

NS = {"svg": "http://www.w3.org/2000/svg"}
WORDS = {"title": "Head 1: attention weights", "xlabel": "key", "ylabel": "query"}
HALVES = sp.Matrix([[sp.Rational(1, 2), sp.Rational(1, 2)], [sp.Rational(1, 4), sp.Rational(3, 4)]])


def _parsed(data: bytes) -> ET.Element:
    return ET.fromstring(data.decode("utf-8"))


def _cells(root: ET.Element) -> list[ET.Element]:
    group = root.find("svg:g[@class='cells']", NS)
    assert group is not None
    return group.findall("svg:rect", NS)


def _texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_a_cell_per_weight_filled_by_its_value_and_written_in_it() -> None:
    root = _parsed(svg(HALVES, ["a", "b"], ["a", "b"], decimals=2, **WORDS))
    fills = [cell.get("fill") for cell in _cells(root)]
    # 1/2 is the colormap's middle stop exactly; 1/4 and 3/4 are the 3rd and 7th stops
    assert fills == ["#6baed6", "#6baed6", "#c6dbef", "#2171b5"]
    values = root.find("svg:g[@class='values']", NS)
    assert values is not None
    written = [(t.text, t.get("fill")) for t in values.findall("svg:text", NS)]
    assert written == [("0.50", "black"), ("0.50", "black"), ("0.25", "black"), ("0.75", "white")]
    names, bar = _texts(root)[-6:-3], _texts(root)[-3:]
    assert (names, bar) == (["Head 1: attention weights", "key", "query"], ["0.0", "0.5", "1.0"])


def test_the_colours_are_matplotlibs_blues() -> None:
    colors = pytest.importorskip("matplotlib.colors")
    from matplotlib import colormaps

    blues = colormaps["Blues"]
    for value in (0.0, 0.1, 0.3, 1 / 3, 0.5, 0.62, 0.9, 1.0):
        ours = bytes.fromhex(colour(value)[1:])
        theirs = bytes.fromhex(colors.to_hex(blues(value))[1:])
        # matplotlib reads a 256-entry table, we interpolate: at most one step apart
        assert max(abs(a - b) for a, b in zip(ours, theirs)) <= 2, value
    assert (colour(-1.0), colour(2.0)) == (BLUES[0], BLUES[-1])


def test_tokens_are_escaped_and_the_file_stays_well_formed() -> None:
    token = '<b>&"\x01'
    data = svg(HALVES, [token, "q2"], ["k1", token], decimals=2, **{**WORDS, "title": "<&>"})
    assert b"<b>" not in data
    assert b"&lt;b&gt;&amp;&quot;\xef\xbf\xbd" in data  # the control character as U+FFFD
    texts = _texts(_parsed(data))
    assert texts.count('<b>&"\ufffd') == 2 and "<&>" in texts


def test_a_large_head_is_one_image_of_a_pixel_per_weight() -> None:
    side = 70
    weights = sp.Matrix(side, side, lambda i, j: sp.Rational(1, side))
    root = _parsed(svg(weights, ["t"] * side, ["t"] * side, decimals=2, **WORDS))
    assert root.find("svg:g[@class='cells']", NS) is None
    image = root.find("svg:image", NS)
    assert image is not None
    data = base64.b64decode(image.get("href", "").removeprefix("data:image/png;base64,"))
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert struct.unpack(">II", data[16:24]) == (side, side)
    assert "0.01" not in _texts(root)  # no values written at this size


def test_png_pixels_are_the_rows_given() -> None:
    data = png([[(1, 2, 3), (4, 5, 6)]])
    (length,) = struct.unpack(">I", data[33:37])
    assert data[37:41] == b"IDAT"
    assert zlib.decompress(data[41 : 41 + length]) == b"\x00\x01\x02\x03\x04\x05\x06"


def test_markdown_links_the_svgs_written_beside_it(tmp_path) -> None:
    d = derive(AttentionSpec.example("pytorch-style"))
    written = d.write(str(tmp_path / "x.md"))
    assert sorted(p.name for p in written) == ["x-head1.svg", "x-head2.svg", "x.md"]
    md = (tmp_path / "x.md").read_text(encoding="utf-8")
    assert md.count("](x-head1.svg)") == 1 and md.count("](x-head2.svg)") == 1
    root = _parsed((tmp_path / "x-head1.svg").read_bytes())
    assert len(_cells(root)) == 16
    assert {"The", "cat", "sat", "down"} <= set(_texts(root))


def test_html_carries_its_svgs_inside() -> None:
    page = derive(AttentionSpec.example("two-tokens")).to_html()
    sources = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page)
    assert len(sources) == 2
    for source in sources:
        assert len(_cells(_parsed(base64.b64decode(source)))) == 4
    assert "-head1.svg" not in page


MODULES = """
import json, sys
from mha_symbolic.cli import main
main(["derive", "--example", "pytorch-style", "-q", "-o", sys.argv[1]])
names = ("matplotlib", "numpy", "latex2mathml", "mha_symbolic.extract", "mha_symbolic.check.judge")
print(json.dumps([name for name in names if name in sys.modules]))
"""


def test_derive_to_markdown_loads_no_matplotlib_numpy_or_extractor(tmp_path) -> None:
    target = tmp_path / "x.md"
    argv = [sys.executable, "-c", MODULES, str(target)]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []
    assert (tmp_path / "x-head1.svg").exists()


def test_to_markdown_from_python_loads_no_extractor() -> None:
    code = (
        "import sys; from mha_symbolic import AttentionSpec, derive; "
        "derive(AttentionSpec.example('two-tokens')).to_markdown(); "
        "print([m for m in ('numpy', 'mha_symbolic.extract') if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
