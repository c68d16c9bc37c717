"""Read section-shaped text back into summary items: our own render, JSON, markdown, prose.

A model summarizer may answer with a JSON object, a truncated one, markdown sections or
plain prose; a hand-off or a pasted brief may carry a summary rendered by this package.
Each shape is parsed into ``{Section: [text, ...]}`` and every text is then classified by
the same rules as extraction (a preference stays pinned wherever it was filed), so no
answer is thrown away for its format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from langgraph_compact.compaction import cues
from langgraph_compact.compaction import patterns as p
from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import Candidate
from langgraph_compact.compaction.failures import error_lines, is_diagnostic
from langgraph_compact.compaction.quote import Quote
from langgraph_compact.compaction.summary import CORRECTED, SUMMARY_TITLE, Section, SummaryItem

__all__ = [
    "BULLET",
    "HEADING",
    "HISTORICAL",
    "classified",
    "classify",
    "items_from_sections",
    "parse_answer",
    "parse_json",
    "parse_markdown",
    "section_for",
]

_NOT_AN_INSTRUCTION = re.compile(
    r"^\W*(?:hmm+|um+|uh+|well|oh)?\W*(?:i|we)\s+(?:do not|don't|did not|didn't|can't|cannot)\s+"
    r"(?:know|remember|recall|think|see|understand|have|recognize|get)\b",
    re.IGNORECASE,
)
"""What the user says of themselves ("I don't remember the id") is not a rule; a request
phrased as a question ("Could you make sure to never push to main?") still is."""


def classify(text: str) -> str | None:
    """``safety``, ``preference`` or ``constraint`` for an instruction, else None.

    >>> classify("Never push to main."), classify("I prefer tabs."), classify("Hi there")
    ('safety', 'preference', None)
    """
    if tx.is_code_line(text) or len(text) > 400 or _NOT_AN_INSTRUCTION.search(text):
        return None
    if is_diagnostic(text):  # 'OperationalError: the "." operator prohibited in …'
        return None
    # Clause by clause: "I'm going to be away, so don't push to main" is a rule in its
    # second clause; "I'd like to change my flight, please" has none.
    said = [
        c
        for c in _CLAUSE.split(text)
        if c.strip() and not (cues.REQUEST.search(c) and not cues.ADDRESSED.search(c))
    ]
    for kind, cue in (
        ("preference", cues.PREFERENCE),
        ("safety", cues.SAFETY),
        ("constraint", cues.CONSTRAINT),
    ):
        if any(cue.search(c) for c in said):
            return kind
    return None


_CLAUSE = re.compile(r"[,;]\s+|\s+(?:so|but|because|while)\s+", re.IGNORECASE)


_ALIASES: Mapping[str, Section] = {
    **dict.fromkeys(
        ["goal", "goals", "task", "objective", "current goal", "mission"], Section.GOAL
    ),
    **dict.fromkeys(
        [
            "constraints preferences",
            "constraints and preferences",
            "constraints",
            "preferences",
            "rules",
            "requirements",
            "user preferences",
            "safety rules",
        ],
        Section.CONSTRAINTS,
    ),
    **dict.fromkeys(["done", "completed", "finished", "progress", "accomplished"], Section.DONE),
    **dict.fromkeys(["in progress", "ongoing", "current work", "working on"], Section.IN_PROGRESS),
    **dict.fromkeys(["blocked", "blockers", "open issues", "problems"], Section.BLOCKED),
    **dict.fromkeys(["key decisions", "decisions", "decisions made"], Section.DECISIONS),
    **dict.fromkeys(
        [
            "critical context",
            "context",
            "facts",
            "key facts",
            "important context",
            "notes",
            "details",
            "errors",
            "key information",
            "important details",
        ],
        Section.CRITICAL,
    ),
    **dict.fromkeys(["files read", "read files", "relevant files", "files"], Section.FILES_READ),
    **dict.fromkeys(
        ["files modified", "modified files", "changed files", "files changed", "edited files"],
        Section.FILES_MODIFIED,
    ),
    **dict.fromkeys(
        ["next steps", "next", "todo", "to do", "plan", "remaining"], Section.NEXT_STEPS
    ),
}


def section_for(name: str) -> Section | None:
    """The section a heading or JSON key names (``"Critical Context"``, ``"todo"``, ...)."""
    return _ALIASES.get(tx.norm(name.replace("_", " ").replace("&", " ")))


def parse_json(text: str) -> dict[Section, list[str]] | None:
    """Sections of a JSON answer; a truncated object still yields its complete strings."""
    start = text.find("{")
    if start == -1:
        return None
    out: dict[Section, list[str]] = {}
    try:
        end = text.rfind("}")
        data = json.loads(text[start : end + 1]) if end > start else None
    except ValueError:
        data = None
    if isinstance(data, Mapping):
        for key, values in data.items():
            section = section_for(str(key))
            if section is not None:
                listed = values if isinstance(values, list) else [values]
                out.setdefault(section, []).extend(str(v) for v in listed if str(v).strip())
        return out or None
    # Salvage: "Section": ["a", "b", ... up to where the answer was cut.
    for m in re.finditer(r'"([^"]{1,40})"\s*:\s*\[', text):
        section = section_for(m.group(1))
        if section is None:
            continue
        tail = text[m.end() :]
        stop = re.search(r'\]|"[^"]{1,40}"\s*:\s*\[', tail)
        body = tail[: stop.start()] if stop else tail
        strings = [json.loads(f'"{s}"') for s in re.findall(r'"((?:[^"\\]|\\.)*)"', body)]
        out.setdefault(section, []).extend(s for s in strings if s.strip())
    return out or None


HEADING = re.compile(
    r"^\s*(?:#{1,6}\s*(?P<h>.+?)\s*#*|\*\*(?P<b>[^*]+)\*\*:?|(?P<c>[A-Z][\w &/-]{1,40}):)\s*$"
)
BULLET = re.compile(r"^\s*(?:[-*•+]|\d+[.)])\s+")
BULLETS = re.compile(r"^\s*(?:(?:[-*•+]|\d+[.)])\s+)+")


def parse_markdown(text: str) -> dict[Section, list[str]] | None:
    """Sections of a markdown answer: headings that name a section, then their lines."""
    out: dict[Section, list[str]] = {}
    current: Section | None = None
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading:
            name = heading["h"] or heading["b"] or heading["c"] or ""
            found = section_for(name)
            if found is not None or heading["h"] or heading["b"]:
                current = found
                continue
        body = BULLET.sub("", line).strip()
        if current is not None and body:
            out.setdefault(current, []).append(body)
    return out or None


def parse_answer(text: str) -> tuple[dict[Section, list[str]], str]:
    """Sections of any answer and how it was read: ``json``, ``markdown`` or ``prose``.

    Prose (or anything else) is kept, sentence by sentence, under Critical Context; the
    classification in ``items_from_sections`` then moves instructions where they belong.
    """
    found = parse_json(text) if "{" in text else None
    if found:
        return found, "json"
    found = parse_markdown(text)
    if found:
        return found, "markdown"
    sentences = [s for s in tx.sentences(text) if not tx.is_junk(s)]
    return ({Section.CRITICAL: sentences} if sentences else {}), "prose"


HISTORICAL = re.compile(r"^\(historical[^)]*\)\s*", re.IGNORECASE)


def items_from_sections(
    sections: Mapping[Section, Sequence[str]], source: str, seq: int, *, salience: float = 0.6
) -> list[tuple[Section, SummaryItem]]:
    """Classify section texts a model wrote into items, wherever they were filed.

    Instructions (constraints, preferences, safety rules) are pinned under Constraints;
    a stated fact gets its fact key (so a later value supersedes it); a path under a files
    section is keyed by the path; everything else by its normalized text. Junk is dropped.
    The texts are the model's words: nothing here is a quote of a message yet (``llm``
    checks their values against the messages).
    """
    out: list[tuple[Section, SummaryItem]] = []
    for section, texts in sections.items():
        for listed in texts:
            # A model copies lines of the summary it was shown: list markers come along
            # (and would pile up, one more each round), headings are not items.
            raw = BULLETS.sub("", listed)
            historical = bool(HISTORICAL.match(raw))
            text = Quote(tx.short(HISTORICAL.sub("", raw).strip()))
            if HEADING.match(text.text) or text.text.startswith(SUMMARY_TITLE):
                continue
            if not tx.is_junk(text.text):
                out.extend(classified(section, text, historical, source, seq, salience, "model"))
    return out


def classified(
    section: Section,
    text: Quote,
    historical: bool,
    source: str,
    seq: int,
    salience: float,
    origin: str,
) -> list[tuple[Section, SummaryItem]]:
    sources = (source,) if source else ()

    def item(key: str, kind: str, weight: float, pinned: bool = False) -> SummaryItem:
        return SummaryItem(
            text=text.text,
            spans=text.spans,
            key=key,
            kind=kind,
            sources=sources,
            seq=seq,
            salience=weight,
            pinned=pinned and not historical,
            historical=historical,
            origin=origin,
        )

    plain = text.text
    kind = classify(plain)
    if section is Section.GOAL:
        key = f"old:{tx.norm(plain)[:60]}" if historical else "goal"
        return [(section, item(key, "goal", 1.0, pinned=True))]
    if kind is not None or section is Section.CONSTRAINTS:
        key = f"constraint:{tx.norm(plain)[:80]}"
        return [(Section.CONSTRAINTS, item(key, kind or "constraint", 1.0, pinned=True))]
    if section in (Section.FILES_READ, Section.FILES_MODIFIED) and (found := tx.paths(plain)):
        weight = salience * 0.8
        out: list[Candidate] = []
        for path in found:
            at = plain.find(path)
            shown = text._sub(at, at + len(path)) if at != -1 else Quote(path)
            single = item(f"file:{tx.file_key(path)}", "path", weight)
            out.append((section, single.with_quote(shown)))
        return out
    marker = CORRECTED.strip()
    corrected = plain.endswith(marker)
    if corrected:  # the latest value of a corrected fact: it stays pinned
        text = text._sub(0, len(plain) - len(marker)).strip()
        plain = text.text
    facts = [(f.key, f.value) for f in p.facts(plain)]
    if corrected:
        key = f"fact:{facts[0][0]}" if facts else f"correction:{tx.norm(plain)[:60]}"
        return [(section, item(key, "correction", 1.0, pinned=True))]
    if facts and section is Section.CRITICAL:
        return [(section, item(f"fact:{facts[0][0]}", "fact", salience + 0.1))]
    errors = error_lines(plain, 1)
    if errors:
        return [(section, item(f"error:{tx.shape(errors[0])[:80]}", "error", salience + 0.1))]
    return [(section, item(f"{section.name}:{tx.norm(plain)[:80]}", "note", salience))]
