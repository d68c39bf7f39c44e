"""docs/rl.md's examples print what the page says they print: every ```python block that is
followed by "prints" and a plain ``` block runs, and its output is that block."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BODY = r"((?:(?!```).)*)"  # anything up to the block's closing fence
EXAMPLE = re.compile(rf"```python\n{BODY}```\s*\n\s*prints\s*\n\s*```\n{BODY}```", re.S)
EXAMPLES = EXAMPLE.findall(PAGE.read_text(encoding="utf-8"))


def test_the_page_has_examples() -> None:
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize(("code", "printed"), EXAMPLES,
                         ids=[f"example-{i}" for i in range(len(EXAMPLES))])
def test_an_example_prints_what_the_page_says(code: str, printed: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(PAGE), "exec"), {"__name__": "docs_rl"})
    assert out.getvalue() == printed
