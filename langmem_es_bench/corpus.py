"""A deterministic synthetic corpus of short memory texts, and distinct query texts.

Texts read like what an assistant remembers about its users: devices and their error
codes, software versions, travel, budgets, preferences, meetings. They are built from
templates filled with varied entities, numbers, error codes and versions by one seeded
random stream, duplicates skipped, so the corpus of ``n`` items is always the first
``n`` items of any larger corpus with the same seed (embeddings cached for 100k serve
1k and 10k too).

>>> a = corpus(5)
>>> [i.text for i in a] == [i.text for i in corpus(50)[:5]]
True
>>> len({q for q in queries(200)}) == 200
True
>>> corpus_hash(corpus(3)) == corpus_hash(corpus(3))
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

__all__ = ["GENERATOR_VERSION", "CorpusItem", "QueryStream", "corpus", "corpus_hash", "queries"]

GENERATOR_VERSION = "1"
"""Bumped whenever the templates change, so cached embeddings are not reused."""

NAMES = [
    "Priya",
    "Marek",
    "Aiko",
    "Tomás",
    "Fatima",
    "Lars",
    "Chen",
    "Olu",
    "Sofia",
    "Dmitri",
    "Amara",
    "Jonas",
    "Leila",
    "Mateo",
    "Ingrid",
    "Kwame",
    "Yuki",
    "Hannah",
    "Ravi",
    "Elena",
    "Noah",
    "Zainab",
    "Pierre",
    "Mei",
]
CITIES = [
    "Edinburgh",
    "Lisbon",
    "Osaka",
    "Nairobi",
    "Montreal",
    "Krakow",
    "Austin",
    "Bergen",
    "Porto",
    "Tallinn",
    "Valencia",
    "Hanoi",
    "Denver",
    "Accra",
    "Lyon",
    "Perth",
    "Ghent",
    "Seville",
    "Quito",
    "Tbilisi",
]
DEVICES = [
    "thermostat",
    "smart plug",
    "door sensor",
    "security camera",
    "soundbar",
    "light strip",
    "robot vacuum",
    "mesh router",
    "NAS",
    "e-reader",
    "smartwatch",
    "dishwasher",
    "heat pump",
    "3D printer",
    "e-bike",
    "baby monitor",
    "air purifier",
    "label printer",
    "docking station",
    "game console",
]
BRANDS = [
    "Nordvik",
    "Helio",
    "Quanta",
    "Brisa",
    "Tessel",
    "Orbix",
    "Kelvin",
    "Lumo",
    "Strata",
    "Vireo",
    "Pebblo",
    "Arctis",
    "Zephyr",
    "Moxa",
    "Calder",
]
SOFTWARE = [
    "PostgreSQL",
    "Kubernetes",
    "Terraform",
    "Django",
    "React",
    "Kafka",
    "Redis",
    "Elasticsearch",
    "nginx",
    "Airflow",
    "Spark",
    "Grafana",
    "Prometheus",
    "FastAPI",
    "Node.js",
    "Rust",
    "Go",
    "Ubuntu",
    "Debian",
    "Android",
    "iOS",
    "Windows",
    "macOS",
    "OpenSSL",
    "Python",
]
ROOMS = ["kitchen", "hallway", "garage", "attic", "bedroom", "study", "porch", "cellar", "living room", "office"]
FOODS = [
    "oat milk",
    "gluten-free pasta",
    "spicy ramen",
    "dark chocolate",
    "green tea",
    "sourdough",
    "tofu curry",
    "espresso",
    "mango lassi",
    "falafel",
    "miso soup",
    "pho",
    "paella",
    "kimchi",
    "lentil soup",
]
HOBBIES = [
    "bouldering",
    "sailing",
    "chess",
    "pottery",
    "trail running",
    "birdwatching",
    "salsa dancing",
    "woodworking",
    "astrophotography",
    "kayaking",
    "calligraphy",
    "beekeeping",
    "cycling",
    "fencing",
]
PROJECTS = [
    "billing migration",
    "search revamp",
    "mobile onboarding",
    "data warehouse",
    "SSO rollout",
    "checkout redesign",
    "log pipeline",
    "pricing page",
    "fraud model",
    "API gateway",
    "design system",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = [
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
]
AIRLINES = ["KLM", "TAP", "Finnair", "Iberia", "Lufthansa", "Air Canada", "Qantas", "Kenya Airways", "ANA"]


def _code(r: random.Random) -> str:
    form = r.randrange(4)
    if form == 0:
        return f"E{r.randrange(100, 9999)}"
    if form == 1:
        return f"0x{r.randrange(0x10000000, 0xFFFFFFFF):08X}"
    if form == 2:
        return f"ERR_{r.choice(['TIMEOUT', 'AUTH', 'DISK_FULL', 'TLS', 'QUOTA', 'SYNC', 'CONN_RESET'])}_{r.randrange(10, 99)}"
    return f"HTTP {r.choice([400, 401, 403, 404, 409, 413, 429, 500, 502, 503, 504])}"


def _version(r: random.Random) -> str:
    return f"{r.randrange(0, 19)}.{r.randrange(0, 30)}.{r.randrange(0, 15)}"


def _money(r: random.Random) -> str:
    return f"{r.choice(['$', '€', '£'])}{r.randrange(20, 9000):,}"


def _fill(r: random.Random) -> dict[str, str]:
    return {
        "name": r.choice(NAMES),
        "name2": r.choice(NAMES),
        "city": r.choice(CITIES),
        "city2": r.choice(CITIES),
        "device": r.choice(DEVICES),
        "brand": r.choice(BRANDS),
        "sw": r.choice(SOFTWARE),
        "sw2": r.choice(SOFTWARE),
        "room": r.choice(ROOMS),
        "food": r.choice(FOODS),
        "hobby": r.choice(HOBBIES),
        "project": r.choice(PROJECTS),
        "day": r.choice(WEEKDAYS),
        "month": r.choice(MONTHS),
        "airline": r.choice(AIRLINES),
        "code": _code(r),
        "ver": _version(r),
        "ver2": _version(r),
        "money": _money(r),
        "n": str(r.randrange(2, 500)),
        "pct": str(r.randrange(5, 95)),
        "hour": str(r.randrange(7, 19)),
        "ticket": f"{r.choice(['SUP', 'OPS', 'BUG', 'INC'])}-{r.randrange(1000, 99999)}",
        "flight": f"{r.choice(['KL', 'TP', 'AY', 'IB', 'LH', 'AC', 'QF', 'KQ', 'NH'])}{r.randrange(100, 1999)}",
        "model": f"{r.choice('ABCDEFGHKMNPRSTX')}{r.randrange(10, 999)}",
    }


MEMORY_TEMPLATES = [
    "The user's {brand} {device} in the {room} shows error {code} since the firmware update to {ver}.",
    "The user runs {sw} {ver} in production and plans to upgrade to {ver2} in {month}.",
    "Ticket {ticket}: {sw} fails with {code} when the connection pool exceeds {n} clients.",
    "The user lives in {city} and works remotely for a team based in {city2}.",
    "The user prefers {food} and avoids anything with peanuts.",
    "The user's manager is {name}; their one-to-one is every {day} at {hour}:00.",
    "The user bought a {brand} {device} (model {model}) for {money} in {month}.",
    "{name} from the user's team owns the {project} and expects it to ship in {month}.",
    "The user is flying {airline} {flight} to {city} on a {day} in {month}.",
    "The user's monthly cloud budget for the {project} is {money}, and {pct}% of it is already spent.",
    "The user took up {hobby} last year and practises it every {day}.",
    "Restarting the {device} fixed {code} for the user, but it came back after {n} hours.",
    "The user's laptop runs {sw} {ver}; the {sw2} client crashes on start with {code}.",
    "The user asked to be reminded about the {project} review on {day} at {hour}:00.",
    "The user moved the {brand} {device} from the {room} to the {room} of the flat in {city}.",
    "The user's {sw} cluster has {n} nodes and CPU sits at {pct}% during the nightly batch.",
    "The user keeps {n} photos on the {brand} NAS and backs them up to {sw2} storage every {day}.",
    "The user rejected the {brand} {device} offer because it cost {money}.",
    "{name} recommended {sw} {ver} to the user for the {project}.",
    "The user's child {name} has a {hobby} class in {city} every {day}.",
    "After upgrading {sw} from {ver} to {ver2} the user saw {code} in the logs.",
    "The user's {device} battery lasts {n} minutes, down {pct}% since it was new.",
    "The user booked a table for {n} people in {city} for a {food} dinner on {day}.",
    "The user's subscription to {brand} renews in {month} at {money} a year.",
    "The user wants answers short, in bullet points, and without emojis when discussing the {project}.",
    "Incident {ticket}: the {project} API returned {code} for {pct}% of requests for {n} minutes.",
    "The user speaks with {name} in {city} every {day} about the {sw} migration.",
    "The user's {brand} {device} needs firmware {ver} before it can pair with the hub.",
    "The user paid {money} for the {airline} upgrade on flight {flight}.",
    "The user set the thermostat in the {room} to {n} degrees Fahrenheit for the winter.",
]

QUERY_TEMPLATES = [
    "what error does my {device} show?",
    "which {sw} version am I running?",
    "when is my one-to-one with {name}?",
    "how much did the {brand} {device} cost?",
    "what's the budget for the {project}?",
    "which flight am I on to {city}?",
    "what does {code} mean on my {device}?",
    "who owns the {project}?",
    "when does the {project} ship?",
    "what hobby did I start last year?",
    "why does {sw} fail with {code}?",
    "where did I put the {device}?",
    "did restarting the {device} help with {code}?",
    "what food do I like?",
    "how many nodes does my {sw} cluster have?",
    "what did {name} recommend for the {project}?",
    "remind me about the {project} review",
    "which firmware does the {brand} {device} need?",
    "what happened after I upgraded {sw} to {ver}?",
    "when does my {brand} subscription renew?",
    "my {device} in the {room} is broken again, any idea?",
    "what did I book in {city}?",
    "how long does my {device} battery last?",
    "is ticket {ticket} resolved?",
]


@dataclass(frozen=True)
class CorpusItem:
    """One synthetic memory: text, its position, and a session and time for bulk ingest."""

    index: int
    text: str
    session: int
    event_time: datetime

    def session_id(self, prefix: str = "s") -> str:
        return f"{prefix}{self.session:06d}"


_EPOCH = datetime(2025, 1, 1, tzinfo=timezone.utc)


def _stream(seed: int) -> Iterator[str]:
    r = random.Random(f"langmem-es-bench-corpus:{GENERATOR_VERSION}:{seed}")
    seen: set[str] = set()
    while True:
        text = r.choice(MEMORY_TEMPLATES).format(**_fill(r))
        if text not in seen:
            seen.add(text)
            yield text


def corpus(n: int, *, seed: int = 0, session_length: int = 10) -> list[CorpusItem]:
    """The first ``n`` distinct memory texts of stream ``seed``; sessions of ``session_length``
    consecutive items, event times one per item from 2025-01-01 in minutes."""
    if n < 0:
        raise ValueError("n must be >= 0")
    stream = _stream(seed)
    return [
        CorpusItem(i, next(stream), i // max(1, session_length), _EPOCH + timedelta(minutes=7 * i)) for i in range(n)
    ]


def queries(n: int, *, seed: int = 0, salt: str = "q") -> list[str]:
    """``n`` distinct query texts (different ``salt`` → a different set, for separate phases)."""
    r = random.Random(f"langmem-es-bench-queries:{GENERATOR_VERSION}:{seed}:{salt}")
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        q = r.choice(QUERY_TEMPLATES).format(**_fill(r))
        if q not in seen:
            seen.add(q)
            out.append(q)
    return out


class QueryStream:
    """Distinct query texts for a whole run: no text is handed out twice (so no cache answers).

    >>> qs = QueryStream()
    >>> a, b = qs.take(100), qs.take(100)
    >>> len(set(a) | set(b))
    200
    """

    def __init__(self, seed: int = 0) -> None:
        self._r = random.Random(f"langmem-es-bench-query-stream:{GENERATOR_VERSION}:{seed}")
        self._seen: set[str] = set()

    def take(self, n: int) -> list[str]:
        out: list[str] = []
        while len(out) < n:
            q = self._r.choice(QUERY_TEMPLATES).format(**_fill(self._r))
            if q not in self._seen:
                self._seen.add(q)
                out.append(q)
        return out


def corpus_hash(items: Sequence[CorpusItem] | Sequence[str]) -> str:
    """A short sha1 over the texts, in order (the key of cached embeddings)."""
    h = hashlib.sha1(GENERATOR_VERSION.encode())
    for it in items:
        h.update(b"\x1e" + (it.text if isinstance(it, CorpusItem) else it).encode("utf-8"))
    return h.hexdigest()[:16]
