"""One long conversation of the long-conversation benchmark (:mod:`langmem_es_eval.longconv`),
made from a seeded random generator: a user and the assistant over many sessions, short
messages, pasted documents, transcripts, logs and code, long assistant replies; facts of
every question category planted in them (:mod:`.longconv_facts`), each question with the
turn ids of its evidence."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from langmem_es_eval import longconv_facts, longconv_threads
from langmem_es_eval.locomo import Conversation, Question, Turn
from langmem_es_eval.longconv_text import Filler, Vocab
from langmem_es_eval.longconv_threads import FAMILIES
from langmem_es_eval.longconv_words import WORDS

__all__ = ["ASSISTANT", "CATEGORY_NAMES", "FAMILIES", "VERSION_CATEGORIES", "ConversationMaker"]


CATEGORY_NAMES: dict[int, str] = {
    1: "multi-session",
    2: "temporal",
    3: "knowledge-update",
    4: "preference",
    5: "short-message fact",
    6: "long-message middle",
    7: "assistant answer",
    8: "instruction",
    9: "contradiction",
    10: "event ordering",
    11: "summary",
}

#: Categories each version of the generator plants (version 2 added 8-11).
VERSION_CATEGORIES: dict[int, tuple[int, ...]] = {1: (1, 2, 3, 4, 5, 6, 7), 2: tuple(range(1, 12))}


ASSISTANT = "Assistant"
_GENRES = ("prose", "transcript", "logs", "code")


@dataclass(eq=False)
class _Msg:
    speaker: str
    text: str
    turn_id: str = ""


@dataclass
class _Plan:
    """Exchanges placed per session, and questions pointing at their messages."""

    sessions: list[list[list[_Msg]]]
    questions: list[tuple[int, str, list[_Msg], str]] = field(default_factory=list)


class ConversationMaker:
    def __init__(self, rng: random.Random, index: int, scale: float, version: int = 2, families: str = "all") -> None:
        if version not in VERSION_CATEGORIES:
            raise ValueError(f"longconv: version must be one of {sorted(VERSION_CATEGORIES)}, got {version}")
        if families not in FAMILIES:
            raise ValueError(f"longconv: families must be one of {', '.join(FAMILIES)}, got {families!r}")
        self.families = families
        self.rng = rng
        self.index = index
        self.scale = scale
        self.version = version
        self.vocab = Vocab(rng)
        self.fill = Filler(self.vocab)
        self.user = self.vocab.person()
        n = rng.randint(14, 18)
        start = datetime(2022, 1, 1) + timedelta(days=rng.randint(0, 1200))
        self.dates: list[datetime] = []
        for _ in range(n):
            start += timedelta(days=rng.randint(1, 21), hours=rng.randint(0, 10), minutes=rng.randint(0, 59))
            self.dates.append(start.replace(hour=rng.randint(8, 21)))
        self.plan = _Plan(sessions=[[] for _ in range(n)])
        self._used: set[tuple[Any, ...]] = set()

    # ------------------------------------------------------------------ slot values

    def values(
        self,
        template: longconv_facts.Template,
        keys: tuple[str, ...] = ("project", "person", "service", "host", "org", "team"),
    ) -> dict[str, Any]:
        """Slot values for ``template``; never the same template about the same subject twice."""
        r, v = self.rng, self.vocab
        for _ in range(50):
            s: dict[str, Any] = self.fill.slots()
            when = self.dates[r.randrange(len(self.dates))] + timedelta(days=r.randint(5, 90))
            word = v.word(2)
            s.update(
                amount=f"{r.randint(12, 950)},{r.randint(0, 9)}00",
                date=f"{when.day} {when:%B %Y}",
                place=v.place(),
                word=word,
                upper=word.upper(),
                port=r.choice((5432, 6379, 8080, 9200, 6432, 8443, 5672)) + r.randint(0, 9),
                pct=r.randint(91, 99),
                cur=r.choice(("NOK", "CHF", "PLN", "CZK", "HUF", "ISK")),
                region=f"{r.choice(('eu', 'us', 'ap'))}-{v.word(2)}-{r.randint(1, 4)}",
                stamp=when.strftime("%Y-%m-%dT%H:%M:%S") + f".{r.randint(0, 999):03d}Z",
                hour=r.randint(8, 17),
                db=v.pick("db"),
                lang=v.pick("lang"),
                species=v.pick("species"),
                name=v.person(),
                thing=v.pick("thing"),
                instrument=v.pick("instrument"),
                relation=v.pick("relation"),
                dish=v.pick("dish"),
                field=v.pick("field"),
                hobby=v.pick("hobby"),
            )
            used = (
                id(template),
                *(s[k] for k in keys if any("{" + k + "}" in t for t in template.says + template.asks)),
            )
            if used not in self._used:
                self._used.add(used)
                return s
        return s

    # ------------------------------------------------------------------ message makers

    def _long_chars(self, huge: bool = False) -> int:
        r = self.rng
        if huge:
            n = r.randint(300_000, 400_000)
        else:
            n = r.choice(
                (
                    r.randint(2_000, 8_000),
                    r.randint(2_000, 8_000),
                    r.randint(8_000, 40_000),
                    r.randint(8_000, 40_000),
                    r.randint(40_000, 120_000),
                )
            )
        return max(1_000, int(n * self.scale))

    def _units(self, genre: str, chars: int, session: int) -> list[str]:
        if genre == "logs":
            return self.fill.logs(chars, int(self.dates[session].timestamp()))
        return getattr(self.fill, genre)(chars)

    def paste(self, genre: str, chars: int, session: int, needle: str | None = None) -> str:
        """A user message pasting ``chars`` of a genre, with ``needle`` in its middle."""
        units = self._units(genre, chars, session)
        if needle is not None:
            at = int(len(units) * self.rng.uniform(0.25, 0.75))
            units.insert(at, needle if needle.endswith("\n") or genre == "prose" else needle + "\n")
        body = Filler.join(units)
        s = self.fill.slots()
        intro = {
            "prose": f"Pasting the {s['adj']} {s['noun']} for {s['project']} — can you summarise it?\n\n{body}",
            "transcript": f"Here's the transcript of today's {s['team']} sync, what are the action items?\n\n{body}",
            "logs": f"These are the {s['service']} logs from {s['weekday']}, anything odd?\n\n```\n{body}\n```",
            "code": f"Can you review this module from {s['project']}?\n\n```python\n{body}\n```",
        }[genre]
        return intro

    def short(self, fact: str) -> str:
        """A short user message saying ``fact`` in passing."""
        r = self.rng
        form = r.randrange(4)
        if form == 0:
            return f"{self.fill.chat()} By the way, {fact[0].lower() + fact[1:]}"
        if form == 1:
            return f"{fact} {self.fill.chat()}"
        if form == 2:
            return f"Oh, one thing before I forget: {fact}"
        return fact

    def reply(self, long: bool = False) -> _Msg:
        if long or self.rng.random() < 0.15:
            text = Filler.join(self.fill.explanation(self.rng.randint(800, 3_500) if not long else self._long_chars()))
        else:
            text = self.fill.assistant_short()
        return _Msg(ASSISTANT, text)

    def exchange(self, session: int, user_text: str, *, reply: _Msg | None = None) -> _Msg:
        """Place a user message (and the assistant's reply) in ``session``; return the user's."""
        msg = _Msg(self.user, user_text)
        self.plan.sessions[session].append([msg, reply or self.reply()])
        return msg

    def ask(
        self, category: int, template: longconv_facts.Template, slots: dict[str, Any], evidence: list[_Msg], answer: str
    ) -> None:
        self.plan.questions.append((category, self.rng.choice(template.asks).format(**slots), evidence, answer))

    def session(self, lo: float = 0.0, hi: float = 1.0) -> int:
        n = len(self.dates)
        return self.rng.randint(int(lo * (n - 1)), max(int(lo * (n - 1)), int(hi * (n - 1))))

    # ------------------------------------------------------------------ categories

    def short_facts(self, count: int) -> None:
        for t in self.rng.sample(longconv_facts.DOC_FACTS, count):
            s = self.values(t)
            fact = self.rng.choice(t.says).format(**s)
            msg = self.exchange(self.session(), self.short(fact))
            self.ask(5, t, s, [msg], fact)

    def long_needles(self, count: int) -> None:
        """``count`` needles in pastes; the first lands in a message of 300-400 k chars."""
        pools = {
            "prose": list(longconv_facts.DOC_FACTS),
            "transcript": list(longconv_facts.TRANSCRIPT_FACTS),
            "logs": list(longconv_facts.LOG_FACTS),
            "code": list(longconv_facts.CODE_FACTS),
        }
        for pool in pools.values():
            self.rng.shuffle(pool)
        for i in range(count):
            genre = self.rng.choice(_GENRES)
            t = pools[genre][i % len(pools[genre])]
            s = self.values(t)
            needle = self.rng.choice(t.says).format(**s)
            at = self.session()
            msg = self.exchange(at, self.paste(genre, self._long_chars(huge=i == 0), at, needle))
            self.ask(6, t, s, [msg], needle.strip())

    def assistant_answers(self, count: int) -> None:
        for t in self.rng.sample(longconv_facts.ASSISTANT_FACTS, count):
            s = self.values(t)
            units = self.fill.explanation(self._long_chars())
            fact = t.says[0].format(**s)
            units.insert(int(len(units) * self.rng.uniform(0.25, 0.75)), fact)
            answer = _Msg(ASSISTANT, Filler.join(units))
            self.exchange(self.session(), t.updates[0].format(**s), reply=answer)
            self.ask(7, t, s, [answer], fact)

    def _value(self, index: int, s: dict[str, Any]) -> str:
        r, v = self.rng, self.vocab
        return [
            lambda: v.place(),
            lambda: v.org(),
            lambda: v.person(),
            lambda: f"{v.pick('color')} {v.pick('vehicle')}",
            lambda: v.pick("weekday"),
            lambda: str(r.randint(1025, 9999)),
            lambda: v.person(),
        ][index]()

    def updates(self, count: int) -> None:
        for index in self.rng.sample(range(len(longconv_facts.UPDATES)), count):
            t = longconv_facts.UPDATES[index]
            s = self.values(t)
            changes = self.rng.choice((1, 1, 2))
            sessions = sorted(self.rng.sample(range(len(self.dates)), changes + 1))
            msg = None
            value = ""
            for j, at in enumerate(sessions):
                value = self._value(index, s)
                s["v"] = value
                text = self.rng.choice(t.says if j == 0 else t.updates).format(**s)
                if j == 0 and self.rng.random() < 0.3:  # first said inside a longer message
                    text = Filler.join([*self.fill.transcript(self.rng.randint(1_000, 3_000)), text])
                    msg = self.exchange(at, f"Notes from my week, for the record:\n\n{text}")
                else:
                    msg = self.exchange(at, self.short(text))
            assert msg is not None
            self.ask(3, t, s, [msg], value)

    def temporal(self, count: int) -> None:
        """``count - 2`` "when did" questions, one naming a month, one about two events."""
        picks = self.rng.sample(longconv_facts.EVENTS, count + 1)
        sessions = self.rng.sample(range(len(self.dates)), count + 1)
        said: list[tuple[_Msg, int, str]] = []
        for t, at in zip(picks, sessions, strict=False):
            s = self.values(t)
            msg = self.exchange(at, self.short(t.says[0].format(**s)))
            said.append((msg, at, t.updates[0].format(**s)))
            if len(said) <= count - 2:
                self.plan.questions.append((2, t.asks[0].format(**s), [msg], self.dates[at].date().isoformat()))
        months = [f"{self.dates[at]:%B %Y}" for _, at, _ in said]
        msg, at, clause = said[count - 2]
        if months.count(months[count - 2]) == 1:  # the month names one event only
            question = self.rng.choice(
                (
                    f"What milestone did I mention in {months[count - 2]}?",
                    f"What big thing happened to me in {months[count - 2]}?",
                )
            )
            self.plan.questions.append((2, question, [msg], clause))
        (m1, a1, e1), (m2, a2, e2) = said[-2:]
        days = abs((self.dates[a2] - self.dates[a1]).days)
        question = self.rng.choice(
            (
                f"How many days passed between the day {e1} and the day {e2}?",
                f"Which happened first: {e1}, or {e2}?",
            )
        )
        self.plan.questions.append((2, question, [m1, m2], f"{days} days"))

    def links(self, count: int) -> None:
        for t in self.rng.sample(longconv_facts.LINKS, count):
            s = self.values(t)
            a, b = sorted(self.rng.sample(range(len(self.dates)), 2))
            first, second = (x.format(**s) for x in t.says)
            if second.startswith(s["stamp"]):  # the second statement is a log line: a paste
                m1 = self.exchange(a, self.paste("logs", self._long_chars(), a, second))
                m2 = self.exchange(b, self.short(first))
            else:
                m1 = self.exchange(a, self.short(first))
                m2 = self.exchange(b, self.short(second))
            self.ask(1, t, s, [m1, m2], f"{first} / {second}")

    def purchases(self) -> None:
        says, asks = longconv_facts.PURCHASES
        things = self.rng.sample(WORDS["thing"], 3)
        msgs = [
            self.exchange(at, self.short(self.rng.choice(says).format(thing=thing)))
            for at, thing in zip(sorted(self.rng.sample(range(len(self.dates)), 3)), things, strict=False)
        ]
        self.plan.questions.append((1, self.rng.choice(asks), msgs, ", ".join(things)))

    def preferences(self, count: int) -> None:
        for t in self.rng.sample(self.family(longconv_facts.PREFERENCES), count):
            s = self.values(t)
            said = self.rng.choice(t.says).format(**s)
            text = self.short(said)
            if self.rng.random() < 0.3:
                text = Filler.join([*self.fill.prose(self.rng.randint(600, 2_500)), text])
            self.ask(4, t, s, [self.exchange(self.session(), text)], said)

    def family(self, pool: tuple[longconv_facts.Template, ...]) -> tuple[longconv_facts.Template, ...]:
        """The templates of ``pool`` in this conversation's family (see :data:`FAMILIES`)."""
        return pool if self.families == "all" else pool[FAMILIES.index(self.families) - 1 :: 2]

    def _thread_values(self, template: longconv_facts.Template) -> dict[str, Any]:
        """:meth:`values`, and the slots only version 2's templates use (drawn after, so the
        first version's draws stay as they were)."""
        return {**self.values(template), "color": self.vocab.pick("color")}

    def instructions(self, count: int) -> None:
        """A standing instruction early on; the request it governs is the question."""
        for t in self.rng.sample(self.family(longconv_threads.INSTRUCTIONS), count):
            s = self._thread_values(t)
            said = self.rng.choice(t.says).format(**s)
            self.ask(8, t, s, [self.exchange(self.session(0.0, 0.6), self.short(said))], said)

    def contradictions(self, count: int) -> None:
        """A claim, and a later message that contradicts it: both are evidence."""
        for t in self.rng.sample(self.family(longconv_threads.CONTRADICTIONS), count):
            s = self._thread_values(t)
            a, b = sorted(self.rng.sample(range(len(self.dates)), 2))
            claim, contrary = (x.format(**s) for x in t.says)
            msgs = [self.exchange(a, self.short(claim)), self.exchange(b, self.short(contrary))]
            self.ask(9, t, s, msgs, f"{claim} / {contrary}")

    def sequences(self, count: int) -> None:
        """The steps of one undertaking, one a session in order: the question asks the order."""
        for t in self.rng.sample(self.family(longconv_threads.SEQUENCES), count):
            s = self._thread_values(t)
            at = sorted(self.rng.sample(range(len(self.dates)), len(t.says)))
            steps = [x.format(**s) for x in t.says]
            msgs = [self.exchange(a, self.short(step)) for a, step in zip(at, steps, strict=True)]
            self.ask(10, t, s, msgs, " → ".join(steps))

    def topics(self, count: int) -> None:
        """Several things said of one subject across sessions: the question asks a summary."""
        for t in self.rng.sample(self.family(longconv_threads.TOPICS), count):
            s = self._thread_values(t)
            said = [x.format(**s) for x in t.says]
            at = self.rng.sample(range(len(self.dates)), len(said))
            msgs = [self.exchange(a, self.short(x)) for a, x in zip(at, said, strict=True)]
            self.ask(11, t, s, msgs, " / ".join(said))

    def noise(self) -> None:
        """Chit-chat and needle-less pastes until every session has 4-7 exchanges."""
        r = self.rng
        for at, exchanges in enumerate(self.plan.sessions):
            while len(exchanges) < r.randint(4, 7):
                if r.random() < 0.22:
                    self.exchange(
                        at,
                        self.paste(r.choice(_GENRES), self._long_chars(), at),
                        reply=self.reply(long=r.random() < 0.3),
                    )
                else:
                    self.exchange(at, self.fill.chat())

    # ------------------------------------------------------------------ assembly

    def build(self) -> Conversation:
        self.long_needles(6)
        self.short_facts(5)
        self.assistant_answers(4)
        self.updates(4)
        self.temporal(4)
        self.links(3)
        self.purchases()
        self.preferences(4)
        if self.version >= 2:
            self.instructions(3)
            self.contradictions(3)
            self.sequences(2)
            self.topics(2)
        self.noise()
        turns: list[Turn] = []
        for i, exchanges in enumerate(self.plan.sessions, 1):
            self.rng.shuffle(exchanges)
            when = self.dates[i - 1]
            number = 0
            for ex in exchanges:
                for msg in ex:
                    number += 1
                    msg.turn_id = f"D{i}:{number}"
                    turns.append(
                        Turn(
                            turn_id=msg.turn_id,
                            session_id=f"session_{i}",
                            speaker=msg.speaker,
                            text=msg.text,
                            timestamp=when.isoformat(timespec="seconds"),
                            date_time=f"{when:%-I:%M %p} on {when.day} {when:%B}, {when.year}",
                        )
                    )
        conv_id = f"longconv-{self.index + 1}"
        questions = [
            Question(
                qid=f"{conv_id}-q{n}",
                question=q,
                category=cat,
                evidence=tuple(m.turn_id for m in ev),
                answer=answer,
                category_name=CATEGORY_NAMES[cat],
            )
            for n, (cat, q, ev, answer) in enumerate(self.plan.questions, 1)
        ]
        return Conversation(conv_id=conv_id, speakers=[self.user, ASSISTANT], turns=turns, questions=questions)
