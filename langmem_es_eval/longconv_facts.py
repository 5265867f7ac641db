"""Fact templates of the long-conversation generator: what is said, and what is asked.

Each template is written for this generator. A template's slots are filled from the
conversation's :class:`~langmem_es_eval.longconv_text.Vocab`; statements and questions
are phrased independently (several phrasings each), so a question rarely repeats its
evidence word for word.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "ASSISTANT_FACTS",
    "CODE_FACTS",
    "DOC_FACTS",
    "EVENTS",
    "LINKS",
    "LOG_FACTS",
    "PREFERENCES",
    "PURCHASES",
    "TRANSCRIPT_FACTS",
    "UPDATES",
    "Template",
]


@dataclass(frozen=True)
class Template:
    """Statements (one is chosen) and questions (one is chosen) sharing slot names."""

    says: tuple[str, ...]
    asks: tuple[str, ...]
    updates: tuple[str, ...] = ()
    """For knowledge updates: how a changed value is announced."""


# Planted in pasted documents (category "long-message middle") or said in passing in a
# short message (category "short-message fact") — the same facts, so the two compare.
DOC_FACTS = (
    Template(
        (
            "The launch budget for {project} was fixed at {amount} euros.",
            "We capped the {project} launch spend at {amount} euros.",
        ),
        ("What launch budget was set for {project}?", "How much money can {project} spend on its launch?"),
    ),
    Template(
        (
            "{person} will lead the {noun} migration for {project}.",
            "The {noun} migration of {project} is led by {person} from now on.",
        ),
        ("Who is in charge of migrating the {noun} for {project}?", "Who leads the {project} {noun} migration?"),
    ),
    Template(
        ("The {project} go-live date moved to {date}.", "{project} now goes live on {date}."),
        ("When is {project} going live?", "What is the new go-live date of {project}?"),
    ),
    Template(
        ("For {project} we picked {org} as the storage vendor.", "{org} won the storage contract for {project}."),
        ("Which vendor supplies storage for {project}?", "Who did we choose to provide storage for {project}?"),
    ),
    Template(
        (
            "The {team} offsite will take place in {place} this year.",
            "This year's {team} offsite is booked in {place}.",
        ),
        ("Where is the {team} offsite being held?", "In which town will the {team} team meet for the offsite?"),
    ),
    Template(
        (
            "Access to the {project} staging cluster needs the code word {word}.",
            "The {project} staging cluster is unlocked with the code word {word}.",
        ),
        ("What code word opens the {project} staging cluster?", "How do I get into the staging cluster of {project}?"),
    ),
    Template(
        (
            "{person} owns the {adj} {noun} and signs off every change to it.",
            "Every change to the {adj} {noun} needs a sign-off from {person}.",
        ),
        ("Who signs off changes to the {adj} {noun}?", "Whose approval does the {adj} {noun} need?"),
    ),
    Template(
        (
            "Support tickets for {project} peaked at {n} per day in {month}.",
            "In {month}, {project} saw up to {n} support tickets a day.",
        ),
        (
            "How many support tickets per day did {project} reach at its peak?",
            "What was the busiest day for {project} support in tickets?",
        ),
    ),
    Template(
        (
            "The {project} pilot runs with {n} volunteers from {org}.",
            "{org} lent us {n} volunteers for the {project} pilot.",
        ),
        (
            "How many volunteers take part in the {project} pilot?",
            "Who provides the volunteers for the {project} pilot, and how many?",
        ),
    ),
    Template(
        (
            "Invoices from {org} must be approved by {person} before payment.",
            "{person} approves all {org} invoices before they are paid.",
        ),
        ("Who approves invoices from {org}?", "Before paying {org}, whose approval do we need?"),
    ),
)

LOG_FACTS = (
    Template(
        ("{stamp} ERROR {service} [{hexid}] connection refused by {host}:{port}",),
        (
            "Which host was refusing connections from {service} in the logs I pasted?",
            "In those logs, where did {service} fail to connect?",
        ),
    ),
    Template(
        ("{stamp} WARN  {service} [{hexid}] disk usage {pct}% on volume /data/{word}",),
        (
            "Which volume was running out of disk for {service}?",
            "What disk was almost full according to the {service} logs?",
        ),
    ),
    Template(
        ("{stamp} ERROR {service} [{hexid}] batch {word} rejected: currency {cur} is not enabled",),
        ("Why was a batch rejected by {service}?", "Which currency caused {service} to reject a batch?"),
    ),
    Template(
        ("{stamp} FATAL {service} [{hexid}] out of memory after loading {n} {noun} records",),
        ("What made {service} crash in the logs?", "How many records had {service} loaded when it ran out of memory?"),
    ),
    Template(
        ("{stamp} ERROR {service} [{hexid}] certificate for {word}.internal expired on {date}",),
        (
            "Which certificate had expired according to the {service} logs?",
            "When did the certificate used by {service} expire?",
        ),
    ),
)

CODE_FACTS = (
    Template(
        ("{upper}_TIMEOUT_SECONDS = {n}  # agreed with {person} for the {service} client\n",),
        (
            "What timeout did we agree on for the {service} client?",
            "How many seconds may the {service} client wait before timing out?",
        ),
    ),
    Template(
        ('DEFAULT_REGION = "{region}"  # {project} data must stay in this region\n',),
        (
            "Which region must {project} data stay in, according to the code?",
            "Where is {project} data allowed to be stored?",
        ),
    ),
    Template(
        (
            "def purge_{noun}_{word}(batch):\n    # {person}: run this before the nightly {noun2} export, never after\n    return _purge(batch)\n\n",
        ),
        (
            "Which function has to run before the nightly {noun2} export?",
            "What must happen before the nightly {noun2} export, per the comment in the code?",
        ),
    ),
    Template(
        ("MAX_{upper}_WORKERS = {k}  # more than this and {host} starts swapping\n",),
        (
            "How many workers can the {word} job use before {host} swaps?",
            "What is the worker limit in the code because of {host}?",
        ),
    ),
)

TRANSCRIPT_FACTS = (
    Template(
        ("{person}: I'll send the {adj} {noun} to {org} by {weekday}, promise.\n",),
        ("Who promised to send the {adj} {noun} to {org}?", "By which day will the {adj} {noun} go to {org}?"),
    ),
    Template(
        ("{person}: Let's settle it — the {noun} freeze starts on {date}.\n",),
        ("When does the {noun} freeze start?", "What date was agreed for freezing the {noun}?"),
    ),
    Template(
        ("{person}: For the record, {person2} is our contact at {org} from now on.\n",),
        ("Who is our contact at {org} now?", "Which person should we talk to at {org}?"),
    ),
)

# The assistant's own long answers, with one concrete recommendation in the middle.
ASSISTANT_FACTS = (
    Template(
        ("For {project}, I'd recommend {db} for the {noun} store, mainly because its replication is simple to run.",),
        (
            "Which database did you recommend for the {project} {noun} store?",
            "What did you suggest we store the {project} {noun} in?",
        ),
        ("Can you help me plan the {noun} store for {project}? We are unsure about the database.",),
    ),
    Template(
        ("A sensible cadence for the {noun} review would be every {weekday} at {hour}:00, kept to thirty minutes.",),
        ("What schedule did you suggest for the {noun} review?", "When did you say the {noun} review should happen?"),
        ("Our {noun} reviews are chaotic. How would you organise them?",),
    ),
    Template(
        ("For the {hobby} plan, start with {n} minutes a day and add five minutes each week.",),
        (
            "How many minutes a day did you suggest I start {hobby} with?",
            "What was your advice on how long to practise {hobby} at first?",
        ),
        ("I want to get serious about {hobby}. How should I build a routine?",),
    ),
    Template(
        ("The {lang} port of the {noun} parser should come first; everything else can wait.",),
        (
            "Which part did you say should be ported to {lang} first?",
            "What should we rewrite in {lang} before anything else?",
        ),
        ("We're moving the {project} code base to {lang}. Where should we begin?",),
    ),
    Template(
        ("If you go with a shared drive, name the top folder {word}-{team} so the {team} team finds it.",),
        (
            "What folder name did you propose for the {team} shared drive?",
            "How did you say the {team} team's top folder should be called?",
        ),
        ("How should we organise the shared drive for the {team} team?",),
    ),
)

# Knowledge updates: a first statement, later one or two changes; asked: the current value.
UPDATES = (
    Template(
        ("I live in {v}, not far from the river.", "Home is {v} for me, have been here a while."),
        ("Which city do I live in now?", "Where am I living these days?"),
        ("We finally moved — I'm living in {v} now.", "Big change: I relocated to {v} last weekend."),
    ),
    Template(
        ("I work at {v}, mostly on internal tools.", "My employer is {v}, been there two years."),
        ("Where do I work now?", "Who is my current employer?"),
        (
            "Last day at the old job! I start at {v} on Monday.",
            "I accepted the offer from {v}, so that's my new workplace.",
        ),
    ),
    Template(
        ("My manager is {v}, a very calm person.", "I report to {v} at the moment."),
        ("Who is my manager at the moment?", "Who do I report to now?"),
        ("Reorg news: I now report to {v}.", "New boss as of this week: {v}."),
    ),
    Template(
        ("I drive a {v}, old but reliable.", "My car is a {v}."),
        ("What car do I have now?", "What do I drive these days?"),
        ("Sold the old car and bought a {v}!", "Traded in my car for a {v} this week."),
    ),
    Template(
        ("I go to the gym every {v}.", "{v} is my gym day."),
        ("Which day do I go to the gym now?", "On what day do I train at the gym these days?"),
        ("Switched my gym day to {v}, it fits better.", "From now on the gym is on {v} for me."),
    ),
    Template(
        ("Our {service} listens on port {v}.", "The {service} port is {v} in every environment."),
        ("What port does {service} use now?", "On which port can I reach {service} today?"),
        ("Heads up: we moved {service} to port {v}.", "{service} was reconfigured, it listens on {v} now."),
    ),
    Template(
        ("My {instrument} teacher is {v}.", "I take {instrument} lessons with {v}."),
        ("Who teaches me {instrument} now?", "Who is my {instrument} teacher these days?"),
        ("I switched {instrument} teachers, {v} teaches me now.", "New {instrument} teacher: {v}, starting this week."),
    ),
)

# Dated events of the user (temporal questions ask when, or which came first).
EVENTS = (  # updates: the event as a past-tense clause, for questions about two events
    Template(
        ("Guess what, I adopted a {species} today! Named it {name}.",),
        ("When did I adopt {name}?",),
        ("I adopted {name}",),
    ),
    Template(
        ("I ran my first half marathon in {place} this morning, legs are dead.",),
        ("When did I run the half marathon in {place}?",),
        ("I ran the half marathon in {place}",),
    ),
    Template(
        ("Signed the lease for the flat in {place} today.",),
        ("When did I sign the lease in {place}?",),
        ("I signed the lease in {place}",),
    ),
    Template(
        ("I passed the {field} certificate exam today!",),
        ("When did I pass the {field} exam?",),
        ("I passed the {field} exam",),
    ),
    Template(
        ("Sold my {thing} today, finally some space at home.",),
        ("When did I sell my {thing}?",),
        ("I sold my {thing}",),
    ),
    Template(
        ("Had my first {instrument} lesson today, harder than it looks.",),
        ("When did I start {instrument} lessons?",),
        ("I started {instrument} lessons",),
    ),
    Template(
        ("We launched {project} to the first customers today.",),
        ("When did {project} reach its first customers?",),
        ("{project} reached its first customers",),
    ),
)

# Cross-session links: the first statement names who, the second says what about them.
LINKS = (
    Template(
        ("My {relation} {name} is coming to visit next month.", "{name} just started studying {field}, so proud."),
        ("What is my {relation} studying?", "Which subject did my {relation} start?"),
    ),
    Template(
        (
            "{name} is the new lead on {project}, announced this morning.",
            "{name} told me they are allergic to {species}s, poor thing.",
        ),
        ("What is the {project} lead allergic to?", "Which animal should the lead of {project} avoid?"),
    ),
    Template(
        (
            "{host} belongs to the {team} team; {name} is their on-call this month.",
            "{stamp} ERROR {service} [{hexid}] connection refused by {host}:{port}",
        ),
        (
            "Who is on call for the host that refused connections in my logs?",
            "Which team owns the host that {service} could not connect to?",
        ),
    ),
    Template(
        ("My {relation} {name} moved abroad last year.", "{name} sent a postcard from {place}, they love it there."),
        ("Where does my {relation} live?", "Where was my {relation}'s postcard from?"),
    ),
)

PURCHASES = (
    (
        "Treated myself to a new {thing} today.",
        "Finally got the {thing} I wanted.",
        "Ordered a {thing} online, arrives Friday.",
    ),
    ("Which things have I bought since we started talking?", "What have I purchased over these weeks?"),
)

# Preferences: a statement, and a question that needs it without quoting it.
PREFERENCES = (
    Template(
        ("I'm vegetarian, and {dish} is my comfort food.", "No meat for me, ever — but give me {dish} any day."),
        ("Can you suggest something for dinner tonight?", "Any recipe ideas for the weekend?"),
    ),
    Template(
        (
            "On flights I always want an aisle seat, I get up a lot.",
            "Window seats make me feel trapped, aisle every time.",
        ),
        (
            "I'm booking a flight to {place}; any advice on the booking?",
            "Which seat should I pick on the plane next week?",
        ),
    ),
    Template(
        ("I work best with quiet {instrument} music in the background, no lyrics.",),
        ("Recommend something to listen to while I focus.", "What should I play during a deep-work session?"),
    ),
    Template(
        ("I prefer short non-fiction about {field}; novels put me to sleep.",),
        ("What should I read on my holiday?", "Can you recommend a book for the train?"),
    ),
    Template(
        ("Mornings are the only time I can exercise, evenings I'm wiped out.",),
        ("When should I schedule my training sessions?", "What time of day suits my workouts?"),
    ),
    Template(
        ("Please keep answers short and in bullet points, I read them on my phone.",),
        ("How should you format summaries for me?", "What style of answer works best for me?"),
    ),
    Template(
        ("I only drink decaf after noon, otherwise I don't sleep.",),
        ("Can I have an espresso at the 4pm meeting?", "What should I drink at the afternoon workshop?"),
    ),
    Template(
        ("I'd take a quiet cabin in the mountains over a beach resort any day.",),
        ("Where should I go for a week off?", "Suggest a holiday destination for me."),
    ),
    Template(
        ("My {relation} {name} is crazy about {hobby}.",),
        ("What should I get {name} for their birthday?", "Gift idea for my {relation}?"),
    ),
    Template(
        ("In code reviews I care most about tests; style nits can wait.",),
        ("What should I focus on when reviewing the {project} changes?", "How do I like code reviews to be done?"),
    ),
)
