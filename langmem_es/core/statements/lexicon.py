"""The English the statement reader knows by name, read once from ``lexicon.json``.

Grammar (lemmas, parts of speech, dependencies, tense, named entities) comes from the
parser; the lexicon only names what grammar cannot tell: which nouns are people who own
facts, which predicates mean the same attribute, which verbs mark a change, and which
modifiers pick out one instance of a kind ("the *return* flight"). The words are data:
``lexicon.json`` says what each list is for beside its words; this module gives each a
type.

>>> "sister" in PEOPLE, PERSON_FRAMES["move_to"], ("lay", "off") in ENDING_PHRASALS
(True, 'home', True)
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

_DATA: dict[str, Any] = json.loads(
    resources.files(__name__.rpartition(".")[0]).joinpath("lexicon.json").read_text(encoding="utf-8")
)


def _split(words: str | list[str]) -> list[str]:
    """The words of a space-separated list, written on one line or on several."""
    return (" ".join(words) if isinstance(words, list) else words).split()


def _words(name: str) -> frozenset[str]:
    return frozenset(_split(_DATA[name]["words"]))


def _map(name: str) -> dict[str, str]:
    return dict(_DATA[name]["map"])


def _sets(name: str) -> dict[str, frozenset[str]]:
    return {kind: frozenset(_split(words)) for kind, words in _DATA[name]["sets"].items()}


def _pairs(name: str) -> frozenset[tuple[str, str]]:
    return frozenset((verb, particle) for verb, particle in (pair.split() for pair in _DATA[name]["pairs"]))


def _classes(name: str) -> dict[str, str]:
    return {word: kind for kind, words in _DATA[name]["classes"].items() for word in _split(words)}


def _diets(name: str) -> dict[str, frozenset[str]]:
    foods = {group: frozenset(_split(words)) for group, words in _DATA[name]["foods"].items()}
    return {
        diet: frozenset[str]().union(*(foods[group] for group in _split(groups)))
        for diet, groups in _DATA[name]["diets"].items()
    }


# who speaks, and who else holds facts
FIRST_PERSON = _words("FIRST_PERSON")
FIRST_PLURAL = _words("FIRST_PLURAL")
SPEAKER_NOUNS = _words("SPEAKER_NOUNS")
DEMONSTRATIVE = _words("DEMONSTRATIVE")
PEOPLE = _words("PEOPLE")
INSTANCE = _words("INSTANCE")
PARTNER_NOUNS = _words("PARTNER_NOUNS")
CHILD_NOUNS = _words("CHILD_NOUNS")
# things and their attributes
GENERIC_HEADS = _words("GENERIC_HEADS")
GENERIC_NOUNS = _words("GENERIC_NOUNS")
SAME_NOUN = _map("SAME_NOUN")
THING_FRAMES = _map("THING_FRAMES")
PERSON_FRAMES = _map("PERSON_FRAMES")
MULTI_VALUED = _words("MULTI_VALUED")
COMPLEMENT_CLASS = _classes("COMPLEMENT_CLASS")
KINDS_OF = _sets("KINDS_OF")
ANYTHING = _words("ANYTHING")
HOME_NOUNS = _words("HOME_NOUNS")
PLACE_NOUNS = _words("PLACE_NOUNS")
SCHOOL_NOUNS = _words("SCHOOL_NOUNS")
EMPLOYER_NOUNS = _words("EMPLOYER_NOUNS")
STUDENT_ROLES = _words("STUDENT_ROLES")
SCHEDULE_NOUNS = _map("SCHEDULE_NOUNS")
ACTIVITY_NOUNS = _map("ACTIVITY_NOUNS")
ROUTINES = _map("ROUTINES")
# verbs
STATE_VERBS = _words("STATE_VERBS")
CHANGE_VERBS = _words("CHANGE_VERBS")
CHANGE_NOUNS = _words("CHANGE_NOUNS")
CHANGE_ADVERBS = _words("CHANGE_ADVERBS")
CHANGE_ADJECTIVES = _words("CHANGE_ADJECTIVES")
CHANGE_PHRASALS = _pairs("CHANGE_PHRASALS")
SWITCH_VERBS = _words("SWITCH_VERBS")
ENDING_VERBS = _words("ENDING_VERBS")
ENDING_PHRASALS = _pairs("ENDING_PHRASALS")
OTHER_PHRASALS = _pairs("OTHER_PHRASALS")
NOT_ROLES = _words("NOT_ROLES")
GROUP_NOUNS = _words("GROUP_NOUNS")
MOVE_REASONS = _words("MOVE_REASONS")
MOVE_VERBS = _words("MOVE_VERBS")
GIVE_UP_VERBS = _words("GIVE_UP_VERBS")
AMOUNT_VERBS = _words("AMOUNT_VERBS")
RENAME_VERBS = _words("RENAME_VERBS")
WISH_VERBS = _words("WISH_VERBS")
NAMING_VERBS = _words("NAMING_VERBS")
ASK_VERBS = _words("ASK_VERBS")
PREFER_VERBS = _words("PREFER_VERBS")
DISLIKE_VERBS = _words("DISLIKE_VERBS")
TEAM_VERBS = _words("TEAM_VERBS")
OWNING_VERBS = _words("OWNING_VERBS")
SEPARATION_VERBS = _map("SEPARATION_VERBS")
UNPARTNERED = _words("UNPARTNERED")
CONTACT_VERBS = _map("CONTACT_VERBS")
CONTACT_PREPS = _words("CONTACT_PREPS")
# plans, places and tenure
PLAN_FRAMES = _words("PLAN_FRAMES")
TRIP_NOUNS = _words("TRIP_NOUNS")
CANCEL_VERBS = _words("CANCEL_VERBS")
PRESENCE_FRAMES = _words("PRESENCE_FRAMES")
TENURE_FRAMES = _words("TENURE_FRAMES")
PURSUIT: str = _DATA["PURSUIT"]["pattern"]
# time
WEEKDAYS = _words("WEEKDAYS")
MONTHS = _words("MONTHS")
TIME_NOUNS = _words("TIME_NOUNS")
TIME_DETERMINERS = _words("TIME_DETERMINERS")
TEMPORAL_PREPS = _words("TEMPORAL_PREPS")
FREQUENCY_WORDS = _words("FREQUENCY_WORDS")
# life domains and diets
TOPICS = _sets("TOPICS")
TOPIC_NAMES = _words("TOPIC_NAMES")
TOPIC_PHRASES = _map("TOPIC_PHRASES")
DIETS = _diets("DIETS")
# amounts
MEASURES = _words("MEASURES")
UNITS = _words("UNITS")
NUMBER_WORDS: dict[str, int] = dict(_DATA["NUMBER_WORDS"]["map"])
