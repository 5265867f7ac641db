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

__all__ = ["Filler", "Vocab", "WORDS"]

_ONSETS = (
    "b",
    "d",
    "f",
    "g",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "z",
    "br",
    "dr",
    "kr",
    "st",
    "tr",
    "th",
    "sh",
    "ch",
    "gl",
    "pl",
    "fr",
    "j",
    "h",
    "w",
    "y",
    "sk",
)
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ai", "ei", "ou", "ia", "ae", "y")
_CODAS = ("", "", "", "n", "r", "l", "s", "th", "x", "m", "nd", "rk", "v", "t")

#: Small hand-written word lists; slots of the templates draw from them.
WORDS: dict[str, tuple[str, ...]] = {
    "noun": (
        "report",
        "budget",
        "schedule",
        "contract",
        "invoice",
        "roadmap",
        "survey",
        "dataset",
        "prototype",
        "workshop",
        "proposal",
        "checklist",
        "template",
        "dashboard",
        "forecast",
        "inventory",
        "timeline",
        "agreement",
        "benchmark",
        "pipeline",
        "backlog",
        "estimate",
        "handbook",
        "policy",
        "review",
        "summary",
        "migration",
        "release",
        "audit",
        "outline",
        "campaign",
        "catalogue",
        "playbook",
        "brief",
        "memo",
        "ledger",
        "manifest",
        "draft",
    ),
    "thing": (
        "bicycle",
        "kettle",
        "laptop",
        "backpack",
        "camera",
        "guitar",
        "telescope",
        "lamp",
        "sofa",
        "blender",
        "drone",
        "printer",
        "tent",
        "kayak",
        "piano",
        "watch",
        "monitor",
        "headphones",
        "scooter",
        "microscope",
        "sewing machine",
        "espresso machine",
    ),
    "verb": (
        "review",
        "update",
        "archive",
        "validate",
        "publish",
        "rebuild",
        "migrate",
        "split",
        "merge",
        "simplify",
        "document",
        "schedule",
        "approve",
        "measure",
        "refactor",
        "replace",
        "extend",
        "test",
        "deploy",
        "monitor",
        "compare",
        "prioritise",
        "draft",
    ),
    "adj": (
        "careful",
        "rough",
        "final",
        "shared",
        "quarterly",
        "internal",
        "urgent",
        "detailed",
        "revised",
        "provisional",
        "weekly",
        "regional",
        "legacy",
        "modular",
        "lean",
        "robust",
        "manual",
        "automated",
        "public",
        "confidential",
        "seasonal",
        "experimental",
    ),
    "team": (
        "finance",
        "platform",
        "design",
        "support",
        "research",
        "sales",
        "legal",
        "security",
        "operations",
        "marketing",
        "data",
        "mobile",
        "infrastructure",
        "quality",
        "logistics",
    ),
    "weekday": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "month": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    "color": (
        "red",
        "blue",
        "green",
        "silver",
        "black",
        "white",
        "yellow",
        "orange",
        "grey",
        "purple",
        "teal",
        "brown",
    ),
    "species": (
        "dog",
        "cat",
        "parrot",
        "rabbit",
        "tortoise",
        "hamster",
        "ferret",
        "goldfish",
        "lizard",
        "canary",
        "guinea pig",
        "hedgehog",
    ),
    "vehicle": (
        "hatchback",
        "van",
        "pickup truck",
        "estate car",
        "motorbike",
        "electric car",
        "convertible",
        "minivan",
    ),
    "hobby": (
        "pottery",
        "rock climbing",
        "birdwatching",
        "chess",
        "woodworking",
        "salsa dancing",
        "sailing",
        "baking sourdough",
        "astronomy",
        "calligraphy",
        "archery",
        "knitting",
        "trail running",
        "beekeeping",
        "origami",
        "fencing",
    ),
    "instrument": (
        "cello",
        "violin",
        "drums",
        "saxophone",
        "ukulele",
        "flute",
        "trumpet",
        "harp",
        "banjo",
        "accordion",
    ),
    "field": (
        "marine biology",
        "accounting",
        "architecture",
        "nursing",
        "game design",
        "linguistics",
        "robotics",
        "photography",
        "law",
        "carpentry",
        "statistics",
    ),
    "dish": (
        "lentil soup",
        "mushroom risotto",
        "fish tacos",
        "pad thai",
        "shakshuka",
        "dumplings",
        "paella",
        "ramen",
        "falafel wraps",
        "stuffed peppers",
        "gnocchi",
    ),
    "lang": ("Python", "Go", "Rust", "TypeScript", "Kotlin", "Java", "Elixir", "C#", "Scala"),
    "db": ("Postgres", "MySQL", "Redis", "Cassandra", "SQLite", "MongoDB", "ClickHouse"),
    "relation": (
        "sister",
        "brother",
        "cousin",
        "neighbour",
        "best friend",
        "aunt",
        "uncle",
        "flatmate",
        "old classmate",
        "mentor",
    ),
}

_PROSE = (
    "The {team} team reviewed the {adj} {noun} for {project} and agreed to {verb} it before {weekday}.",
    "{person} pointed out that the {noun} still depends on the {adj} {noun2}, which nobody owns yet.",
    "We expect the {noun} to take about {n} working days once {person} has the {adj} inputs.",
    "In {month} the {team} group will {verb} the {noun2} and share a {adj} {noun} with {org}.",
    "Open question: should {project} {verb} the {noun} now, or wait for the {adj} {noun2}?",
    "{person} and {person2} compared three options for the {noun}; the {adj} one won on cost.",
    "Risks: the {noun2} may slip by {n} days if {org} does not {verb} the {noun} in time.",
    "The {adj} {noun} lives in the {team} wiki; {person} keeps it current after each {noun2}.",
    "A {adj} version of the {noun} was circulated on {weekday}, with comments due within {n} days.",
    "Nobody objected to moving the {noun} review to {weekday}, though {person} asked for notes.",
    "For context, {project} started as a {adj} experiment by the {team} team in {month}.",
    "{org} asked whether the {noun} could include a {adj} {noun2}; we said yes, in a later phase.",
    "The last {noun2} showed {n} open items, most of them small and owned by {person}.",
    "It was agreed to {verb} the {adj} {noun} every {weekday} until the {noun2} is signed off.",
    "Feedback from {person2} on the {noun}: clear overall, but the {noun2} section is too {adj}.",
    "Action item: {person} will {verb} the {noun2} and report back at the next {team} sync.",
    "The {team} budget line for the {noun} stays unchanged at roughly {n} hundred units.",
    "Several people mentioned that the {adj} {noun} is hard to find; a link will be added.",
    "We keep the {noun} and the {noun2} separate so that {org} can {verb} one without the other.",
    "Summary of the discussion: {verb} first, then {verb2}, and only then talk to {org} again.",
)

_CHAT = (
    "How was your {weekday}? Mine was mostly spent on the {noun} for {project}.",
    "Quick update: the {adj} {noun} is done, {person} still has to {verb} it.",
    "I had coffee with {person} today, we talked about {hobby} for an hour.",
    "Thanks, that helps. I'll {verb} the {noun} tomorrow morning.",
    "The weather has been strange all week, I barely left the flat.",
    "Do you remember what we said about the {noun2}? I think it can wait until {month}.",
    "Busy day. Three meetings about {project} and none of them about the {noun}.",
    "I'm thinking of taking a day off next {weekday}, maybe go somewhere quiet.",
    "{person} sent me a funny video about {hobby}, I can't stop laughing.",
    "Not much news, just trying to keep the {noun} backlog under control.",
    "Can you remind me later to {verb} the {adj} {noun}? I keep forgetting.",
    "I watched a documentary about {field} last night, surprisingly good.",
)

_ASSISTANT_SHORT = (
    "Sounds good. Let me know if you want help with the {noun}.",
    "Noted. I can draft a {adj} outline for the {noun} whenever you like.",
    "That makes sense. Anything else on your mind about {project}?",
    "Happy to help. Shall I keep a checklist for the {noun2}?",
    "Good to hear! How is {hobby} going, by the way?",
    "Understood. I'll keep that in mind for the next {noun} discussion.",
)

_EXPLAIN = (
    "A good first step is to {verb} the {noun} in small pieces, so each change can be checked on its own.",
    "Keep the {adj} parts apart from the rest; that way the {noun2} does not block you.",
    "If the {noun} grows, consider splitting it by {team} ownership rather than by date.",
    "Measure before and after: a {adj} {noun} is only better if the numbers say so.",
    "Write down who decides on the {noun2}; unclear ownership is the usual cause of delays.",
    "Automate the boring checks first, then {verb} the rest by hand once a week.",
    "Expect the first {n} days to be slower while people get used to the {adj} process.",
    "A short written {noun} often saves a long meeting, especially across time zones.",
    "Review the {noun2} with someone from {team}; they will notice things you will not.",
    "Keep a changelog next to the {noun}, even a {adj} one, so later readers know why.",
)

_LOG_MSGS = (
    "request completed status=200 duration_ms={n}",
    "cache miss for key {word}:{hexid}",
    "retrying call to {service} attempt={k}",
    "queue depth={n} consumer={word}-{k}",
    "heartbeat ok from {host}",
    "user session refreshed id={hexid}",
    "slow query on table {word} took {n}ms",
    "scheduled job {word}_{verb} finished in {n}ms",
    "connection pool size={k} idle={k2}",
    "config reloaded from /etc/{service}/{word}.yaml",
)


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
            w = "".join(r.choice(_ONSETS) + r.choice(_VOWELS) for _ in range(n)) + r.choice(_CODAS)
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
            s = self.fill(_PROSE)
            return s + ("\n" if self.rng.random() < 0.18 else "")

        units = self._units(chars, sentence)
        if chars > 3000:  # headings every so often
            for i in range(len(units) - 1, 0, -self.rng.randint(25, 40)):
                units.insert(i, f"\n## {self.v.pick('adj').capitalize()} {self.v.pick('noun')}\n")
        return units

    def transcript(self, chars: int) -> list[str]:
        """Lines of a meeting transcript: ``Name: sentence``."""
        return self._units(chars, lambda: f"{self.rng.choice(self.people)}: {self.fill(_PROSE)}\n")

    def explanation(self, chars: int) -> list[str]:
        """Advice sentences, as an assistant writes them."""
        return self._units(chars, lambda: self.fill(_EXPLAIN) + ("\n" if self.rng.random() < 0.2 else ""))

    def chat(self) -> str:
        return self.fill(_CHAT)

    def assistant_short(self) -> str:
        return self.fill(_ASSISTANT_SHORT)

    def logs(self, chars: int, start_epoch: int) -> list[str]:
        """Service log lines with increasing timestamps."""
        t = [start_epoch * 1000]

        def line() -> str:
            t[0] += self.rng.randint(3, 4000)
            secs, ms = divmod(t[0], 1000)
            stamp = _iso(secs) + f".{ms:03d}Z"
            level = self.rng.choice(("INFO", "INFO", "INFO", "DEBUG", "WARN"))
            s = self.slots()
            return f"{stamp} {level:5} {s['service']} [{s['hexid']}] {self.rng.choice(_LOG_MSGS).format(**s)}\n"

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
