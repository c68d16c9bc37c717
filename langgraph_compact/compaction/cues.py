"""Cues: the words that make a sentence a rule, a preference, a safety rule, a request, a
goal change, a correction, a decision, a reason or a next step.

Shape-based like ``patterns``: what people write, in any phrasing a cue word carries, not
one sentence a test knows.
"""

from __future__ import annotations

import re

__all__ = [
    "ADDRESSED",
    "CHANGED",
    "CONSTRAINT",
    "CORRECTION",
    "DECIDED",
    "DECISION",
    "GOAL_CHANGE",
    "NEXT",
    "PREFERENCE",
    "REASON",
    "REQUEST",
    "SAFETY",
    "goal_change",
]

CONSTRAINT = re.compile(
    r"\b(?:never|must|mustn't|don't|do not|does not need|always|should not|shouldn't|shall|"
    r"make sure|ensure|avoid|forbidden|not allowed|not permitted|prohibited|"
    r"requirements?(?: is| are|(?=:))|(?:is|are|be) required|required (?:to|for|by|when)|"
    r"no more than|at most|at least|no later than|no earlier than|under no circumstances|"
    r"without (?:asking|approval|confirmation|permission)|"
    r"keep .{1,40}\b(?:under|below|within|unchanged|intact|stable|compatible|backwards?)|"
    r"(?:needs?|has|have) to (?:be|stay|remain|keep|work|pass|support|run|use|fit|go)|"
    r"(?:limited|restricted|confined) to|backwards?[- ]compatib\w*|"
    r"(?:stays?|remains?|be|keeps?|maintain|preserve|retain) (?:\w+ ){0,2}compatible|"
    r"(?:we|you) (?:can't|cannot|can not|may not)(?! (?:reproduce|find|see|get|figure|tell|"
    r"understand|access|connect|log in|open|load|remember|wait)\b)|"
    r"(?:we|you) (?:are not|aren't) allowed to|"
    r"it(?:'s| is) (?:important|essential|critical|crucial|mandatory|vital) (?:that|to))\b|"
    r"(?<![.\w])only(?![(\w])|"
    r"^\W*(?:please\W+)?(?:preserve|maintain|retain|limit|restrict|respect|stick)\b|"
    r"^\W*(?:nothing|none of|no (?!worries|problem|thanks|idea|way|matter|doubt|need)\w+)\b"
    r"[^.]{0,60}\b(?:should|may|must|shall|ever)\b",
    re.IGNORECASE,
)
"""An instruction that restricts how the work is done (``classify``: after the safety and
preference cues). "only" counts as a word, not as ``QuerySet.only()``."""
PREFERENCE = re.compile(
    r"\b(?:i prefer|we prefer|prefer(?:ably|red)?|my preference|"
    r"(?:i|we)(?:'d| would)(?: (?:much|really|far|still|also|then|actually|quite|sooner|just|"
    r"\w+ly))? rather(?! than)|"
    r"i (?:like|love) (?!to\b)|i(?:'d| would) like you to|i want (?:you to )?(?:use|keep|write)|"
    r"please (?:use|keep|write|stick|name|format|indent|follow)|"
    r"^\W*(?:use|write|format|name|indent)\b[^.?!]{1,60}\bplease\b|"
    r"(?:can|could|would) you (?:please )?(?:keep|use|write|stick to|format|name)(?! (?:me|us)\b)|"
    r"(?:my|our) (?:favou?rite|style|convention|preferred)|stick to)\b",
    re.IGNORECASE,
)
SAFETY = re.compile(
    r"\b(?:never|do not|don't|must not|mustn't|should not|shouldn't|avoid|forbidden|"
    r"not allowed|not permitted|prohibited|under no circumstances|"
    r"without (?:asking|approval|confirmation|permission|(?:my|our|an?) (?:ok|okay|approval|"
    r"consent|sign-off|permission|go-ahead|review))|"
    r"(?:ask|check with|confirm with|consult|tell) me (?:first|before)|destructive|irreversible|"
    r"dangerous)\b|^\W*no (?:force[- ]?push|push|deploy|delet|drop|rm\b|restart|reboot)\w*"
    r"(?![^.]*\b(?:happened|was|were|did|went|occurred|yesterday|last)\b)",
    re.IGNORECASE,
)
"""A rule that guards against harm (deleting, pushing, touching production) or asks for a
human's approval first."""
REQUEST = re.compile(
    r"^\W*(?:(?:hi|hello|hey|yes|no|ok|okay|also|and|but|so|well|sure|great|thanks|sorry)\W+)*"
    r"(?:i(?:'d| would)? (?:like to|love to|want to|need to|wish|hope|was|am)\b|i (?:have|had) "
    r"(?!to\b)|i (?:don't|do not|didn't|did not|can't|cannot|won't) (?!want\b|like\b)|i'm\b)",
    re.IGNORECASE,
)
"""A clause where the user speaks of their own wants and state ("I'd like to change my
flight", "I don't have the id"): a request or a fact, not a rule, unless it addresses the
agent (``ADDRESSED``). "I don't want", "I have to" and "I need you to" are rules."""
ADDRESSED = re.compile(r"\byou to\b|\b(?:never|always)\b", re.IGNORECASE)
GOAL_CHANGE = re.compile(
    r"\b(?:new task|change of plans?|plans? changed?|change the plan|instead,? (?:please|let's|"
    r"i want|we)|forget (?:that|the previous|about)|now (?:i want|please|i need)|"
    r"switch to|pivot|drop (?:that|the) .{0,30} and|the (?:goal|priority|focus) is now|"
    r"new (?:goal|priority|focus)|stop (?:working on|doing)\b[^.]{0,80}(?:\band\b|;|\binstead))\b",
    re.IGNORECASE,
)


def goal_change(sentence: str) -> bool:
    """The sentence opens by changing the task ("New task: …", "Change of plan: …").

    Only at the start of a sentence: a policy that mentions "a change of plan" as a
    reason for cancelling a booking is not one.
    """
    found = GOAL_CHANGE.search(sentence)
    return found is not None and found.start() <= 20


CHANGED = (
    r"(?:was|were|has been|have been|had been|got|'s been)\s+"
    r"(?:(?:now|actually|just|already|since|recently)\s+)?[a-z][a-z-]*\s+"
    r"(?:(?:back|up|down|over|out|off)\s+)?"
)
"""An auxiliary and a participle, a change said in the passive: "was changed", "has been
rolled back", "got bumped up". Followed by "to", what comes next is the value it became
(``stale``); the verb says that something changed, not what (``subject``)."""
CORRECTION = re.compile(
    r"\b(?:correction|actually|instead of|rather than|no longer|not anymore|scratch that|"
    r"i meant|my mistake|sorry,|wrong|typo|update:|changed (?:from|to)|moved (?:from|to)|"
    r"previously|used to be|formerly|abandon\w*|dropped|deprecated|obsolete|scrapped|"
    r"superseded|replac(?:e|ed|es|ing)|outdated|retired)\b|, not\b|\(not |\s(?:→|->)\s",
    re.IGNORECASE,
)
DECISION = re.compile(
    r"\b(?:decid\w*|decision|i'll|i will|we'll|we will|let's|going to|choos\w*|chos\w*|"
    r"choice|approach|opt(?:ed|ing)? for|settl\w*|go(?:ing)? with|went with|"
    r"use .{1,40} instead|using .{1,40} (?:rather than|instead of|over))\b",
    re.IGNORECASE,
)
DECIDED = re.compile(
    r"\b(?:decided|(?:decision|settled|verdict)(?=:)|chose|chosen|(?:final|my|our) choice|"
    r"picked|opt(?:ed|ing) for|settled on|went with|going with|adopt(?:ed)?|switched to|"
    r"ruled out)\b",
    re.IGNORECASE,
)
"""A decision stated as made, or labelled as one ("Decision: …", "Settled: …"): an item
with or without a reason ("Picked X; Y is too slow"). A plan in any inflection ("I'll use
X", "Choosing X as the target") is one only with its reason (``REASON``); a question
decides nothing."""
REASON = re.compile(
    r"\b(?:because|since|so that|to avoid|due to|in order to|as it|given that|otherwise)\b",
    re.IGNORECASE,
)
NEXT = re.compile(
    r"\b(?:next|then|i need to|i'll|i will|todo|remaining|still need|afterwards|after that|"
    r"going to)\b",
    re.IGNORECASE,
)
