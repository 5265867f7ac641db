"""Rebuild ``langmem_es/core/meaning_exemplars.tsv`` and its vectors (issue 45).

The exemplars are the rows written for the learned recogniser (source ``own``) plus every
template of the story families that have been read (:data:`tests.unit.belief_stories.READ`: the
tuning half and the class 4 halves read since), labelled here with the attribute it names (the
held-out families are never read). A key part of a
tuning family's keys is a key exemplar. Then the vectors are recomputed.

    python scripts/meaning_exemplars.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langmem_es.core import meaning_learned  # noqa: E402
from tests.unit.belief_stories import READ  # noqa: E402

#: family -> the attribute its templates name (a template: its own label; ``None``: left out)
LABELS: dict[str, str | dict[str, str | None]] = {
    "4/home": "home",
    "4/employer": "employer",
    "4/home-more": "home",
    "4/employer-more": "employer",
    "4/safety-more": {
        "I live in {A}.": "home",
        "I work at {A}.": "employer",
        "I'm at {B} for a meeting.": "none",
        "My brother is a {B} resident now.": "home",
        "Our old house was in {B}.": "home",
        "I quit {B} years ago.": "employer",
    },
    "4/phone": "phone",
    "4/partner": "partner",
    "4/safety-holder": "home",
    "4/safety-stay": {"I'm based in {A}.": "home", "I live in {A}.": "home", "*": "none"},
    "4/safety-past": {"I work at {A}.": "employer", "Before that I worked at {B}.": "employer", "*": "home"},
    # class 4's third and fourth halves, read in session 33 (tuning since)
    "4/home-phrases": "home",
    "4/employer-offer": "employer",
    "4/safety-third": {
        "I live in {A}.": "home",
        "I'm visiting {B} now.": "none",
        "My cousin has settled in {B}.": "home",
        "I was born in {B}.": "home",
    },
    "4/home-fourth": "home",
    "4/employer-fourth": "employer",
    "4/safety-fourth-home": {
        "I live in {A}.": "home",
        "My office is in {B} now.": "none",
        "I'm staying in {B} for the weekend.": "none",
        "My daughter lives in {B} now.": "home",
        "I grew up in {B}.": "home",
    },
    "2/allergy-effect": "sensitivity",
    "2/vegetarian-trait": "diet:vegetarian",
    "2/teetotal-trait": "drinking:none",
    "2/form-line": "birthday",
    "2/date-verb": "event:launch",
    "2/control-other-value": "sensitivity",
    "3/synonym": "phone",
    "3/qualified-head": "manager",
    "3/longer-key": "job",
    "3/synonym-unread": {"{B} these days.": None, "*": "manager"},
    "3/synonym-unread-job": {"{B} these days.": None, "*": "job"},
    "3/longer-key-tail": "phone",
    "3/longer-key-tail-name": "partner",
    "3/safety-tail-other-thing": {"My phone number is {A}.": "phone", "*": "none"},
    "3/longer-key-employer": "employer",
    "3/denial-other-key": "manager",
    "3/same-value-other-key": "phone",
    "3/safety-holder-key": "phone",
    "3/safety-time-key": "employer",
}
#: the attribute a class 3 family's keys name, and key parts that name another thing
KEY_FAMILIES = {
    "3/synonym": "phone",
    "3/qualified-head": "manager",
    "3/longer-key": "job",
    "3/synonym-unread": "manager",
    "3/synonym-unread-job": "job",
    "3/longer-key-tail": "phone",
    "3/longer-key-tail-name": "partner",
    "3/safety-tail-other-thing": "phone",
    "3/longer-key-employer": "employer",
    "3/denial-other-key": "manager",
    "3/same-value-other-key": "phone",
    "3/safety-holder-key": "phone",
    "3/safety-time-key": "employer",
}
KEY_LABELS = {"passport_number": "none", "customer_number": "none"}


def _label(family: str, template: str) -> str | None:
    spec = LABELS.get(family)
    if isinstance(spec, dict):
        return spec.get(template, spec.get("*"))
    return spec


def rows() -> list[tuple[str, str, str, str]]:
    own = [r for r in meaning_learned._read_tsv(meaning_learned.EXEMPLAR_FILE) if r[2] == "own"]
    out: list[tuple[str, str, str, str]] = list(own)
    for name, fam in READ.items():
        a, b = fam.values[0]
        seen: set[tuple[str, str]] = set()
        for template in (*fam.held, *fam.said):
            lab = _label(name, template)
            text = template.format(A=a, B=b)
            kind = "d" if lab is not None and lab.startswith("event:") else "s"
            if lab is not None and (kind, text) not in seen:
                seen.add((kind, text))
                out.append((kind, lab, name, text[0].upper() + text[1:]))
        for pair in fam.keys:
            for key in pair:
                if key is None or name not in KEY_FAMILIES:
                    continue
                head = key.split(".")[-1]
                lab = KEY_LABELS.get(head) or KEY_FAMILIES[name]
                if ("k", head) not in seen and lab:
                    seen.add(("k", head))
                    out.append(("k", lab.split(":")[0], name, head.replace("_", " ")))
    return out


def main() -> None:
    header = "# kind\tlabel\tsource\ttext — rebuilt by scripts/meaning_exemplars.py (own rows kept, tuning rows regenerated)\n"
    body = "".join("\t".join(r) + "\n" for r in rows())
    meaning_learned.EXEMPLAR_FILE.write_text(header + body, encoding="utf-8")
    print(meaning_learned.write_vectors())


if __name__ == "__main__":
    main()
