"""Every rule citation in the repository resolves inside it, in docs/rules/ (issue 12 item 8).

Scanned: ``ludoteca/**/*.py`` and ``*.po`` (messages), ``tests/**/*.py``, ``docs/**/*.md``,
``README.md``.

What counts as a citation
- Explicit: a path ending in ``rules/<name>.md`` or ``SOURCES.md``. Written ``rules/x.md`` or
  ``docs/rules/x.md`` (``SOURCES.md`` may also stand alone), it must name a file of docs/rules/;
  any other path (``../shared/rules/x.md``, ``data/SOURCES.md``) fails. The section reference
  right after it, if any, must exist in that file.
- Bare: ``§4.3``, ``rule 4.3``, ``rules §6``, ``section 9``, ``ruling 2``, ``regla 4.3`` (Spanish
  catalogs); for kami.md also the codes ``A4.5``, ``C1`` and ``part B``. They are read against
  the game the path belongs to, or against the file of an explicit citation when they continue
  its list (``rules/x.md §2.1 and §2.3``). A path belongs to a game through
  ludoteca/games/<game>/, tests/<game>/, docs/<game>.md, docs/rules/<game>.md, or a file name
  holding one game's name (tests/bots/test_greedy_kingdomino.py, benchmarks/fit_buttons_value.py);
  kami and goita both mean kami.md. A bare citation in a file of no game fails. ``DESIGN.md §2``,
  ``README`` sections and the like cite other documents and are not checked here.
- A mention of the folders the rules came from (``../shared``, "the shared folder", ``seeds/``,
  ``../data/``, ``data/queendomino_buildings.csv``) fails: a reader of the repository cannot
  follow it.
- A Markdown link into docs/rules/ must name an existing file and heading anchor.

What a section reference means (the anchors of a rules file)
- A numbered heading is its number: ``## 4.`` is §4, ``### 3.2`` §3.2, ``### A6.`` A6, ``## C.``
  part C (kami.md), the same for SOURCES.md (``§7.4``).
- A numbered list item K directly under section S is S.K: kingdomino.md §4.3, buttons.md §2.1
  (also written ``§2 item 1``), ``§3.2 item 4``, SOURCES.md §7.5.5, kami.md A4.5 and C1 (item 1 of
  part C). A lettered sub-item ``a.`` of item S.K is ``S.K a`` (kingdomino.md §3.2 a); an inline
  ``(a)`` inside item S.K is ``S.K a`` too (kami.md A4.5 a).
- queendomino.md: sections numbered 1-8 with numbered items; the steps of a turn are the bullets
  ``**A (mandatory).**`` … ``**E**`` of §3, cited ``§3 B``. After an explicit citation a heading's
  name may replace its number (any leading words of it): ``rules/queendomino.md Turn B``,
  ``End-of-game scoring 4``, ``Rulings 3``, ``The Queen``, and ``step B`` means ``§3 B``. A
  capitalised phrase and a colon right after the file that names no heading
  (``rules/queendomino.md End of the game:``) fails; other text after a file is prose: the
  citation is of the whole file.
- ``ruling N`` is item N of the file's rulings: buttons.md §9, kami.md part C, queendomino.md §8.
- Ranges (``§2-3``, ``items 1-3``, ``A5.1-A5.2``) must exist at both ends.

Citations that are wrong in files this test does not own are listed in TO_FIX below (so the test
fails while any are left) instead of being fixed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

# ---- to fix elsewhere ------------------------------------------------------------------------
# Citations that do not resolve, or resolve to the wrong rule, in files owned by others.
# Each entry: (path, text on the line, what it should say). Fix the file, then delete the entry.
# test_nothing_left_to_fix fails while this list is not empty: it is the remaining work, not an
# exemption (test_citations_resolve skips only these exact lines, so nothing new can hide).
TO_FIX: list[tuple[str, str, str]] = []

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
GAME_FILES = {
    "kingdomino": "kingdomino.md",
    "queendomino": "queendomino.md",
    "buttons": "buttons.md",
    "kami": "kami.md",
    "goita": "kami.md",
}
RULINGS = {"buttons.md": ("9",), "kami.md": ("C",), "queendomino.md": ("8",)}
STEPS = {"queendomino.md": ("3",)}  # "step B" is §3 B
SHIPPED = ("kingdomino.md", "queendomino.md", "buttons.md", "kami.md", "goita.md", "SOURCES.md")


# ---- the anchors of a rules file -------------------------------------------------------------
@dataclass
class Section:
    key: tuple[str, ...] | None  # ("3", "2"), ("A4",), ("C",); None when unnumbered
    name: str  # the heading without its number, lower case
    anchors: set[tuple[str, ...]] = field(default_factory=lambda: {()})  # relative to the key


HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
HEADING_ID = re.compile(r"^(?:([A-Z]?\d+(?:\.\d+)*)\.?|([A-Z])\.)(?:\s+(.*))?$")


@cache
def sections(name: str) -> tuple[Section, ...]:
    """The sections of docs/rules/<name> with their anchors (see the module docstring)."""
    out = [Section(None, "")]
    item: tuple[str, ...] | None = None
    fenced = False
    for line in (RULES / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        if m := HEADING.match(line):
            title = m[2]
            if idm := HEADING_ID.match(title):
                out.append(Section(tuple((idm[1] or idm[2]).split(".")), (idm[3] or "").lower()))
            else:
                out.append(Section(None, title.lower()))
            item = None
            continue
        sec = out[-1]
        # a numbered item, or one of Queendomino's steps ("- **B (optional) Tax.**")
        if m := re.match(r"^ {0,3}(\d+)\.\s", line) or re.match(r"^- \*\*([A-Z])\b", line):
            item = (m[1],)
        elif (m := re.match(r"^\s+([a-z])\.\s", line)) and item:
            sec.anchors.add((*item, m[1]))  # kingdomino.md §3.2 a
            continue
        if item:
            sec.anchors.add(item)
            for letter in re.findall(r"\(([a-e])\)", line):
                sec.anchors.add((*item, letter))
    return tuple(out)


def resolves(name: str, path: tuple[str, ...]) -> bool:
    """Whether the numbered reference ``path`` (e.g. ("3", "2", "4"), ("A4", "5", "a"),
    ("C1",)) names a section or item of docs/rules/<name>."""
    candidates = [path]
    if m := re.fullmatch(r"([A-Z])(\d+)", path[0]):
        candidates.append((m[1], m[2], *path[1:]))  # C1 = item 1 of part C
    for p in candidates:
        for sec in sections(name):
            if sec.key and p[: len(sec.key)] == sec.key and p[len(sec.key):] in sec.anchors:
                return True
    return False


STOPWORDS = {"the", "a", "an", "and", "of", "on", "in", "with", "for", "to"}


def named_section(name: str, text: str) -> tuple[Section, int] | None:
    """The section whose heading name (or its leading words) ``text`` starts with, and the
    length matched; the longest match wins."""
    best: tuple[Section, int] | None = None
    low = text.lower()
    for sec in sections(name):
        words = sec.name.split()
        for k in range(len(words), 0, -1):
            prefix = " ".join(words[:k])
            if k == 1 and prefix in STOPWORDS:
                continue
            if low.startswith(prefix) and not low[len(prefix): len(prefix) + 1].isalnum():
                if best is None or len(prefix) > best[1]:
                    best = (sec, len(prefix))
                break
    return best


# ---- finding citations -----------------------------------------------------------------------
@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    text: str
    why: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.why}\n    {self.text.strip()}"


REF = r"[A-C]?\d+(?:\.\d+)*"
ITEMS = r"\s+items?\s+\d+(?:\s*(?:[-–]|,|and)\s*\d+)*"
SUB = r"(?:[ .][a-eA-E](?![\w'’]))"
NUM = re.compile(rf"(?P<ref>{REF})(?P<items>{ITEMS})?(?P<sub>{SUB})?")
MORE = re.compile(r"\s*(?P<sep>,|and|or|/|&|[-–])\s*(?P<sect>§\s*)?(?=[A-C]?\d)")
EXPLICIT = re.compile(r"(?<![\w./-])(?P<path>[\w./-]*?(?:rules/(?P<rule>[\w-]+)\.md|SOURCES\.md))")
BARE = re.compile(
    r"§\s*(?=[A-C]?\d)|\b(?:[Rr]ules?|[Ss]ections?|[Rr]ulings?|[Rr]eglas?)\s+§?\s*(?=[A-C]?\d)"
)
CODE = re.compile(rf"(?<![\w.§/-])(?P<code>[ABC]\d+(?:\.\d+)*)(?P<sub>{SUB})?")
STEP = re.compile(r"steps?\s+([A-Z])(?:\s*[-–]\s*([A-Z]))?(?![\w'’])")
PART = re.compile(r"\bparts?\s+(?P<part>[ABC])\b")
OTHER_DOC = re.compile(r"(?:[\w.-]+\.(?:md|txt|rst)|README|DESIGN)[`'\"]*\s*[(\"]?\s*$")
OUTSIDE = re.compile(
    r"\.\./shared|shared folder|/work/shared|(?<![\w.])seeds/|\.\./data/"
    r"|(?<![\w/])data/(?:kingdomino|queendomino)_\w+\.csv"  # the research folder's file names
)


def game_file(rel: str) -> str | None:
    """The rules file a path's bare citations refer to (None: no game)."""
    parts = rel.split("/")
    if rel.startswith("docs/rules/"):
        return GAME_FILES.get(Path(rel).stem, Path(rel).name)
    if parts[0] == "ludoteca" and parts[1] == "games" and len(parts) > 3:
        return GAME_FILES.get(parts[2])
    if parts[0] == "tests" and len(parts) > 2 and parts[1] in GAME_FILES:
        return GAME_FILES[parts[1]]
    tokens = set(re.split(r"[_\-.]", Path(rel).stem))
    found = {GAME_FILES[g] for g in GAME_FILES if g in tokens}
    return found.pop() if len(found) == 1 else None


def numeric_paths(
    m: re.Match[str], rulings: tuple[str, ...] | None, start: tuple[str, ...] = ()
) -> list[tuple[str, ...]]:
    """The anchor paths one NUM match names (several for an ``items`` list). ``start`` is the
    first end of a range: in ``§7.5.8-9`` the ``9`` replaces its last number."""
    base = tuple(m["ref"].split("."))
    if start and len(base) == 1 and base[0].isdigit():
        base = (*start[:-1], *base)  # the range's first end already has the rulings' section
    elif rulings is not None and base[0].isdigit():
        base = (*rulings, *base)
    sub = (m["sub"].strip(" ."),) if m["sub"] else ()
    if not m["items"]:
        return [base + sub]
    numbers = re.findall(r"\d+", m["items"])
    return [(*base, n, *sub) for n in numbers]


def check_numeric(
    text: str, pos: int, name: str, rulings: bool, sect: bool
) -> tuple[int, list[str]]:
    """Parse a reference list (``4.3``, ``3.2 items 1-3``, ``2.1 and §2.3``, ``A5.1-A5.2``) at
    ``pos``; return where it ends and what did not resolve."""
    bad: list[str] = []
    m = NUM.match(text, pos)
    if not m:
        return pos, bad
    start: tuple[str, ...] = ()
    while m:
        paths = numeric_paths(m, RULINGS.get(name) if rulings else None, start)
        for p in paths:
            if not resolves(name, p):
                bad.append(f"{name} has no {' '.join(p)} (cited as {m[0]!r})")
        end = m.end()
        more = MORE.match(text, end)
        if not more:
            return end, bad
        nxt = NUM.match(text, more.end())
        if not nxt:
            return end, bad
        dotted = "." in nxt["ref"] or nxt["ref"][0].isalpha()
        if not (more["sect"] or more["sep"] in "-–" or (dotted and (sect or more["sep"] == ","))):
            return end, bad
        start = paths[-1] if more["sep"] in "-–" and not more["sect"] and not m["sub"] else ()
        m = nxt
    return pos, bad


NAME_ITEMS = re.compile(r"[\"'”]?\s([A-Z]|\d+)(?:\s*[-–]\s*([A-Z]|\d+))?(?![\w'’])")


def after_file(text: str, start: int, name: str) -> tuple[int, list[str]]:
    """Read the section reference (if any) that follows an explicit citation of ``name``."""
    if sect := re.compile(r"§\s*|sections?\s+|(?=\d|[ABC]\d)").match(text, start):
        return check_numeric(text, sect.end(), name, False, True)
    if part := PART.match(text, start):
        ok = resolves(name, (part["part"],))
        return part.end(), [] if ok else [f"{name} has no part {part['part']}"]
    if (step := STEP.match(text, start)) and name in STEPS:
        bad = [f"{name} has no step {c}" for c in filter(None, (step[1], step[2]))
               if not resolves(name, (*STEPS[name], c))]
        return step.end(), bad
    if found := named_section(name, text[start:]):
        sec, length = found
        if items := NAME_ITEMS.match(text, start + length):
            bad = [f"{name} section {sec.name!r} has no item {c}"
                   for c in filter(None, (items[1], items[2])) if (c,) not in sec.anchors]
            return items.end(), bad
        return start + length, []
    if heading := re.match(r"([A-Z][\w -]*):", text[start:]):
        return start, [f"{name} has no section named {heading[1]!r}"]
    return start, []


def scan_line(rel: str, text: str) -> list[str]:
    """What does not resolve on one line of ``rel``."""
    text = text.replace("\\.", ".")  # regexes in tests: r"rule 4\.1"
    bad: list[str] = []
    if OUTSIDE.search(text):
        bad.append("points outside the repository (the rules are in docs/rules/)")
    taken: list[tuple[int, int]] = []  # spans already read
    for m in EXPLICIT.finditer(text):
        path, rule = m["path"], m["rule"]
        name = f"{rule}.md" if rule else "SOURCES.md"
        allowed = {f"rules/{name}", f"docs/rules/{name}"} | ({name} if not rule else set())
        if path not in allowed:
            bad.append(f"{path!r} is not in the repository: write rules/{name}")
        end = m.end()
        if not (RULES / name).exists():
            bad.append(f"docs/rules/{name} does not exist")
        else:
            gap = re.compile(r"[`'\"”)\]]*[\s`'\"“(]*").match(text, end)
            end, more = after_file(text, gap.end() if gap else end, name)
            bad += more
        taken.append((m.start(), max(end, m.end())))

    def free(pos: int) -> bool:
        return not any(a <= pos < b for a, b in taken)

    name = game_file(rel)
    for m in BARE.finditer(text):
        if not free(m.start()) or OTHER_DOC.search(text[max(0, m.start() - 40): m.start()]):
            continue
        if name is None:
            bad.append(f"{m[0].strip()!r}… names no rules file (no game known for this path)")
            continue
        rulings = m[0].lower().startswith("ruling")
        end, more = check_numeric(text, m.end(), name, rulings, m[0].startswith("§"))
        bad += more
        taken.append((m.start(), end))
    if name == "kami.md":
        for m in CODE.finditer(text):
            if free(m.start()):
                bad += check_numeric(text, m.start(), name, False, True)[1]
        for m in PART.finditer(text):
            if free(m.start()) and not resolves(name, (m["part"],)):
                bad.append(f"kami.md has no part {m['part']}")
    return bad


def scanned_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for pattern in ("ludoteca/**/*.py", "ludoteca/**/*.po", "tests/**/*.py", "docs/**/*.md"):
        files += ROOT.glob(pattern)
    return sorted(p for p in files if p.is_file() and "__pycache__" not in p.parts)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def link_problems(path: Path, text: str) -> list[str]:
    """Markdown links into docs/rules/ must name an existing file and heading."""
    bad = []
    for m in LINK.finditer(text):
        target, _, anchor = m["target"].partition("#")
        if "://" in target or not target.endswith(".md"):
            continue
        dest = (path.parent / target).resolve()
        if RULES.resolve() not in dest.parents:
            continue
        if not dest.exists():
            bad.append(f"link to {target} which does not exist")
        elif anchor:
            heads = [HEADING.match(ln) for ln in dest.read_text(encoding="utf-8").splitlines()]
            if anchor not in {slug(h[2]) for h in heads if h}:
                bad.append(f"link to {target}#{anchor}: no such heading")
    return bad


@cache
def problems() -> tuple[Problem, ...]:
    out = []
    for path in scanned_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel == "tests/docs/test_rules_citations.py":
            continue  # this file's examples are not citations
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines, 1):
            why = scan_line(rel, line)
            if path.suffix == ".md":
                why += link_problems(path, line)
            out += [Problem(rel, i, line, w) for w in why]
    return tuple(out)


def listed(p: Problem) -> bool:
    return any(p.path == f and text in p.text for f, text, _ in TO_FIX)


# ---- tests -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SHIPPED)
def test_rules_file_is_shipped(name: str) -> None:
    """Each game's rules (and the data sources they cite) are in docs/rules/, and each game's
    file opens with a how-to-play section before the numbered rules."""
    text = (RULES / name).read_text(encoding="utf-8")
    assert text.startswith("# ")
    if name != "SOURCES.md":
        heads = [h[2] for h in map(HEADING.match, text.splitlines()) if h and h[1] == "##"]
        assert heads[0] == "How to play", heads[:2]


def test_anchors_are_read() -> None:
    """The parser finds the sections the code cites, and refuses ones that do not exist (a
    parser that accepted anything would make the real test pass vacuously)."""
    for name, path in [
        ("kingdomino.md", ("4", "3")), ("kingdomino.md", ("3", "2", "a")),
        ("kingdomino.md", ("9", "3")), ("buttons.md", ("3", "2", "4")),
        ("buttons.md", ("2", "1")), ("buttons.md", ("1", "2")), ("kami.md", ("A4", "5", "a")),
        ("kami.md", ("C1",)), ("kami.md", ("B",)), ("kami.md", ("A2", "3")),
        ("queendomino.md", ("3", "B")), ("queendomino.md", ("6", "0")),
        ("queendomino.md", ("8", "9")), ("SOURCES.md", ("7", "5", "5")),
        ("SOURCES.md", ("7", "4")),
    ]:
        assert resolves(name, path), (name, path)
    for name, path in [
        ("kingdomino.md", ("4", "4")), ("kingdomino.md", ("10",)), ("buttons.md", ("3", "4")),
        ("kami.md", ("A9",)), ("kami.md", ("C6",)), ("queendomino.md", ("3", "F")),
        ("queendomino.md", ("8", "18")), ("SOURCES.md", ("7", "6")),
    ]:
        assert not resolves(name, path), (name, path)
    assert scan_line("tests/x.py", "rules/queendomino.md Turn F") != []
    assert scan_line("tests/x.py", "rules/queendomino.md Rulings 18: more") != []
    assert scan_line("tests/queendomino/x.py", "rulings 10-16 and ruling 17") == []
    assert scan_line("tests/queendomino/x.py", "rulings 10-18") != []
    assert scan_line("tests/x.py", "rules/queendomino.md step F: more") != []
    assert scan_line("tests/x.py", "rules/queendomino.md step C and The Queen: a") == []
    assert scan_line("tests/x.py", "rules/queendomino.md Scoring at the end: a") != []
    assert scan_line("tests/queendomino/x.py", '"Turn" A-E and ruling 9') == []
    assert scan_line("tests/x.py", 'rules/queendomino.md "Turn" A-E, (building effects)') == []
    assert scan_line("tests/x.py", "rules/buttons.md §3.2 items 1-3 and §9.2") == []
    assert scan_line("tests/x.py", "rules/buttons.md §3.2 items 5-7") != []
    assert scan_line("tests/x.py", "SOURCES.md §7.5.8-9, §7.4") == []
    assert scan_line("tests/x.py", "data/SOURCES.md §7.4") != []
    assert scan_line("tests/x.py", "rules/queendomino.md End-of-game scoring 4: total") == []
    assert scan_line("tests/x.py", "(rule 4.3)") != []  # no game known
    assert scan_line("tests/kingdomino/x.py", "(rule 4.3) and §3.2 a, §9.1") == []
    assert scan_line("tests/kingdomino/x.py", "§3.2 c") != []
    assert scan_line("ludoteca/games/kami/x.py", "(A4.5 a; Goita B3, ruling C2)") == []
    assert scan_line("ludoteca/games/kami/x.py", "(A4.7)") != []
    assert scan_line("tests/x.py", "see ../shared/rules/kami.md") != []
    assert scan_line("tests/x.py", "DESIGN.md §2") == []


def test_citations_resolve() -> None:
    """Every citation in code, messages, tests and docs names a file of docs/rules/ and a
    section or item that exists there (except the lines listed in TO_FIX)."""
    left = [p for p in problems() if not listed(p)]
    assert not left, "citations that do not resolve:\n" + "\n".join(map(str, left))


def test_to_fix_entries_are_current() -> None:
    """Each TO_FIX entry still matches a line of its file: a fixed citation must leave the list."""
    stale = []
    for path, text, _ in TO_FIX:
        f = ROOT / path
        if not f.exists() or text not in f.read_text(encoding="utf-8"):
            stale.append((path, text))
    assert not stale, f"fixed already, remove from TO_FIX: {stale}"


def test_to_fix_suggestions_resolve() -> None:
    """What TO_FIX says to write instead is itself a citation that resolves."""
    bad = [(path, fix, scan_line(path, fix)) for path, _, fix in TO_FIX if scan_line(path, fix)]
    assert not bad


def test_nothing_left_to_fix() -> None:
    """The citations listed in TO_FIX are still wrong in files other helpers own; this test fails
    until the lead fixes them and empties the list."""
    assert not TO_FIX, "citations to fix:\n" + "\n".join(
        f"{p}: {t!r} -> {fix}" for p, t, fix in TO_FIX
    )
