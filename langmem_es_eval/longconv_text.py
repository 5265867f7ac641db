"""Text makers of the long-conversation generator: a seeded vocabulary and filler.

Everything here is produced by the generator itself from small word lists written for
it and from pseudo-words built out of syllables: no third-party text. A :class:`Vocab`
holds the names of one conversation's world (people, organisations, places, projects,
services, hosts); :class:`Filler` writes prose, meeting transcripts, source code and
service logs of any length from it, in which the generator plants its facts.

>>> import random
>>> v = Vocab(random.Random(1))
>>> len({v.person() for _ in range(50)}) == 50
True
>>> len(Filler.join(Filler(v).prose(2000))) >= 1900
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from langmem_es_eval.longconv_words import ASSISTANT_SHORT, CHAT, CODAS, EXPLAIN, LOG_MSGS, ONSETS, PROSE, VOWELS, WORDS

__all__ = ["Filler", "Vocab"]


class Vocab:
    """Unique pseudo-names for one conversation, drawn from ``rng``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._used: set[str] = set()

    def word(self, syllables: int | None = None) -> str:
        """A fresh pseudo-word (lower case), never returned twice by this vocabulary."""
        r = self.rng
        while True:
            n = syllables or r.choice((2, 2, 3))
            w = "".join(r.choice(ONSETS) + r.choice(VOWELS) for _ in range(n)) + r.choice(CODAS)
            if len(w) >= 4 and w not in self._used:
                self._used.add(w)
                return w

    def person(self) -> str:
        return self.word().capitalize()

    def place(self) -> str:
        return self.word(self.rng.choice((2, 3))).capitalize() + self.rng.choice(("", "", "", " Falls", " Bay", "ford"))

    def org(self) -> str:
        return (
            self.word().capitalize() + " " + self.rng.choice(("Labs", "Systems", "Group", "& Co", "Works", "Partners"))
        )

    def project(self) -> str:
        return "Project " + self.word().capitalize()

    def service(self) -> str:
        return self.word(2) + "-" + self.rng.choice(("api", "worker", "gateway", "sync", "indexer", "billing"))

    def host(self) -> str:
        return f"{self.word(2)}-{self.rng.choice(('db', 'cache', 'node', 'mq'))}-{self.rng.randint(1, 9)}"

    def pick(self, slot: str) -> str:
        return self.rng.choice(WORDS[slot])


class Filler:
    """Writes background text of a given length in several genres from one :class:`Vocab`.

    Each genre method returns a list of units (sentences, lines) so that callers can plant
    a fact between two units; :meth:`join` glues units back into text.
    """

    def __init__(self, vocab: Vocab) -> None:
        self.v = vocab
        self.rng = vocab.rng
        # A small cast per conversation so the same names recur across messages.
        self.people = [vocab.person() for _ in range(12)]
        self.orgs = [vocab.org() for _ in range(5)]
        self.projects = [vocab.project() for _ in range(5)]
        self.services = [vocab.service() for _ in range(6)]
        self.hosts = [vocab.host() for _ in range(8)]

    def slots(self) -> dict[str, Any]:
        r, v = self.rng, self.v
        return {
            "person": r.choice(self.people),
            "person2": r.choice(self.people),
            "org": r.choice(self.orgs),
            "project": r.choice(self.projects),
            "noun": v.pick("noun"),
            "noun2": v.pick("noun"),
            "verb": v.pick("verb"),
            "verb2": v.pick("verb"),
            "adj": v.pick("adj"),
            "team": v.pick("team"),
            "weekday": v.pick("weekday"),
            "month": v.pick("month"),
            "hobby": v.pick("hobby"),
            "field": v.pick("field"),
            "n": r.randint(2, 90),
            "k": r.randint(1, 5),
            "k2": r.randint(0, 9),
            "word": v.word(2) if r.random() < 0.3 else v.pick("noun"),
            "hexid": f"{r.getrandbits(32):08x}",
            "service": r.choice(self.services),
            "host": r.choice(self.hosts),
        }

    def fill(self, templates: tuple[str, ...]) -> str:
        return self.rng.choice(templates).format(**self.slots())

    def _units(self, chars: int, make: Callable[[], str]) -> list[str]:
        out, total = [], 0
        while total < chars:
            unit = make()
            out.append(unit)
            total += len(unit) + 1
        return out

    def prose(self, chars: int) -> list[str]:
        """Sentences of a document, a paragraph break every few sentences."""

        def sentence() -> str:
            s = self.fill(PROSE)
            return s + ("\n" if self.rng.random() < 0.18 else "")

        units = self._units(chars, sentence)
        if chars > 3000:  # headings every so often
            for i in range(len(units) - 1, 0, -self.rng.randint(25, 40)):
                units.insert(i, f"\n## {self.v.pick('adj').capitalize()} {self.v.pick('noun')}\n")
        return units

    def transcript(self, chars: int) -> list[str]:
        """Lines of a meeting transcript: ``Name: sentence``."""
        return self._units(chars, lambda: f"{self.rng.choice(self.people)}: {self.fill(PROSE)}\n")

    def explanation(self, chars: int) -> list[str]:
        """Advice sentences, as an assistant writes them."""
        return self._units(chars, lambda: self.fill(EXPLAIN) + ("\n" if self.rng.random() < 0.2 else ""))

    def chat(self) -> str:
        return self.fill(CHAT)

    def assistant_short(self) -> str:
        return self.fill(ASSISTANT_SHORT)

    def logs(self, chars: int, start_epoch: int) -> list[str]:
        """Service log lines with increasing timestamps."""
        t = [start_epoch * 1000]

        def line() -> str:
            t[0] += self.rng.randint(3, 4000)
            secs, ms = divmod(t[0], 1000)
            stamp = _iso(secs) + f".{ms:03d}Z"
            level = self.rng.choice(("INFO", "INFO", "INFO", "DEBUG", "WARN"))
            s = self.slots()
            return f"{stamp} {level:5} {s['service']} [{s['hexid']}] {self.rng.choice(LOG_MSGS).format(**s)}\n"

        return self._units(chars, line)

    def code(self, chars: int, lang_name: str = "python") -> list[str]:
        """Python-looking source: functions and small classes with generated names."""

        def block() -> str:
            s = self.slots()
            name = f"{s['verb']}_{s['noun']}"
            arg, arg2 = self.v.pick("noun"), self.v.pick("adj")
            if self.rng.random() < 0.3:
                cls = "".join(p.capitalize() for p in (s["word"], s["noun2"]))
                return (
                    f'class {cls}:\n    """{s["adj"].capitalize()} holder of the {s["noun2"]}."""\n\n'
                    f"    def __init__(self, {arg}, limit={s['n']}):\n        self.{arg} = {arg}\n"
                    f"        self.limit = limit\n        self._seen = {{}}\n\n"
                )
            return (
                f"def {name}({arg}, {arg2}=None, *, retries={s['k']}):\n"
                f'    """{s["verb"].capitalize()} the {s["noun"]} of {s["project"]} ({s["team"]})."""\n'
                f'    if {arg} is None:\n        raise ValueError("{arg} is required")\n'
                f"    result = _{s['noun2']}_cache.get({arg})\n"
                f"    for attempt in range(retries):\n        if result is not None:\n            break\n"
                f'        result = _fetch("{s["service"]}", {arg}, timeout={s["n"]})\n'
                f"    return result\n\n\n"
            )

        return self._units(chars, block)

    @staticmethod
    def join(units: list[str]) -> str:
        return "".join(u if u.endswith("\n") else u + " " for u in units).strip()


def _iso(epoch_seconds: int) -> str:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(epoch_seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
