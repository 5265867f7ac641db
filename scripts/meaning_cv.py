"""Leave-one-family-out cross-validation of the learned recogniser (issue 45), on the families
read (:data:`tests.unit.belief_stories.READ`: the tuning half and class 4's read halves) only.

For every tuning family with exemplars, the exemplars drawn from it are left out and its stories
are judged with the held fact read by the rules and the new statement read *by example only*
(:func:`langmem_es.core.meaning_learned.reading`): an update or a repeat must be read as one, a
``kept`` story (another holder, a stay, a past value, another thing) must never be. Key parts
are graded the same way (a family's key parts labelled without that family's key exemplars).
The grid's best settings — no destructive miss, then the most stories right — are printed.

    python scripts/meaning_cv.py               # the grid, then the chosen settings per family
    python scripts/meaning_cv.py --cost        # added ms per compare call
    python scripts/meaning_cv.py --write-cost  # added ms per remember on SQLite
    python scripts/meaning_cv.py --events      # the floor for one dated event in other words
    python scripts/meaning_cv.py --slots       # the floor for one attribute no label names
    python scripts/meaning_cv.py --roles       # the floor for one role said in two frames
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langmem_es.core import belief_meaning, meaning_learned, meaning_words  # noqa: E402
from langmem_es.core.meaning_learned import Settings  # noqa: E402
from tests.unit import belief_stories as B  # noqa: E402

DESTRUCTIVE = ("update", "reinforcement")


def folds() -> dict[str, meaning_learned.Exemplars]:
    ex = meaning_learned.exemplars()
    assert ex is not None, "the offline embedding model is needed"
    names = sorted({s for s in ex.sources if s != "own"})
    return {n: ex.subset(np.array([s != n for s in ex.sources])) for n in names}


def story_result(story: B.Story, ex: meaning_learned.Exemplars, settings: Settings) -> tuple[bool, bool] | None:
    """(right, destructive miss) of one story read by example on the new side (and on the held
    side too when the rules read neither); ``None`` when the rules read the held fact as a date or
    a many-valued attribute (the learned reading is not asked then)."""
    a = belief_meaning.meaning(story.held, story.owner)
    if a is not None and (a.attributes <= belief_meaning.MULTI or all(t.startswith("date:") for t in a.attributes)):
        return None  # one with several values, or a dated event: the attribute reading is not asked
    if a is None:  # neither side read by the rules: both by example, the new statement first
        b = meaning_learned.reading(story.said, story.owner, meaning_learned.ANY, ex=ex, settings=settings)
        a = meaning_learned.reading(story.held, story.owner, b.attributes, ex=ex, settings=settings) if b else None
    else:
        b = meaning_learned.reading(story.said, story.owner, a.attributes, ex=ex, settings=settings)
    same = a is not None and b is not None and meaning_words.same_form(a.values, b.values)
    got = belief_meaning.judge(a, b) if same else None
    if story.expected in DESTRUCTIVE:
        return got == story.expected, got in DESTRUCTIVE and got != story.expected
    return got not in DESTRUCTIVE, got in DESTRUCTIVE


def key_results(name: str, ex: meaning_learned.Exemplars, settings: Settings) -> list[bool]:
    fam = B.READ[name]
    want = {r[3]: r[1] for r in zip(*_all_rows(), strict=True) if r[0] == "k" and r[2] == name}
    return (
        [
            meaning_learned.key_label(text, ex=ex, settings=settings) == (lab if lab != "none" else None)
            for text, lab in want.items()
        ]
        if fam.keys != ((None, None),)
        else []
    )


def _all_rows() -> tuple[tuple[str, ...], ...]:
    ex = meaning_learned.exemplars()
    assert ex is not None
    return ex.kinds, ex.labels, ex.sources, ex.texts


def evaluate(settings: Settings, by_fold: dict[str, meaning_learned.Exemplars]) -> dict[str, tuple[int, int, int, int]]:
    """Per family: (stories right, stories judged, destructive misses, key parts right / of)."""
    out = {}
    stories = list(B.stories(B.READ))
    for name, ex in by_fold.items():
        results = [r for s in stories if s.family == name for r in [story_result(s, ex, settings)] if r is not None]
        keys = key_results(name, ex, settings)
        out[name] = (sum(r for r, _ in results), len(results), sum(d for _, d in results), sum(keys) * 1000 + len(keys))
    return out


def score(per: dict[str, tuple[int, int, int, int]]) -> tuple[int, float, float]:
    destructive = sum(d for _, _, d, _ in per.values())
    story_share = float(np.mean([r / n for r, n, _, _ in per.values() if n]))
    keys = [(k // 1000, k % 1000) for *_, k in per.values() if k % 1000]
    key_share = sum(r for r, _ in keys) / max(1, sum(n for _, n in keys))
    return -destructive, story_share, key_share


def none_rows_read(ex: meaning_learned.Exemplars, settings: Settings) -> tuple[int, int]:
    """Own ``none`` sentences given an attribute with the sentence itself left out (false readings)."""
    idx = [i for i, (k, lab) in enumerate(zip(ex.kinds, ex.labels, strict=True)) if k == "s" and lab == "none"]
    wrong = 0
    for i in idx:
        rest = ex.subset(np.arange(len(ex.texts)) != i)
        wrong += meaning_learned.label(ex.texts[i], ex=rest, settings=settings) is not None
    return wrong, len(idx)


#: within this much of the best LOFO share, the settings with the fewest false readings of the own
#: ``none`` sentences win, then the strictest (the larger margin, then floor)
TOLERANCE = 0.01


def main() -> None:
    by_fold = folds()
    ex = meaning_learned.exemplars()
    assert ex is not None
    grid = []
    for k, floor, margin in itertools.product(
        (1, 3, 5), np.arange(0.30, 0.76, 0.05), (0.0, 0.02, 0.04, 0.06, 0.08, 0.1)
    ):
        floor = round(float(floor), 2)
        st = Settings(k=k, floor=floor, margin=margin, key_floor=floor, key_margin=margin)
        neg_d, share, key_share = score(evaluate(st, by_fold))
        false_reads = none_rows_read(ex, st)[0]
        grid.append((st, -neg_d, share, key_share, false_reads))
        print(
            f"k={k} floor={floor:.2f} margin={margin:.2f}: destructive {-neg_d}, stories {share:.3f}, "
            f"keys {key_share:.3f}, 'none' rows read {false_reads}"
        )
    safe = [g for g in grid if g[1] == 0]
    top_s, top_k = max(g[2] for g in safe), max(g[3] for g in safe)
    s_best = max((g for g in safe if g[2] >= top_s - TOLERANCE), key=lambda g: (-g[4], g[0].margin, g[0].floor, g[2]))[
        0
    ]
    k_best = max((g for g in safe if g[3] >= top_k - TOLERANCE), key=lambda g: (g[0].margin, g[0].floor, g[3]))[0]
    chosen = Settings(s_best.k, s_best.floor, s_best.margin, k_best.key_floor, k_best.key_margin)
    print(f"best LOFO share: stories {top_s:.3f}, keys {top_k:.3f}; chosen (strictest within {TOLERANCE}): {chosen}")
    per = evaluate(chosen, by_fold)
    for name, (r, n, d, k) in per.items():
        keys = f", key parts {k // 1000}/{k % 1000}" if k % 1000 else ""
        print(f"  {name:28s} {r}/{n} right, {d} destructive{keys}")
    print("LOFO (-destructive, story share, key share):", score(per))
    wrong, of = none_rows_read(ex, chosen)
    print(f"own 'none' sentences read as an attribute (leave-one-out): {wrong} of {of}")


def cost() -> None:
    """Added milliseconds per ``compare`` call: the tuning stories and the pair table's rows, each
    new statement unseen (the learned caches cleared; its parse warm, as the write path has read it).
    An upper bound per write: there the new statement is embedded once for all the held facts."""
    import os
    import time

    from langmem_es.core.statements import parse
    from tests.fixtures.report import load

    pairs = [(s.held, s.owner, s.said, s.owner) for s in B.stories(B.READ)]
    pairs += [(old, "", new, "") for _, _, old, new in load()]
    meaning_learned.exemplars()
    meaning_learned.embed(["warm up"])
    added, when_asked = [], []
    for old, oo, new, no in pairs:
        parse(old), parse(new)
        times = {}
        for on in ("0", "1"):
            os.environ["LANGMEM_ES_LEARNED_MEANING"] = on
            belief_meaning.meaning.cache_clear()
            meaning_learned._masked.cache_clear()
            meaning_learned._cache.clear()
            t = time.perf_counter()
            belief_meaning.compare(old, oo, new, no)
            times[on] = (time.perf_counter() - t) * 1000
        added.append(times["1"] - times["0"])
        # one side or both unread: the learned reading is asked
        if belief_meaning.meaning(old, oo) is None or belief_meaning.meaning(new, no) is None:
            when_asked.append(added[-1])
    for label, ms in (("every call", sorted(added)), ("calls that ask it", sorted(when_asked))):
        print(
            f"{label}: {len(ms)} compare calls, added ms p50 {ms[len(ms) // 2]:.2f}, p90 {ms[int(len(ms) * 0.9)]:.2f}, "
            f"mean {sum(ms) / len(ms):.2f}"
        )


def write_cost() -> None:
    """Added milliseconds per ``remember`` on SQLite: three tuning stories a family, each second
    write timed with the learned reading off and on, the statement caches cleared before it."""
    import os
    import statistics
    import time
    import uuid
    from functools import _lru_cache_wrapper

    from langmem_es.model import Identity

    core = B._sqlite_core()
    warm = Identity(tenant="warm", user_id="sam", agent_id="a")
    core.remember(warm, "I live in York.", reason=B.WHY)
    core.remember(warm, "I call Leeds home now.", reason=B.WHY)
    caches = [
        v
        for name, mod in list(sys.modules.items())
        if name.startswith("langmem_es.core")
        for v in vars(mod).values()
        if isinstance(v, _lru_cache_wrapper) and (v.cache_info().maxsize or 0) > 1  # not the loaders
    ]
    took: dict[str, list[float]] = {"0": [], "1": []}
    for story in B.sample(B.READ, 3):
        for on in took:
            os.environ["LANGMEM_ES_LEARNED_MEANING"] = on
            who = Identity(tenant=f"t-{uuid.uuid4().hex[:8]}", user_id="sam", agent_id="assistant")
            core.remember(who, story.held, reason=B.WHY, subject_key=story.held_key)
            for c in {id(c): c for c in caches}.values():
                c.cache_clear()
            meaning_learned._cache.clear()
            t = time.perf_counter()
            core.remember(who, story.said, reason=B.WHY, subject_key=story.said_key)
            took[on].append((time.perf_counter() - t) * 1000)
    added = sorted(b - a for a, b in zip(took["0"], took["1"], strict=True))
    print(
        f"{len(added)} writes: p50 {statistics.median(took['0']):.1f} ms off, {statistics.median(took['1']):.1f} ms on; "
        f"added p50 {statistics.median(added):.1f}, p90 {added[int(len(added) * 0.9)]:.1f}, mean {statistics.mean(added):.1f}"
    )


def events() -> None:
    """Leave-one-event-out cross-validation of :data:`~langmem_es.core.meaning_learned.EVENT_FLOOR`
    over the dated sentences (kind ``d``: own groups of one event in other words, the tuning
    family 2/date-verb's templates): for each event left out, the floor is the least cosine above
    every pair of *different* events among the rest (plus 0.01: two events merged lose one); then
    the left-out event's own pairs (one event, should be read as one) and its pairs with the rest
    (two events, never) are graded at that floor."""
    ex = meaning_learned.exemplars()
    assert ex is not None
    idx = [i for i, k in enumerate(ex.kinds) if k == "d"]
    labels = [ex.labels[i] for i in idx]
    vecs = meaning_learned.embed([meaning_learned.event_phrase(ex.texts[i]) for i in idx])
    assert vecs is not None
    sims = vecs @ vecs.T
    groups = sorted(set(labels))
    lab = np.array(labels)
    same, other, floors = [0, 0], [0, 0], []
    for g in groups:
        rest = lab != g
        cross = sims[np.ix_(rest, rest)][lab[rest][:, None] != lab[rest][None, :]]
        floor = round(float(cross.max()) + 0.01, 3)
        floors.append(floor)
        mine = np.flatnonzero(lab == g)
        pairs = sims[np.ix_(mine, mine)][np.triu_indices(len(mine), 1)]
        same[0] += int((pairs >= floor).sum())
        same[1] += len(pairs)
        against = sims[np.ix_(mine, np.flatnonzero(rest))]
        other[0] += int((against >= floor).sum())
        other[1] += against.size
        print(
            f"  {g:20s} floor {floor:.3f}: one event {int((pairs >= floor).sum())}/{len(pairs)}, "
            f"two events merged {int((against >= floor).sum())}/{against.size}"
        )
    print(
        f"events left out: one event read as one {same[0]}/{same[1]} ({same[0] / same[1]:.3f}), "
        f"two events merged {other[0]}/{other[1]}; floors {min(floors):.3f}-{max(floors):.3f}, "
        f"all events {round(float(sims[lab[:, None] != lab[None, :]].max()) + 0.01, 3):.3f} "
        f"(chosen EVENT_FLOOR = {meaning_learned.EVENT_FLOOR})"
    )


def slots() -> None:
    """Leave-one-family-out choice of :data:`meaning_roles.SLOT_FLOOR` over the tuning families
    of classes 2 and 4: for each family, the floor the other families like best (fewest
    destructive misses, then most right) judges it; prints the left-out share and the floors."""
    from langmem_es.core import meaning_roles

    _floor_cv("SLOT_FLOOR", [0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.01], meaning_roles)


def roles() -> None:
    """The same for :data:`meaning_roles.ROLE_FLOOR` (how close two role phrases in two frames
    must embed), over the same families."""
    from langmem_es.core import meaning_roles

    _floor_cv("ROLE_FLOOR", [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 1.01], meaning_roles)


def _floor_cv(name: str, grid: list[float], module: object) -> None:
    stories = [s for s in B.stories(B.READ) if s.cls in ("2", "4")]
    shipped = getattr(module, name)
    table: dict[float, list[tuple[str, bool, bool]]] = {}
    from langmem_es.core import belief_rules

    for floor in grid:
        setattr(module, name, floor)
        belief_rules._relation.cache_clear()  # a relation is kept per pair of sentences
        rows = []
        for st in stories:
            got = B.judged(st)
            rows.append((st.family, got == st.expected, st.expected == "kept" and got in DESTRUCTIVE))
        table[floor] = rows
    setattr(module, name, shipped)
    belief_rules._relation.cache_clear()
    families = sorted({f for f, _, _ in table[grid[0]]})
    right = total = harmful = 0
    chosen = []
    for fam in families:

        def fit(floor: float, fam: str = fam) -> tuple[int, int]:
            rows = [r for r in table[floor] if r[0] != fam]
            return (-sum(r[2] for r in rows), sum(r[1] for r in rows))

        best = max(grid, key=lambda f: (*fit(f), -f))  # ties: the lower floor
        chosen.append(best)
        rows = [r for r in table[best] if r[0] == fam]
        right, total, harmful = right + sum(r[1] for r in rows), total + len(rows), harmful + sum(r[2] for r in rows)
    for floor in grid:
        rows = table[floor]
        print(
            f"  floor {floor:.2f}: {sum(r[1] for r in rows)}/{len(rows)} right, {sum(r[2] for r in rows)} destructive"
        )
    print(
        f"families left out: {right}/{total} right ({right / total:.3f}), {harmful} destructive; "
        f"floors chosen {min(chosen):.2f}-{max(chosen):.2f} ({name} shipped: {shipped})"
    )


if __name__ == "__main__":
    if "--cost" in sys.argv:
        cost()
    elif "--write-cost" in sys.argv:
        write_cost()
    elif "--events" in sys.argv:
        events()
    elif "--slots" in sys.argv:
        slots()
    elif "--roles" in sys.argv:
        roles()
    else:
        main()
