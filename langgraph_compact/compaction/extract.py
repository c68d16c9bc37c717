"""Candidates for the summary, from every place of every message.

Each function maps one raw message to ``(Section, SummaryItem)`` candidates: human text,
assistant text, tool-call arguments and tool outputs (the whole raw output, so what a
clip marker hid is still read). Every candidate carries its section, a normalized key
(for dedupe and supersession), a salience score, its kind, its source message id and
position, and shows only verbatim pieces of its message (``quote``). A message holding
a rendered summary or a whole transcript (a hand-off, a pasted brief, a compactor of
compactors) is read by its own structure: the summary item by item, each role's turn as
that role's text. Selection, merging and eviction happen later (``merge``, ``select``);
extraction only proposes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from langgraph_compact.compaction import cues
from langgraph_compact.compaction import patterns as p
from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.calls import arg_items, quotes_json_in_prose, written_call_items
from langgraph_compact.compaction.candidates import (
    SALIENCE,
    Candidate,
    call_signature,
    fact_item,
    file_item,
    item,
    present,
)
from langgraph_compact.compaction.extent import (
    gives_a_value,
    listed_on,
    names_a_value,
    refers_back,
    with_antecedent,
)
from langgraph_compact.compaction.failures import error_lines
from langgraph_compact.compaction.outputs import output_items, tool_items
from langgraph_compact.compaction.parse import classify
from langgraph_compact.compaction.quote import ELLIPSIS, Quote, Source, value_spans
from langgraph_compact.compaction.quote import values as quote_values
from langgraph_compact.compaction.readback import parse_rendered_summary, transcript_turns
from langgraph_compact.compaction.rerun import call_key
from langgraph_compact.compaction.sentences import (
    listed,
    locates,
    prose_sentences,
    says_something,
    unasserted,
)
from langgraph_compact.compaction.stale import Stale, opens_with_value, stale_spans
from langgraph_compact.compaction.summary import Section
from langgraph_compact.compaction.turns import (
    CHAT_MAX_CHARS,
    amends,
    beside_amending,
    one_turn,
    said_with,
)
from langgraph_compact.messages import message_text

__all__ = ["extract_items"]


def _says_stale(sentence: str, fact: p.Fact, marks: list[Stale]) -> bool:
    """Whether every value of ``fact`` is one its own sentence says is no longer true ("the
    port was 8080, it is 8443 now"): what it states is the correction's, not a fact."""
    at = sentence.find(fact.value, fact.start, fact.end)
    spans = [(at + x, at + y) for x, y in value_spans(fact.value)] if at >= 0 else []
    # a mark opening with words ("not sure: the server is …") is no value a fact can state
    named = [s for s in marks if opens_with_value(sentence[s.start : s.end])]
    return bool(spans) and all(any(s.start <= x and y <= s.end for s in named) for x, y in spans)


def _sentence_items(src: Source, a: int, b: int, seq: int, role: str) -> Iterator[Candidate | None]:
    """What the sentence ``src.text[a:b]`` of human or assistant text contributes."""
    sentence = src.text[a:b]
    whole = src.slice(a, b)
    mid, human = src.id, role == "human"
    rule = classify(sentence) if human else None
    if rule in ("constraint", "preference", "safety"):
        yield item(
            Section.CONSTRAINTS,
            whole,
            mid,
            seq,
            key=f"constraint:{tx.norm(sentence)[:80]}",
            kind=rule,
            salience=1.0,
            pinned=True,
            origin=role,
        )
        return  # an instruction, not a fact: its words are not values to keep apart
    if human and cues.goal_change(sentence):
        yield item(
            Section.GOAL,
            whole,
            mid,
            seq,
            key="goal",
            kind="goal",
            salience=1.0,
            pinned=True,
            origin=role,
        )
        return
    # a question, or what might be ("Option B would be to use X instead of Y"), is said,
    # not stated: no fact, no decision, nothing it makes stale
    asserted = not unasserted(sentence)
    marks = stale_spans(sentence) if asserted else []
    stale = tuple(dict.fromkeys(sentence[s.start : s.end].strip() for s in marks))
    clauses = [(s.clause_start, s.clause_end) for s in marks]
    decides = cues.DECIDED.search(sentence) or (
        cues.DECISION.search(sentence) and cues.REASON.search(sentence)
    )
    if decides and asserted:
        yield item(
            Section.DECISIONS,
            whole.without(clauses),
            mid,
            seq,
            key=f"decision:{tx.norm(sentence)[:60]}",
            kind="decision",
            salience=SALIENCE[f"{role}.decision"],
            stale=stale,
            origin=role,
        )
    said = p.facts(sentence) if asserted else []
    if not human:  # what the assistant says is a fact only about something specific
        said = [f for f in said if tx.specificity(f.value) >= AI_FACT_SPECIFICITY]
    facts = [f for f in said if not _says_stale(sentence, f, marks)]
    ends = [0, *(f.end for f in facts)]
    for fact, before in zip(facts, ends, strict=False):
        start, cut = p.shown_from(sentence, fact)
        if start < before:  # a second fact of the sentence: shown from its own key
            start, cut = fact.start, False
        shown = src.slice(a + start, a + listed_on(sentence, fact.end)).without(
            [(x - start, y - start) for x, y in clauses]
        )
        shown = f"{ELLIPSIS} " + shown if cut else shown
        pinned = human and bool(stale)
        salience = SALIENCE[f"{role}.fact"]
        yield fact_item(
            fact.key, shown, mid, seq, salience, pinned=pinned, stale=stale, origin=role
        )
    if stale and not facts:  # "use port 8443 instead of 8080": the corrected sentence,
        # in place of the fact it states ("the port was 8080, it is 8443 now"), by its key
        cleaned = whole.without(clauses)
        # with no value left ("the … file is no longer needed") it still strikes what it
        # names, but has nothing to show: it competes as the least of notes
        says = bool(quote_values(cleaned.text))
        yield item(
            Section.CRITICAL,
            cleaned,
            mid,
            seq,
            key=f"fact:{said[0].key}" if said else f"correction:{tx.norm(cleaned.text)[:60]}",
            kind="correction",
            salience=SALIENCE[f"{role}.fact"] if says else SALIENCE["tool.done"],
            pinned=human and says,
            stale=stale,
            origin=role,
        )
    if not human:  # a path the assistant names is a relevant file, whatever else it says
        for path in tx.paths(sentence):
            yield file_item(
                Section.FILES_READ, src.quote(path, a), mid, seq, SALIENCE["ai.path"], role
            )
    if facts or stale or rule:
        return
    frame = tx.TRACEBACK_FRAME.match(sentence)  # a pasted stack frame: no file to work on
    if human and not frame:
        for path in tx.paths(sentence):
            yield item(
                Section.CRITICAL,
                whole,
                mid,
                seq,
                key=f"id:{path}",
                kind="path",
                salience=SALIENCE["human.path"],
                origin=role,
            )
    for ident in tx.identifiers(sentence)[:3]:
        yield item(
            Section.CRITICAL,
            whole,
            mid,
            seq,
            key=f"id:{ident}",
            kind="identifier",
            salience=SALIENCE[f"{role}.identifier"],
            origin=role,
        )
    if human:
        for error in error_lines(sentence, 1):
            yield item(
                Section.CRITICAL,
                src.quote(error, a),
                mid,
                seq,
                key=f"error:{tx.shape(error)[:80]}",
                kind="error",
                salience=SALIENCE["human.error"],
                origin=role,
            )


def _text_items(
    src: Source, seq: int, role: str, lo: int = 0, hi: int | None = None
) -> list[Candidate]:
    """The candidates of the human or assistant text ``src.text[lo:hi]``."""
    hi = len(src.text) if hi is None else hi
    out: list[Candidate] = []
    spans = prose_sentences(src.text, lo, hi)
    dir_listing = listed([(src.text[a:b], bullet) for a, b, bullet in spans])
    chat = role == "human" and hi - lo <= CHAT_MAX_CHARS
    ruled = False
    said_at: list[tuple[int, int]] = []  # sentence index, where its items start in out
    wrong = [chat and amends(src.text[a:b], opens=n == 0) for n, (a, b, _) in enumerate(spans)]
    amending = beside_amending(wrong)
    for n, (a, b, _) in enumerate(spans):
        sentence = src.text[a:b]
        said_at.append((n, len(out)))
        if n in dir_listing:
            continue
        before = spans[n - 1][0] if n and n - 1 not in dir_listing else None
        if tx.is_code_line(sentence):
            out.extend(present(written_call_items(src, a, b, seq, role)))
            if not quotes_json_in_prose(sentence):
                continue  # code: only the values it passes on purpose
        found = said_with(present(_sentence_items(src, a, b, seq, role)), sentence)
        # a rule pointing back at a sentence that is itself a rule is shown on its own
        if before is not None and not ruled and refers_back(sentence, src.text[before:a]):
            found = [(s, with_antecedent(it, src, before, b)) for s, it in found]
        ruled = any(it.pinned for _, it in found)
        said = chat or (role == "ai" and names_a_value(sentence))
        # beside "that one was wrong", a bare value is the correction ("It's 15:32 UTC.")
        fixes = amending[n] and bool(quote_values(sentence))
        # a person naming a value says something in few words ("We go through
        # 10.20.31.7:443 now."), if one is not a stopword ("It's 15:32 UTC." alone is not)
        names = chat and names_a_value(sentence) and _says_with(sentence)
        if not found and said and (says_something(sentence) or fixes or names):
            # what the user said in a turn of a conversation, or an assistant sentence
            # stating a value no recognizer took: kept in its own words; the user naming a
            # value ranks with the values they state, whatever words carry it
            named = role == "human" and gives_a_value(sentence)
            weight = SALIENCE["human.fact" if named else f"{role}.note"]
            found = present(
                [item(Section.CRITICAL, src.slice(a, b), src.id, seq,
                      key=f"said:{tx.norm(sentence)[:60]}", kind="note",
                      salience=weight, origin=role)]
            )  # fmt: skip
        if role == "ai" and locates(sentence) and not unasserted(sentence):
            weight = SALIENCE["ai.path"]  # where something is stored: a path at a host
            found = [
                (s, i.model_copy(update={"salience": max(i.salience, weight)}))
                if locates(i.text) else (s, i) for s, i in found
            ]  # fmt: skip
        out.extend(found)
    if chat:
        out = one_turn(out, said_at, [src.text[a:b] for a, b, _ in spans], wrong)
    return out


def _says_with(sentence: str) -> bool:
    """Whether ``sentence`` has a content word besides its values ("go through X", not
    "It's 15:32 UTC.")."""
    words = Quote(sentence).without(value_spans(sentence)).text
    return tx.content_words(words) > 0


AI_FACT_SPECIFICITY = 0.4
"""How specific the value of an assistant's "X is Y" must be for it to be a fact."""


def _human_items(message: HumanMessage, seq: int) -> list[Candidate]:
    """A human message's candidates, read by its structure: a rendered summary inside it
    item by item, a transcript turn by turn (each as its role's text), else as text."""
    src = Source(message.id or "", message_text(message))
    out: list[Candidate] = []
    rest = [(0, len(src.text))]
    fed_back = parse_rendered_summary(src, seq)
    if fed_back is not None:
        items, where = fed_back
        out.extend(items)
        edges = [0, *(x for span in where for x in span), len(src.text)]
        rest = list(zip(edges[::2], edges[1::2], strict=True))
    for lo, hi in rest:
        turns = transcript_turns(src.text, lo, hi)
        if not turns:
            out.extend(_text_items(src, seq, "human", lo, hi))
            continue
        for role, a, b in turns:
            if role == "tool":
                out.extend(output_items(src, seq, a, b))
            else:
                out.extend(_text_items(src, seq, role, a, b))
    return out


def extract_items(
    message: BaseMessage, seq: int, calls: Mapping[str, Mapping[str, Any]]
) -> list[Candidate]:
    """The summary candidates one raw message contributes.

    Args:
        message: a raw message (must have an id).
        seq: its raw index, kept on each item for recency.
        calls: tool-call id → tool call, for naming the call a ToolMessage answers.
    """
    mid = message.id or ""
    if isinstance(message, HumanMessage):
        return _human_items(message, seq)
    if isinstance(message, AIMessage):
        out = _text_items(Source(mid, message_text(message)), seq, "ai")
        for call in message.tool_calls:
            out.extend(present(arg_items(call, mid, seq)))
        return out
    if isinstance(message, ToolMessage):
        answered = calls.get(message.tool_call_id)
        signature = call_signature(answered) if answered else Quote(str(message.name))
        return tool_items(message, mid, seq, signature, call_key(answered) if answered else "")
    return []
