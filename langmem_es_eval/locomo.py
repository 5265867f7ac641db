"""LoCoMo loader: conversations, turns as memory texts, questions.

The dataset is read at run time from a JSONL file (one conversation per line, the
format described in ``../shared/data/README.md``). Nothing here copies the data.

Memory text per the retrieval protocol::

    "{speaker}: {text}"                               # plain turn
    "{speaker}: {text} [shares image: {caption}]"     # turn with an image caption
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "CATEGORY_NAMES",
    "HEADLINE_CATEGORIES",
    "Conversation",
    "Question",
    "Turn",
    "file_sha256",
    "iter_conversations",
    "load_dataset",
    "memory_text",
]

#: LoCoMo question categories.
CATEGORY_NAMES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}

#: Categories averaged into the headline figures; category 5 is reported apart.
HEADLINE_CATEGORIES: tuple[int, ...] = (1, 2, 3, 4)


def memory_text(speaker: str, text: str, image_caption: str | None = None) -> str:
    """Return the memory content of one dialog turn, as the protocol defines it.

    >>> memory_text("Ann", "Look!", "a photo of a cat")
    'Ann: Look! [shares image: a photo of a cat]'
    >>> memory_text("Bob", "Nice.")
    'Bob: Nice.'
    """
    content = f"{speaker}: {text}"
    if image_caption:
        content += f" [shares image: {image_caption}]"
    return content


@dataclass(frozen=True)
class Turn:
    """One dialog turn, ready to ingest as one memory."""

    turn_id: str
    session_id: str
    speaker: str
    text: str
    image_caption: str | None = None
    timestamp: str | None = None
    date_time: str | None = None

    @property
    def memory_text(self) -> str:
        """The memory content for this turn (see :func:`memory_text`)."""
        return memory_text(self.speaker, self.text, self.image_caption)

    @property
    def metadata(self) -> dict[str, str | None]:
        """Metadata kept with the memory: turn, session, speaker, session timestamp."""
        return {
            "turn_id": self.turn_id,
            "session_id": self.session_id,
            "speaker": self.speaker,
            "timestamp": self.timestamp,
        }


@dataclass(frozen=True)
class Question:
    """One question with its evidence turn ids."""

    qid: str
    question: str
    category: int
    evidence: tuple[str, ...]
    answer: object = None
    category_name: str = ""


@dataclass
class Conversation:
    """One conversation: its turns in order and its questions."""

    conv_id: str
    speakers: list[str]
    turns: list[Turn]
    questions: list[Question] = field(default_factory=list)

    @property
    def turn_ids(self) -> set[str]:
        return {t.turn_id for t in self.turns}


def _parse(obj: dict) -> Conversation:
    turns: list[Turn] = []
    for session in obj.get("sessions", []):
        sid = session["session_id"]
        for t in session.get("turns", []):
            turns.append(
                Turn(
                    turn_id=t["turn_id"],
                    session_id=sid,
                    speaker=t["speaker"],
                    text=t.get("text") or "",
                    image_caption=t.get("image_caption") or None,
                    timestamp=session.get("timestamp"),
                    date_time=session.get("date_time"),
                )
            )
    questions = [
        Question(
            qid=q["qid"],
            question=q["question"],
            category=int(q["category"]),
            evidence=tuple(q.get("evidence") or ()),
            answer=q.get("answer"),
            category_name=q.get("category_name") or CATEGORY_NAMES.get(int(q["category"]), ""),
        )
        for q in obj.get("questions", [])
        if q.get("evidence")
    ]
    return Conversation(
        conv_id=obj["conv_id"],
        speakers=list(obj.get("speakers", [])),
        turns=turns,
        questions=questions,
    )


def iter_conversations(path: str | Path) -> Iterator[Conversation]:
    """Yield the conversations of a LoCoMo JSONL file, one per non-empty line."""
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            try:
                yield _parse(json.loads(line))
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"{path}:{lineno}: not a LoCoMo conversation ({exc})") from exc


def load_dataset(path: str | Path, limit_conversations: int | None = None) -> list[Conversation]:
    """Load a LoCoMo JSONL file; ``limit_conversations`` keeps the first N."""
    convs: list[Conversation] = []
    for conv in iter_conversations(path):
        if limit_conversations is not None and len(convs) >= limit_conversations:
            break
        convs.append(conv)
    return convs


def file_sha256(path: str | Path) -> str:
    """SHA-256 of a file, hex (recorded in results to pin the dataset)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
