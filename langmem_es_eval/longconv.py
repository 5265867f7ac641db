"""A second yardstick: seeded long, messy multi-session conversations with gold evidence.

The LoCoMo dev split is short chit-chat. Real assistant conversations also carry pasted
documents, meeting transcripts, source code and service logs (messages from a few hundred
characters to over 300,000), long assistant answers, facts that change over time and
preferences stated once. This module generates such conversations — every word from the
generator's own templates and pseudo-word vocabulary (:mod:`.longconv_words`,
:mod:`.longconv_text`, :mod:`.longconv_facts`; one conversation is made by
:mod:`.longconv_maker`), no third-party text — in the LoCoMo protocol's shapes
(:class:`~langmem_es_eval.locomo.Conversation`: turns ``D{session}:{turn}``, questions
with evidence turn ids), so every system is measured the same way (recall@k of evidence
turns).

Question categories (all in the headline):

====  ====================  ======================================================
1     multi-session         evidence in two or more sessions (who → what, totals)
2     temporal              when something happened, or the time between two events
3     knowledge-update      the current value of a fact that changed (evidence: the
                            latest statement)
4     preference            a request that needs a preference stated once
5     short-message fact    a fact said in passing in a short message
6     long-message middle   the same kinds of facts, in the middle of a pasted
                            document, transcript, log or code (2 k – 400 k chars)
7     assistant answer      a recommendation in the middle of a long assistant reply
8     instruction           a request governed by a standing instruction given
                            sessions before ("always give me distances in km")
9     contradiction         a claim and a later message contradicting it (both)
10    event ordering        the order of an undertaking's steps, told over several
                            sessions (every step)
11    summary               a recap of several things said of one subject (all)
====  ====================  ======================================================

Categories 8-11 came with the generator's second version (``version=2``, the default);
``longconv:version=1`` makes the conversations of the first, exactly as before.
``families=a`` / ``families=b`` keeps one half of the templates of the categories whose
question is phrased apart from its evidence (4 and 8-11), so that a ranker trained on one
half can be measured on phrasings it never saw.

Categories 5 and 6 use the same fact templates, so their recall compares short and long
messages directly. Generation is deterministic for a seed:

>>> a = generate(seed=3, conversations=1, scale=0.05)
>>> b = generate(seed=3, conversations=1, scale=0.05)
>>> [t.text for t in a[0].turns] == [t.text for t in b[0].turns]
True
>>> all(e in a[0].turn_ids for q in a[0].questions for e in q.evidence)
True
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from langmem_es_eval.locomo import Conversation, Turn
from langmem_es_eval.longconv_maker import CATEGORY_NAMES, VERSION_CATEGORIES, ConversationMaker

__all__ = [
    "CATEGORY_NAMES",
    "DEFAULT_SEED",
    "HEADLINE_CATEGORIES",
    "VERSION",
    "category_names",
    "generate",
    "is_spec",
    "load_spec",
    "parse_spec",
    "to_jsonl",
]

HEADLINE_CATEGORIES: tuple[int, ...] = tuple(CATEGORY_NAMES)
DEFAULT_SEED = 20261130
DEFAULT_CONVERSATIONS = 8
VERSION = 2
"""The generator's version (``version=1``: the first seven categories only, as before)."""


def category_names(version: int = VERSION) -> dict[int, str]:
    """The question categories a version of the generator plants."""
    return {c: CATEGORY_NAMES[c] for c in VERSION_CATEGORIES[version]}


def generate(
    seed: int = DEFAULT_SEED,
    conversations: int = DEFAULT_CONVERSATIONS,
    scale: float = 1.0,
    version: int = VERSION,
    families: str = "all",
) -> list[Conversation]:
    """``conversations`` long conversations for ``seed``; ``scale`` multiplies long-message lengths;
    ``families`` ``a`` or ``b`` keeps one half of the templates of categories 4 and 8-11."""
    if conversations < 1 or scale <= 0:
        raise ValueError("longconv: conversations must be >= 1 and scale > 0")
    return [
        ConversationMaker(random.Random(f"{seed}:{i}"), i, scale, version, families).build()
        for i in range(conversations)
    ]


# ---------------------------------------------------------------------- dataset specs


def is_spec(text: str | os.PathLike[str]) -> bool:
    """True for ``longconv`` or ``longconv:seed=1,conversations=4,scale=0.5,max_chars=30000,version=2``."""
    s = str(text)
    return (s == "longconv" or s.startswith("longconv:")) and not Path(s).exists()


def parse_spec(text: str | os.PathLike[str]) -> dict[str, Any]:
    """Generator parameters of a spec (see :func:`is_spec`); unknown keys are an error."""
    params: dict[str, Any] = {
        "seed": DEFAULT_SEED,
        "conversations": DEFAULT_CONVERSATIONS,
        "scale": 1.0,
        "max_chars": None,
        "version": VERSION,
        "families": "all",
    }
    _, _, rest = str(text).partition(":")
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep or key not in params:
            raise ValueError(f"longconv: bad option {part!r}; known: {', '.join(params)} (key=value)")
        params[key] = float(value) if key == "scale" else value if key == "families" else int(value)
    return params


def load_spec(
    text: str | os.PathLike[str], limit_conversations: int | None = None
) -> tuple[list[Conversation], dict[str, Any]]:
    """Generate the conversations of a spec; ``max_chars`` cuts longer messages (for
    systems that cannot ingest them, measured on the same cut data). Returns the
    conversations and the parameters."""
    params = parse_spec(text)
    n = params["conversations"] if limit_conversations is None else min(limit_conversations, params["conversations"])
    convs = generate(params["seed"], n, params["scale"], params["version"], params["families"])
    cut = params["max_chars"]
    if cut:
        for c in convs:
            c.turns = [
                t
                if len(t.text) <= cut
                else Turn(t.turn_id, t.session_id, t.speaker, t.text[:cut], t.image_caption, t.timestamp, t.date_time)
                for t in c.turns
            ]
    return convs, params


def _as_dict(c: Conversation) -> dict[str, Any]:
    sessions: dict[str, dict[str, Any]] = {}
    for t in c.turns:
        s = sessions.setdefault(
            t.session_id, {"session_id": t.session_id, "date_time": t.date_time, "timestamp": t.timestamp, "turns": []}
        )
        s["turns"].append({"turn_id": t.turn_id, "speaker": t.speaker, "text": t.text})
    return {
        "conv_id": c.conv_id,
        "source": "longconv",
        "speakers": c.speakers,
        "sessions": list(sessions.values()),
        "questions": [
            {
                "qid": q.qid,
                "question": q.question,
                "answer": q.answer,
                "category": q.category,
                "category_name": q.category_name,
                "evidence": list(q.evidence),
            }
            for q in c.questions
        ],
    }


def to_jsonl(conversations: list[Conversation]) -> Iterator[str]:
    """The conversations as LoCoMo-format JSON lines (readable by ``load_dataset``)."""
    for c in conversations:
        yield json.dumps(_as_dict(c), ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    """``python -m langmem_es_eval.longconv [SPEC] OUT.jsonl`` writes a generated dataset."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if not args or len(args) > 2:
        print(
            "usage: python -m langmem_es_eval.longconv [longconv:seed=..,conversations=..] OUT.jsonl", file=sys.stderr
        )
        return 2
    spec = args[0] if len(args) == 2 else "longconv"
    convs, _ = load_spec(spec)
    Path(args[-1]).write_text("".join(line + "\n" for line in to_jsonl(convs)), encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
