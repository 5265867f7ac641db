"""Issue 45, classes 2 and 4, on phrasing the rules were not written against.

The stories come from :mod:`tests.unit.belief_stories` (template families split into a tuning
and a held-out half before any rule for these classes was written). The pure rules are graded
on every story; a sample of every family is played through ``remember`` and ``recall`` on the
SQLite backend (the scenario tests play user stories on both backends).
``python -m tests.unit.belief_stories --families`` prints both halves.
"""

from __future__ import annotations

import dataclasses
import itertools
import uuid

import pytest

from langmem_es.core import MemoryCore, Policy, belief_meaning, belief_rules
from langmem_es.model import Identity
from tests.unit import belief_stories as B
from tests.unit.belief_stories_eighth import HELD_OUT_EIGHTH
from tests.unit.belief_stories_fifth import HELD_OUT_FIFTH
from tests.unit.belief_stories_ninth import HELD_OUT_NINTH
from tests.unit.belief_stories_seventh import HELD_OUT_SEVENTH
from tests.unit.belief_stories_sixth import HELD_OUT_SIXTH

WHY = "Answers about the user depend on it."

#: held-out share per class, measured after the rules were written, their misses not read (see
#: the README's belief section; python -m tests.unit.belief_stories --sqlite --all): the pure
#: rules, classes 2-5: 0.947 (114 stories), 0.826 (46), 0.857 (98; that half has been read, so
#: HELD_OUT_NEW measures class 4 afresh: 0.677 of 62), 1.000 (36); through remember on
#: SQLite, two stories a family: 0.929, 0.786, 0.929, 1.000 and 0.917 (new class 4). With the
#: learned reading (core/meaning_learned.py, thresholds by leave-one-family-out CV on the tuning
#: families): class 3 0.848, new class 4 0.903, the others as they were. With the reading asked when
#: neither side is read, keys whose heads and statements read as one attribute as one key, a trait
#: implied by a negation, and the safety guards of this round: class 2 1.000, class 3 0.978 (pure,
#: and through remember on SQLite, every story), class 4 0.857 / new 0.903, class 5 1.000
HELD_OUT_FLOORS = {"2": 1.0, "3": 0.97, "4": 0.85, "5": 1.0}
HELD_OUT_NEW_FLOORS = {"4": 0.90}
#: a third class 4 half (session 30), written before any further class 4 rule: 0.585 of 53 as it
#: stood, 0.604 after that session's rules (pure, and through remember on SQLite, every story);
#: read in session 33 (tuning since): 0.887
HELD_OUT_THIRD_FLOORS = {"4": 0.88}
#: the fourth half of class 4 (session 32, written before that session's rules): 0.631 before,
#: 0.769 after; read in session 33 (tuning since): 0.877
HELD_OUT_FOURTH_FLOORS = {"4": 0.87}
#: the fifth half of class 4 (session 33, written by a writer who had not read the rules, before
#: that session read it): 0.643 of 84 as measured (updates 0.455, kept 1.000); read since
#: session 37: 0.679 — a change told over clauses (core/meaning_clauses.py), written after it was read
HELD_OUT_FIFTH_FLOORS = {"4": 0.675}
#: the sixth (session 33, a second writer who had not read the rules; half common attributes in
#: new shapes): 0.581 of 86 as measured (updates 0.419, kept 1.000) — 0.581 at the session's
#: start too: the session's changes did not move it; its sentences were seen since (0.593)
#: session 37: 0.663 (a change told over clauses), 0.686 (one value given up for another in one clause)
HELD_OUT_SIXTH_FLOORS = {"4": 0.68}
#: the seventh (session 33, a third writer): 0.629 of 89 as measured (updates 0.508, kept 0.958: "If
#: the job comes through, we'll move to Plymouth" replaced the home), the same at the session's
#: start; read since (kept 1.000: a conditional or a future move is a plan; 0.629: a switch must
#: name what the held fact names, "The user switched opticians to X" after "I get my eyes tested at Y" stays beside it)
#: session 37: 0.674 (a change told over clauses)
HELD_OUT_SEVENTH_FLOORS = {"4": 0.67}
#: the eighth (session 33, written while the session's last class 4 changes were made, measured once
#: at their end): 0.552 of 87 (updates 0.424, kept 0.952: "I'd move to Glasgow tomorrow if my job
#: allowed it" replaced the home), 0.563 at the session's start; read since (0.563, kept 1.000)
#: session 37: 0.644 (a change told over clauses), 0.655 (one value given up for another in one clause)
HELD_OUT_EIGHTH_FLOORS = {"4": 0.65}
#: the ninth (written after session 33's last change, as users type — "btw", "fyi", two facts in
#: one message — and measured once at the session's end, its misses NOT read: still held out):
#: 0.451 of 82 (updates 0.241, kept 0.958), 0.451 at the session's start too; the rules alone 0.439.
#: Session 35: 0.476 once the learned reading reads the tidied sentence the rules read (misses still NOT read)
#: Session 37: 0.500 with a change told over clauses (updates 18 of 58, kept 23 of 24); 0.524 once every
#: belief rule reads the tidied sentences (updates 20 of 58, kept 23 of 24; misses still NOT read)
HELD_OUT_NINTH_FLOORS = {"4": 0.52}
HELD_OUT_SQLITE_FLOORS = {"2": 0.92, "3": 0.78, "4": 0.92, "5": 1.0}


#: tuning stories the write path still misses (the rules alone read them right): "Teacher these
#: days." filed as user.job_title beside user.job maps onto user.job, which names a kind of facts
#: (CATEGORY_KEYS), so it is kept as another fact of the kind
TUNING_WRITE_MISSES = {("3/synonym-unread-job", "Teacher these days.", "user.job")}


OPEN_TUNING_FAMILIES = B.OPEN_TUNING_FAMILIES


def test_every_tuning_story_is_read_right() -> None:
    misses = [(s.family, s.held, s.said, got) for s, got in B.misses(B.TUNING)]
    closed = [m for m in misses if m[0] not in OPEN_TUNING_FAMILIES]
    assert not closed, closed[:5]
    open_misses = {f: sum(m[0] == f for m in misses) for f in OPEN_TUNING_FAMILIES}
    assert all(open_misses[f] <= n for f, n in OPEN_TUNING_FAMILIES.items()), open_misses
    assert all(m[3] == "kept" for m in misses)  # a miss keeps both facts: nothing lost


def test_held_out_families_stay_at_their_measured_floor() -> None:
    measured = {k: share for k, (share, _) in B.shares(B.HELD_OUT).items()}
    assert all(measured[k] >= floor for k, floor in HELD_OUT_FLOORS.items()), measured
    fresh = {k: share for k, (share, _) in B.shares(B.HELD_OUT_NEW).items()}
    assert all(fresh[k] >= floor for k, floor in HELD_OUT_NEW_FLOORS.items()), fresh
    third = {k: share for k, (share, _) in B.shares(B.HELD_OUT_THIRD).items()}
    assert all(third[k] >= floor for k, floor in HELD_OUT_THIRD_FLOORS.items()), third
    fourth = {k: share for k, (share, _) in B.shares(B.HELD_OUT_FOURTH).items()}
    assert all(fourth[k] >= floor for k, floor in HELD_OUT_FOURTH_FLOORS.items()), fourth
    fifth = {k: share for k, (share, _) in B.shares(HELD_OUT_FIFTH).items()}
    assert all(fifth[k] >= floor for k, floor in HELD_OUT_FIFTH_FLOORS.items()), fifth
    sixth = {k: share for k, (share, _) in B.shares(HELD_OUT_SIXTH).items()}
    assert all(sixth[k] >= floor for k, floor in HELD_OUT_SIXTH_FLOORS.items()), sixth
    seventh = {k: share for k, (share, _) in B.shares(HELD_OUT_SEVENTH).items()}
    assert all(seventh[k] >= floor for k, floor in HELD_OUT_SEVENTH_FLOORS.items()), seventh
    eighth = {k: share for k, (share, _) in B.shares(HELD_OUT_EIGHTH).items()}
    assert all(eighth[k] >= floor for k, floor in HELD_OUT_EIGHTH_FLOORS.items()), eighth
    ninth = {k: share for k, (share, _) in B.shares(HELD_OUT_NINTH).items()}
    assert all(ninth[k] >= floor for k, floor in HELD_OUT_NINTH_FLOORS.items()), "the ninth half fell"


#: The read halves' class 4 stories with the new statement typed as users type it — all lowercase,
#: no final stop ("i've put down roots in exeter") — measured in session 35: 0.321 and 0.462 of
#: the third and fourth (0.887 and 0.877 as written) while the learned reading read the raw text;
#: 0.660 and 0.585 once it reads the sentence the rules read (casual.tidy). Written stays as it was.
#: Session 37, the fifth to the eighth typed (with a change told over clauses): 0.607, 0.605, 0.640,
#: 0.575; once every belief rule reads the tidied sentences (belief_rules._relation): the third 0.736,
#: the fourth 0.585, the fifth to the eighth 0.607, 0.593, 0.652, 0.575
TYPED_FLOORS = {
    "HELD_OUT_THIRD": 0.73,
    "HELD_OUT_FOURTH": 0.58,
    "HELD_OUT_FIFTH": 0.60,
    "HELD_OUT_SIXTH": 0.59,
    "HELD_OUT_SEVENTH": 0.65,
    "HELD_OUT_EIGHTH": 0.57,
}


def _typed(story: B.Story) -> B.Story:
    return dataclasses.replace(story, said=story.said.lower().rstrip(".!"))


def test_a_statement_typed_in_lowercase_is_read_nearly_as_written() -> None:
    for name, floor in TYPED_FLOORS.items():
        said = [(s.expected, B.judged(_typed(s))) for s in B.stories(B.half(name)) if s.cls == "4"]
        share = sum(got == expected for expected, got in said) / len(said)
        assert share >= floor, (name, round(share, 3))
        # typing never turns a kept fact into a loss
        assert all(got == "kept" for expected, got in said if expected == "kept"), name


def test_a_new_value_told_of_another_holder_or_the_past_never_updates() -> None:
    for fams in (
        B.TUNING,
        B.HELD_OUT,
        B.HELD_OUT_NEW,
        B.HELD_OUT_THIRD,
        B.HELD_OUT_FOURTH,
        HELD_OUT_FIFTH,
        HELD_OUT_SIXTH,
    ):
        safety = {n: f for n, f in fams.items() if "safety" in n or "control" in n}
        assert all(B.judged(s) == "kept" for s in B.stories(safety))


def test_the_rules_say_when_they_cannot_decide() -> None:
    assert belief_meaning.compare("I live in York.", "", "Home is Leeds.", "") == "unsure"
    assert belief_meaning.compare("I live in York.", "", "Home is Leeds now.", "") == "update"
    assert belief_meaning.compare("I work at Initech.", "", "Employer: Globex", "") == "unsure"
    assert belief_meaning.compare("I live in York.", "", "My sister is based in Leeds.", "") is None


# -- stories played through remember and recall (SQLite) ------------------------------------------


@pytest.fixture(scope="module")
def core():
    from langmem_es.backends.sqlite import SQLiteBackend

    backend = SQLiteBackend(":memory:", prefix=f"gen_{uuid.uuid4().hex[:8]}")
    backend.setup()
    core = MemoryCore(backend, rules=Policy(shared_writers={"*"}))
    yield core
    backend.close()


def _sample(families: dict[str, B.Family], per_family: int = 2) -> list[B.Story]:
    return B.sample(families, per_family)


def play(core: MemoryCore, story: B.Story) -> str:
    """The story through the write path: what the second write did to the first fact."""
    return B.play(core, story)


@pytest.mark.parametrize("story", _sample(B.TUNING), ids=lambda s: f"{s.family}:{s.said[:30]}")
def test_tuning_stories_through_remember(core, story: B.Story) -> None:
    if (story.family, story.said, story.held_key) in TUNING_WRITE_MISSES:
        pytest.xfail("a known miss of the write path (TUNING_WRITE_MISSES)")
    if story.family in OPEN_TUNING_FAMILIES and B.judged(story) != story.expected:
        assert play(core, story) == "kept"  # another frame of an unlabelled attribute: both stay
        return
    assert play(core, story) == story.expected


def test_held_out_stories_through_remember_stay_at_the_floor(core) -> None:
    tally: dict[str, list[bool]] = {}
    for story in _sample(B.HELD_OUT):
        tally.setdefault(story.cls, []).append(play(core, story) == story.expected)
    shares = {k: sum(v) / len(v) for k, v in tally.items()}
    assert all(shares[k] >= floor for k, floor in HELD_OUT_SQLITE_FLOORS.items()), shares


def test_a_keyless_update_in_new_words_keeps_the_history(core) -> None:
    sam = Identity(tenant=f"t-{uuid.uuid4().hex[:8]}", user_id="sam", agent_id="assistant")
    york = core.remember(sam, "I'm based in York.", reason=WHY)
    leeds = core.remember(sam, "My new place is in Leeds.", reason=WHY)
    assert leeds.superseded == [york.id] and not leeds.unsure
    assert [m.memory.content for m in core.recall(sam, "Where do I live?", kinds=["semantic"]).memories][:1] == [
        "My new place is in Leeds."
    ]
    history = core.recall(sam, "Where do I live?", kinds=["semantic"], include_superseded=True)
    assert {m.memory.content: m.memory.status for m in history.memories}["I'm based in York."] == "superseded"


def test_an_undecided_write_keeps_both_and_says_so(core) -> None:
    from langmem_es.tools.base import remember_text

    sam = Identity(tenant=f"t-{uuid.uuid4().hex[:8]}", user_id="sam", agent_id="assistant")
    york = core.remember(sam, "I live in York.", reason=WHY)
    leeds = core.remember(sam, "Home is Leeds.", reason=WHY)  # no change said: moved, or a second home?
    assert leeds.action == "created" and leeds.unsure == [york.id] and "could not tell" in leeds.note
    assert core.get(sam, york.id).status == "active"
    assert york.id in remember_text(leeds) and "could not tell" in remember_text(leeds)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The launch is on 12 March.", "We're launching on 12 March."),
        ("The ACME contract renews on 1 March.", "ACME's renewal date is 1 March."),
    ],
)
def test_two_agents_stating_one_shared_fact_in_other_words_agree(core, first: str, second: str) -> None:
    tenant = f"t-{uuid.uuid4().hex[:8]}"
    planner, researcher = Identity(tenant=tenant, agent_id="planner"), Identity(tenant=tenant, agent_id="researcher")
    a = core.remember(planner, first, scope="shared", reason=WHY)
    b = core.remember(researcher, second, scope="shared", reason=WHY)
    assert b.action == "reinforced" and b.id == a.id and not b.conflict_id
    assert core.conflicts(planner) == []


def test_class_one_safety_still_holds_for_generated_past_values() -> None:
    """Rule 1 whatever the new meaning layer says: a past value never updates the present."""
    held = ["I live in York.", "I work at Initech.", "My manager is Dana."]
    said = [
        "I lived in {v} before.",
        "Years ago my home was {v}.",
        "My old boss was {v}.",
        "Before that I worked at {v}.",
    ]
    for h, s in itertools.product(held, said):
        new = s.format(v="Leeds" if "home" in s or "lived" in s else "Priya")
        assert belief_rules._relation(h, "user:sam", "assert", new, "user:sam", "assert") not in ("update", "denial")
