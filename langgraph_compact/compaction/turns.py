"""One turn of a conversation, where a correction may span sentences.

A person repairs what they said in any words: "I gave you a stale ID before. Since the
migration it's Y." names no subject, and "We're no longer meeting at X. New rendezvous is
Y." puts the old value and the new one in two sentences. Within a short human message (a
turn, not a pasted document), a sentence saying something the speaker said was wrong
(``amends``) marks the items beside it as amending (``SummaryItem.amends``: ``merge`` and
``strike`` find what they correct by the shape of their new value), and a sentence saying
something changed ties its values to those of the sentences beside it
(``SummaryItem.said_with``).
"""

from __future__ import annotations

import re

from langchain_core.messages import BaseMessage, HumanMessage

from langgraph_compact.compaction import text as tx
from langgraph_compact.compaction.candidates import Candidate
from langgraph_compact.compaction.moves import tied
from langgraph_compact.compaction.shapes import comparable
from langgraph_compact.compaction.subject import statement
from langgraph_compact.messages import message_text

__all__ = [
    "AMEND_WORDS",
    "CHAT_MAX_CHARS",
    "amended_values",
    "amends",
    "beside_amending",
    "one_turn",
    "said_with",
]

CHAT_MAX_CHARS = 600
"""A human message this short is a turn of a conversation: each of its sentences that no
recognizer took is still an item (a rule phrased in words no cue knows, a choice, a
detail), and a correction may span its sentences. A longer one is a brief or a pasted
document: only what is recognized."""

AMEND_WORDS = frozenset(
    """wrong mistake mistaken typo stale outdated incorrect misspoke correction scratch
    disregard ignore forget retract""".split()
)
"""Words saying that something was not right, or taking it back ("scratch what I said"):
not a new action ("change the booking to Y"), a repair of what is known."""

_SAID_EARLIER = re.compile(
    r"(?i)\bI(?:'d| had)? (?:said|gave|told|sent|wrote|typed|copied|mentioned|pasted|quoted)\b"
)
"""Words pointing back at what the speaker said: "I gave you", "what I wrote". A time
word alone ("earlier", "before") tells when something happened, not that it was said."""
_POINTS_BACK = re.compile(
    r"(?i)^\W*(?:that|those)(?:\s+[\w-]+)?(?:'s|’s|\s+(?:is|was|are|were))\s+"
    r"(?:(?:now|all|just|simply|a|an)\s+)*[^\W\d_]+\s*(?:[.,;:!)—–]|$)"
)
"""A sentence that opens by saying what "that" (or "those") is, in one word ending its
clause, points back at what was given before: "That ID is stale.", "That's wrong, …";
not "That is why we ignore …", "That was a mistake on the server side"."""


_LABEL = re.compile(
    r"(?i)^\W*(?:correction|korrektur|berichtigung|correcci[oó]n|rectificaci[oó]n|"
    r"corre[cç][aã]o|correzione|rectificatif|correctie|rättelse|rettelse|訂正|更正|勘误|정정)"
    r"\s*[:：]"
)
"""A turn opening with a correction's label ("Correction: it's Y", "Korrektur: …"); not one
in the middle of a turn (a pasted notice's), nor a fix's label ("修正:", "Poprawka:")."""
_RETRACTS = re.compile(
    r"(?i)(?<!\bnot )(?<!n't )(?<!\bno )(?<!\bnon )(?<!\bnão )(?<!\bnie )"
    r"(?:\b(?:i was wrong|i misspoke|i mistyped|my mistake|my bad|"
    r"ich habe mich (?:vertan|geirrt|vertippt|verschrieben)|je me suis tromp[ée]e?|"
    r"me equivoqu[ée]|mi sono sbagliat[oa]|me enganei|ik heb me vergist|ik vergiste me|"
    r"я (?:ошиб(?:ся|лась)|оговорил(?:ся|ась))|pomyli(?:łem|łam))(?!\w)|"
    r"我(?:刚才|刚刚|之前|前面|上面)?[说写打弄搞记]错了(?![吗么嘛])|更正一下|"
    r"間違えました(?!か)|間違っていました(?!か)|訂正(?:します|いたします|させてください)|正しくは|"
    r"정정(?:합니다|할게요|드립니다|드려요)|잘못 (?:말씀드렸|말했|적었|알려드렸))"
)
"""A speaker saying "I was wrong" in so many words, in English or another language ("my
mistake", "間違えました", "je me suis trompé", "я ошибся"): in the first person and the
past, not denied ("no me equivoqué", "我没说错"), not asked ("私が間違えましたか"), not
a warning ("别弄错了") or an action done by mistake ("間違えて削除しました")."""


def amends(sentence: str, *, opens: bool = False) -> bool:
    """Whether ``sentence`` says something said earlier was not right: a word of
    ``AMEND_WORDS`` and one pointing back at what was said ("I gave you the wrong value
    earlier", "typo in what I wrote", "That ID is stale"), "I was wrong" in any language
    (``_RETRACTS``), or a correction's label if it ``opens`` the turn; not a question.
    "I received the wrong item earlier" is about the item, not about a statement; "is
    the time wrong?" asks."""
    if re.search(r"[?？]\s*$|[吗么嘛か]\W*$", sentence):
        return False
    if _RETRACTS.search(sentence) or (opens and _LABEL.match(sentence)):
        return True
    if _SAID_EARLIER.search(sentence):
        return any(w.lower() in AMEND_WORDS for w in re.findall(r"[^\W\d_]{3,}", sentence))
    back = _POINTS_BACK.match(sentence)
    said = re.findall(r"[^\W\d_]+", back.group()) if back else []
    return bool(said) and said[-1].lower() in AMEND_WORDS


def beside_amending(wrong: list[bool]) -> list[bool]:
    """For each sentence, whether it or one beside it ``amends``: a correction's new value
    may stand in the sentence after "I gave you the wrong ID earlier."."""
    return [any(wrong[max(0, n - 1) : n + 2]) for n in range(len(wrong))]


def one_turn(
    found: list[Candidate], said_at: list[tuple[int, int]], sentences: list[str], wrong: list[bool]
) -> list[Candidate]:
    """``found`` read as one turn of a conversation, where a correction spans sentences:
    the items of a sentence beside one saying an earlier statement was wrong are marked
    ``amends`` ("I gave you a stale ID before. Since the migration it's Y."), and beside one saying
    something changed they know the values of that sentence (``said_with``: "We're no
    longer meeting at X. New rendezvous is Y.")."""
    if not said_at:  # no sentence at all: an empty message, a code block
        return found
    said = [statement(s) for s in sentences]
    amending = beside_amending(wrong)
    ends = [at for _, at in said_at[1:]] + [len(found)]
    out = list(found)
    for (n, start), end in zip(said_at, ends, strict=True):
        near = [k for k in (n - 1, n + 1) if 0 <= k < len(said)]
        changed = [k for k in near if said[k].changes or said[n].changes or wrong[k] or wrong[n]]
        for i in range(start, end):
            section, it = out[i]
            mine = [v for v in said[n].values if v in it.text]
            beside = tuple(
                v
                for k in changed
                for v in said[k].values
                if v not in it.text and any(comparable(v, w) for w in mine)
            )
            update: dict[str, object] = {}
            if beside:
                update["said_with"] = tuple(dict.fromkeys(it.said_with + beside))
            if amending[n]:
                update["amends"] = True
            if update:
                out[i] = (section, it.model_copy(update=update))
    return out


def said_with(found: list[Candidate], sentence: str) -> list[Candidate]:
    """``found`` knowing the values their sentence ties to theirs when it says something
    changed: the clause "the owner is Y" of "Disregard X, the owner is Y" replaces X (but
    "Y; the other stays X" ties nothing across the ";")."""
    said = statement(sentence)
    if not said.changes or len(said.values) < 2:
        return found
    out = []
    for section, it in found:
        mine = [v for v in said.values if v in it.text]
        beside = tuple(v for v in said.values if v not in mine and tied(said, [v], mine))
        out.append((section, it.model_copy(update={"said_with": beside}) if beside else it))
    return out


def amended_values(message: BaseMessage) -> list[str]:
    """The values a person's turn states beside a sentence saying an earlier statement
    was wrong ("I gave you a stale ID before. Since the migration it's Y."): new values of
    something it does not name."""
    text = message_text(message)
    if not isinstance(message, HumanMessage) or len(text) > CHAT_MAX_CHARS:
        return []
    said = list(tx.sentences(text))
    near = beside_amending([amends(s, opens=n == 0) for n, s in enumerate(said)])
    return [
        v
        for s, wrong_beside in zip(said, near, strict=True)
        if wrong_beside
        for v in statement(s).values
    ]
