"""The rules of the memory core, pure: scoping, validation, ids, belief classification.

Scoping is a security property. :func:`visibility_filter` is the one choke point that
every read of the memory core passes through (it is added to every query), and
:func:`visible` re-checks each returned document: a document whose tenant, scope or
owner cannot be proven to belong to the caller is dropped (fail closed).
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from .. import filters as F
from ..documents import iso
from ..errors import InvalidMemoryError
from ..model import KINDS, SCOPES, Identity, Kind, Memory, Scope

MAX_CONTENT_CHARS = 32_000
NOTHING: F.Filter = {"bool": {"must_not": [F.MATCH_ALL]}}


def visibility_filter(identity: Identity, scopes: Iterable[Scope] = SCOPES) -> F.Filter:
    """Only memories of the caller's tenant, in the asked scopes it may read."""
    owners = identity.owners()
    per_scope = [
        F.all_of(F.term("scope", scope), F.terms("owner", owners[scope]))
        for scope in check_scopes(scopes)
        if owners[scope]
    ]
    if not per_scope:
        return NOTHING
    return F.all_of(F.term("record", "memory"), F.term("tenant", identity.tenant), F.any_of(*per_scope))


def visible(doc: Mapping[str, Any], identity: Identity, scopes: Iterable[Scope] = SCOPES) -> bool:
    """Fail closed: true only if tenant, scope and owner are present and the caller's."""
    tenant, scope, owner = doc.get("tenant"), doc.get("scope"), doc.get("owner")
    if not (isinstance(tenant, str) and isinstance(scope, str) and isinstance(owner, str)):
        return False
    if tenant != identity.tenant or doc.get("record") != "memory":
        return False
    value = doc.get("value")
    if not isinstance(value, Mapping) or (value.get("tenant"), value.get("scope"), value.get("owner")) != (tenant, scope, owner):
        return False
    return owner in identity.owners().get(scope, ()) and scope in set(scopes)  # type: ignore[call-overload]


def status_filter(*, include_superseded: bool, include_deleted: bool, as_of: datetime | None) -> F.Filter:
    statuses = ["active"]
    if include_superseded or as_of is not None:
        statuses.append("superseded")
    if include_deleted:
        statuses.append("soft_deleted")
    clauses = [F.terms("status", statuses)]
    if as_of is not None:
        t = iso(as_of)
        clauses.append(F.range_("written_at", lte=t))
        clauses.append(F.any_of(F.none_of(F.exists("valid_to")), F.range_("valid_to", gt=t)))
    return F.all_of(*clauses)


def _check_choices(values: Iterable[str], allowed: tuple[str, ...], what: str) -> list[Any]:
    out = list(dict.fromkeys(values))
    bad = [v for v in out if v not in allowed]
    if bad or not out:
        raise InvalidMemoryError(f"unknown {what}(s) {bad or '[]'}; use some of {list(allowed)}")
    return out


def check_kinds(kinds: Iterable[str]) -> list[Kind]:
    return _check_choices(kinds, KINDS, "kind")


def check_scopes(scopes: Iterable[str]) -> list[Scope]:
    return _check_choices(scopes, SCOPES, "scope")


def clean_text(text: Any, what: str = "content", *, limit: int = MAX_CONTENT_CHARS) -> str:
    """Validated text: a string, not blank, no control characters, within ``limit``."""
    if not isinstance(text, str):
        raise InvalidMemoryError(f"{what} must be a string, got {type(text).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidMemoryError(f"{what} is not valid unicode (lone surrogate at {exc.start})") from None
    cleaned = "".join(c for c in text if c in "\n\t" or unicodedata.category(c) != "Cc").strip()
    if not cleaned:
        raise InvalidMemoryError(f"{what} is empty; say what to remember")
    if len(cleaned) > limit:
        raise InvalidMemoryError(f"{what} is {len(cleaned)} characters; the limit is {limit} — split it or summarise")
    return cleaned


def check_ref(value: Any, what: str = "memory id") -> str:
    """A caller-supplied id or key (memory id, subject key): a string of valid unicode, 1-512 characters."""
    if not isinstance(value, str):
        raise InvalidMemoryError(f"{what} must be a string, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidMemoryError(f"{what} is not valid unicode (lone surrogate at {exc.start})") from None
    if not value.strip() or len(value) > 512:
        raise InvalidMemoryError(f"{what} must be 1-512 characters, got {len(value)}")
    return value


_FILTER_CLAUSES = ("match_all", "term", "terms", "range", "exists", "bool", "nested")


def check_filter(flt: Any, where: str = "filters") -> None:
    """Caller filters must be the filter language (:mod:`langmem_es.filters`); anything else is refused."""
    if not isinstance(flt, Mapping) or len(flt) != 1:
        raise InvalidMemoryError(f"{where} must be one clause like {{'term': {{field: value}}}}, got {flt!r:.80}")
    (kind, body), = flt.items()
    if kind not in _FILTER_CLAUSES or not isinstance(body, Mapping):
        raise InvalidMemoryError(f"{where}: unsupported filter clause {kind!r}; use one of {list(_FILTER_CLAUSES)}")
    if kind == "bool":
        for part in ("filter", "must_not", "should"):
            clauses = body.get(part, ())
            if not isinstance(clauses, (list, tuple)):
                raise InvalidMemoryError(f"{where}: bool.{part} must be a list of clauses")
            for c in clauses:
                check_filter(c, f"{where}.bool.{part}")
    elif kind == "nested":
        check_filter(body.get("query"), f"{where}.nested.query")
    elif kind in ("term", "terms", "range") and len(body) != 1:
        raise InvalidMemoryError(f"{where}: {kind} takes one field, got {sorted(map(str, body))}")


def check_recall_args(*, k: Any, candidates: Any, filters: Any, as_of: Any) -> None:
    """Types and ranges of recall's arguments (the query and scopes are checked on their own)."""
    for name, v in (("k", k), ("candidates", candidates)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
            raise InvalidMemoryError(f"{name} must be an integer, got {type(v).__name__} {v!r:.40}")
    if filters is not None:
        check_filter(filters)
    if as_of is not None and not isinstance(as_of, datetime):
        raise InvalidMemoryError(f"as_of must be a datetime, got {type(as_of).__name__} {as_of!r:.40}")


def check_write_args(*, confidence: Any, event_time: Any, sources: Any, metadata: Any, steps: Any) -> None:
    """Types of remember's optional arguments, before any of them is used."""
    import json

    if confidence is not None and (isinstance(confidence, bool) or not isinstance(confidence, (int, float))):
        raise InvalidMemoryError(f"confidence must be a number between 0 and 1, got {type(confidence).__name__} {confidence!r:.40}")
    if event_time is not None and not isinstance(event_time, datetime):
        raise InvalidMemoryError(f"event_time must be a datetime, got {type(event_time).__name__} {event_time!r:.40}")
    for name, v in (("sources", sources), ("steps", steps)):
        if isinstance(v, (str, bytes)) or not isinstance(v, Iterable) or not all(isinstance(x, str) for x in v):
            raise InvalidMemoryError(f"{name} must be a list of strings, got {v!r:.60}")
    if metadata is not None:
        if not isinstance(metadata, Mapping):
            raise InvalidMemoryError(f"metadata must be a dict, got {type(metadata).__name__}")
        try:
            json.dumps(metadata, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InvalidMemoryError(f"metadata must be JSON (strings, finite numbers, lists, dicts): {exc}") from None


def checked_embeddings(embeddings: Any) -> Any:
    """``embeddings`` whose vectors are checked: NaN/inf or empty vectors raise a clear EmbeddingError."""
    from langchain_core.embeddings import Embeddings

    from ..errors import EmbeddingError

    if isinstance(embeddings, _Checked):
        return embeddings

    def check(vectors: Any) -> Any:
        for v in vectors:
            if not len(v) or not all(math.isfinite(x) for x in v):
                raise EmbeddingError(f"the embedder {embeddings!r:.60} returned an invalid vector (empty, NaN or inf); "
                                     "check the model and its input")
        return vectors

    class Checked(_Checked, Embeddings):
        def __init__(self) -> None:
            self.inner = embeddings

        def __getattr__(self, name: str) -> Any:
            return getattr(embeddings, name)

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return check(embeddings.embed_documents(texts))

        def embed_query(self, text: str) -> list[float]:
            return check([embeddings.embed_query(text)])[0]

        async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
            return check(await embeddings.aembed_documents(texts))

        async def aembed_query(self, text: str) -> list[float]:
            return check([await embeddings.aembed_query(text)])[0]

        def __repr__(self) -> str:
            return repr(embeddings)

    return Checked()


class _Checked:
    """Marker of :func:`checked_embeddings` wrappers."""


def check_reason(kind: Kind, reason: str | None) -> str | None:
    """State it to save it: semantic and procedural writes need a one-sentence reason."""
    if kind == "episodic":
        return clean_text(reason, "reason", limit=500) if reason else None
    if reason is None or not str(reason).strip():
        raise InvalidMemoryError(
            f"a {kind} memory needs a reason: add one sentence saying why it is worth keeping "
            "(e.g. reason='The user will want replies about Edinburgh, not Bristol.')"
        )
    return clean_text(reason, "reason", limit=500)


def memory_id(*parts: Any) -> str:
    """Deterministic memory id, so a retried write never duplicates."""
    raw = "\x1f".join("" if p is None else str(p) for p in parts)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:24]


# Present-tense "don't / doesn't" is left out on purpose: it states a habit or preference
# ("I don't eat meat") — an assertion — unless the sentence also rejects a claim ("no,").
_DENY = re.compile(
    r"\b(never|not true|not correct|not right|is not|was not|are not|were not|isn'?t|wasn'?t|aren'?t|weren'?t|"
    r"didn'?t|did not|haven'?t|have not|hasn'?t|has not|hadn'?t|had not|no|nope|wrong|incorrect|untrue|false|"
    r"mistaken|a mistake|not)\b",
    re.IGNORECASE,
)
_CHANGE = re.compile(
    r"\b(no longer|not any ?more|any ?more|moved|move|moving|relocated|now|nowadays|these days|switched|changed|"
    r"started|stopped|quit|became|become|instead|from now on|going forward|used to|joined|upgraded|"
    r"downgraded|replaced|renamed|got married|got divorced|retired)\b|\b(my|our|his|her|their|the|a) new\b",
    re.IGNORECASE,
)
_CORRECTION_WITH_VALUE = re.compile(
    r"\b(it'?s|it is|actually|rather|but)\b.*\b(not|isn'?t|wasn'?t)\b"
    r"|\b(not|isn'?t|wasn'?t|never)\b[^.;]*[,;:]\s*(but|rather|it'?s|it is|i'?m|i am|we'?re|we are|he'?s|she'?s|"
    r"they'?re|it was|i was)\b(?![^.]*\b(not|never|n'?t)\b)",
    re.IGNORECASE,
)
Statement = Literal["assert", "update", "deny"]


def classify_statement(content: str) -> Statement:
    """Rule-based: ``update``, ``deny`` or ``assert``.

    * ``update`` — a statement of change: "I moved to Edinburgh", "I no longer live in
      Bristol", "From now on call me Sam". It asserts the new state and supersedes.
    * ``deny`` — a flat denial with no replacement value: "I never lived in Bristol",
      "That's wrong, Alice isn't vegetarian". Held at reduced confidence until confirmed.
    * ``assert`` — a plain statement: "Alice lives in Bristol". Present-tense
      "don't/doesn't" states a habit or preference ("I don't eat meat") and is an
      assertion too, unless the sentence also rejects a claim ("No, I don't have kids").

    A correction that names the right value ("It's not Bristol, it's Leeds") is an
    update: it asserts Leeds.
    """
    text = " ".join(content.split())
    if _CHANGE.search(text):
        return "update"
    if _CORRECTION_WITH_VALUE.search(text):
        return "update"
    if _DENY.search(text):
        return "deny"
    return "assert"


def classify_polarity(content: str) -> str:
    """``deny`` for a flat denial ("I never lived in Bristol"), else ``assert``.

    A statement of change ("I moved to Edinburgh", "I no longer live in Bristol") is an
    update, not a denial: it asserts the new state.
    """
    return "deny" if classify_statement(content) == "deny" else "assert"


_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_STOP = frozenset(
    "a an the is are was were be been being am i me my mine you your we our they their he she his her it its "
    "of in on at to for from by with and or but that this these those there here as do does did has have had "
    "not no never n't s t user users".split()
)


def content_words(text: str) -> set[str]:
    """Folded content words (no stop words, no negations) for lexical comparisons."""
    folded = unicodedata.normalize("NFKD", text).casefold()
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return {w for w in _WORD.findall(folded) if w not in _STOP and len(w) > 1}


def near_duplicate(old_content: str, new_content: str, similarity: float, threshold: float) -> bool:
    """The same claim in other words: very close in meaning *and* the same content words.

    Similarity alone is not enough — "renews on 1 March" and "renews on 1 April" embed
    almost identically — so every content word (values, names, numbers) must match too;
    only word order, stop words, inflection and punctuation may differ.
    """
    if similarity < threshold:
        return False

    def words(text: str) -> tuple[set[str], list[str]]:  # content words; numbers in order
        tokens = _WORD.findall(unicodedata.normalize("NFKD", text).casefold())
        return ({_stem(w) for w in tokens if not w.isdigit() and w not in _STOP and len(w) > 1},
                [w for w in tokens if w.isdigit()])

    return words(old_content) == words(new_content)


def key_terms(subject_key: str) -> set[str]:
    """The words of a subject key: ``user.favourite_colour`` → ``{"favourite", "colour"}``."""
    return {w for w in re.split(r"[._\-:/\s]+", subject_key.casefold()) if len(w) > 2 and w not in _STOP}


def likely_contradiction(old_content: str, old_key: str | None, new_content: str, similarity: float,
                         threshold: float) -> bool:
    """Is ``new_content`` (written without a subject key) a new value for ``old_key``?

    Similarity plus key: the two claims must be close in embedding space (``similarity``
    ≥ ``threshold``) *and* the new one must be about the key — it names the key's words
    ("favourite colour") or has the same frame as the old claim with only the value
    swapped ("Alice lives in Bristol" → "Alice lives in Leeds"). Without a key on the
    old fact nothing is inferred: "likes cats" and "likes dogs" can both be true.
    """
    if not old_key or similarity < threshold:
        return False
    new_words = content_words(new_content)
    old_words = content_words(old_content)
    if key_terms(old_key) & new_words and key_terms(old_key) & old_words:
        return True
    shared = old_words & new_words
    return len(shared) >= 2 and len(old_words - new_words) <= 2 and len(new_words - old_words) <= 2


def denies(old_content: str, denial: str, similarity: float, threshold: float) -> bool:
    """Does the flat denial ``denial`` negate the claim ``old_content``?

    Close in embedding space and the old claim's content words are (almost) all in the
    denial: "Alice never lived in Bristol" denies "Alice lives in Bristol" (after
    folding "lived"/"lives" to a shared stem).
    """
    if similarity < threshold:
        return False
    old = {_stem(w) for w in content_words(old_content)}
    new = {_stem(w) for w in content_words(denial)}
    return bool(old) and len(old - new) <= max(0, len(old) // 4)


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s", "d"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def failed_for_query(memory: Memory | Mapping[str, Any], query: str, *, overlap: float = 0.6) -> bool:
    """Post-filter for recall: did this playbook already fail for the problem in ``query``?

    ``record_outcome(..., success=False, problem=...)`` appends the problem to
    ``metadata["failed_for"]``. A playbook is withheld when one of those problems is the
    query (same fingerprint) or ``overlap`` of its content words are in the query.
    Works on a :class:`Memory` or a stored document (its ``value``).
    """
    meta = memory.metadata if isinstance(memory, Memory) else (memory.get("value", memory) or {}).get("metadata") or {}
    failed = meta.get("failed_for") or []
    if not failed:
        return False
    from ..model import content_hash

    qhash = content_hash(query)
    qwords = {_stem(w) for w in content_words(query)}
    for problem in failed:
        if not isinstance(problem, str):
            continue
        if content_hash(problem) == qhash:
            return True
        pwords = {_stem(w) for w in content_words(problem)}
        if pwords and len(pwords & qwords) / len(pwords) >= overlap:
            return True
    return False


def outcome_weight(success_count: int, failure_count: int) -> float:
    """Laplace-smoothed success rate in (0, 1): an untried playbook scores 0.5."""
    return (success_count + 1) / (success_count + failure_count + 2)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def decay_score(memory: Memory, now: datetime, half_life_days: Mapping[str, float]) -> float:
    """Decay score in 0..1: recency (half-life per kind), access, confidence, contradictions.

    ``(0.7·recency + 0.3·access) · (0.5 + 0.5·confidence) − 0.25·contradictions``:
    recency halves every ``half_life_days[kind]`` since the last access (or the write),
    access saturates at 50 recalls, a low-confidence memory fades twice as fast, and
    each contradiction costs a quarter. A fresh, confident memory scores 0.7.
    """
    ref = memory.last_accessed_at or memory.written_at
    age_days = max(0.0, (now - ref).total_seconds() / 86400)
    recency = math.exp(-math.log(2) * age_days / half_life_days[memory.kind])
    access = min(1.0, math.log1p(memory.access_count) / math.log1p(50))
    penalty = min(1.0, 0.25 * memory.contradiction_count)
    return max(0.0, (0.7 * recency + 0.3 * access) * (0.5 + 0.5 * memory.confidence) - penalty)


def adjust_playbooks(ranked: Sequence[tuple[str, float]], docs: Mapping[str, Mapping[str, Any]],
                     query: str) -> list[tuple[str, float]]:
    """Recall post-step for procedural memories (pure; the recall path calls it after reranking).

    Withholds every playbook that already failed for the problem in ``query``
    (:func:`failed_for_query`), and reorders the remaining playbooks among the slots
    playbooks held, by score × 2·success rate (:func:`outcome_weight`; untried: × 1).
    Other kinds keep their positions and scores, so scales of different rerankers never mix.
    """
    kept = [(i, s) for i, s in ranked if not (docs[i].get("kind") == "procedural" and failed_for_query(docs[i], query))]
    slots = [n for n, (i, _) in enumerate(kept) if docs[i].get("kind") == "procedural"]
    playbooks = sorted(
        ((i, s * 2 * outcome_weight(int(docs[i].get("success_count") or 0), int(docs[i].get("failure_count") or 0)))
         for i, s in (kept[n] for n in slots)),
        key=lambda x: -x[1],
    )
    out = list(kept)
    for n, item in zip(slots, playbooks):
        out[n] = item
    return out
