"""Templates of the long-conversation generator's second version: what runs through a
conversation rather than sitting in one message.

- :data:`INSTRUCTIONS`: a standing instruction to the assistant, and a later request it
  governs without naming it ("always give me distances in kilometres" → "how far is …?").
- :data:`CONTRADICTIONS`: a claim, and a later message that contradicts it without saying
  so; the question asks which is true, and both are evidence.
- :data:`SEQUENCES`: the steps of one undertaking told over several sessions, in order;
  the question asks for the order, and every step is evidence.
- :data:`TOPICS`: several things said about one subject across sessions; the question asks
  for a summary, and every one is evidence.

Every template is written for this generator (no third-party text); slots are those of
:mod:`.longconv_facts`. Statements and questions are phrased independently, so the words
they share are few — a request rarely repeats its instruction, a summary question names
the subject in its own words.
"""

from __future__ import annotations

from langmem_es_eval.longconv_facts import Template

__all__ = ["CONTRADICTIONS", "FAMILIES", "INSTRUCTIONS", "SEQUENCES", "TOPICS"]

#: Template families: every template, or one of two halves (the even and the odd ones) of
#: the categories whose question is phrased apart from its evidence (4, 8-11) — to train on
#: one half and measure on the other.
FAMILIES = ("all", "a", "b")


INSTRUCTIONS = (
    Template(
        (
            "When you write {lang} for me, always add type hints and a docstring to every function.",
            "Standing rule for any {lang} you give me: typed signatures and docstrings, no exceptions.",
        ),
        (
            "Could you write a helper that reads the {noun} export of {project}?",
            "I need a small function that retries calls to {service}; can you write it?",
        ),
    ),
    Template(
        (
            "Always give me distances in kilometres, never miles.",
            "Metric only when you talk distances with me, please.",
        ),
        ("How far is {place} from the coast?", "Is {place} within cycling range of the station?"),
    ),
    Template(
        (
            "Whenever you draft an email for me, keep it formal and sign it {name}.",
            "For emails you write on my behalf: formal tone, and the signature is {name}.",
        ),
        (
            "Draft a message to {person} about the late invoice.",
            "Can you write to {org} to ask about renewing the contract?",
        ),
    ),
    Template(
        (
            "Show me every time on the 24-hour clock, I mix up am and pm.",
            "Please use the 24-hour clock with me, always.",
        ),
        ("When should I leave for the {weekday} train to {place}?", "What time does the {team} standup start for me?"),
    ),
    Template(
        (
            "Never put {db} in a design you propose to me; our ops team won't run it.",
            "Rule for architecture suggestions: no {db}, ops refuses to support it.",
        ),
        ("How would you design the storage layer for {project}?", "Sketch a backend for the new {noun} tracker."),
    ),
    Template(
        (
            "When you explain anything about {field}, skip the formulas and give me an everyday analogy.",
            "Explain {field} to me with comparisons from daily life, not equations.",
        ),
        ("What is the core idea behind {field}, in a nutshell?", "Help me understand how experts in {field} reason."),
    ),
    Template(
        ("If you give me a recipe, list the amounts in grams.", "Recipes for me: weights in grams, no cups."),
        ("How do I make {dish} for four people?", "Give me a quick weeknight version of {dish}."),
    ),
    Template(
        (
            "Start every summary you write for me with a one-line verdict.",
            "Summaries for me should open with the bottom line in a single sentence.",
        ),
        (
            "Can you go over the pros and cons of moving {project} to the cloud?",
            "Sum up the {team} retro notes I pasted last time.",
        ),
    ),
)

# says[0] is the claim, says[1] the message that contradicts it.
CONTRADICTIONS = (
    Template(
        ("I've never set foot in {place}.", "The market in {place} was the highlight of my trip in {month}."),
        ("Have I ever been to {place}?", "Did I visit {place} at some point?"),
    ),
    Template(
        (
            "{project} doesn't touch {db} at all.",
            "The {db} database behind {project} ran out of disk again last night.",
        ),
        ("Does {project} depend on {db}?", "Is {db} part of the {project} stack?"),
    ),
    Template(
        ("I don't have any pets, never have.", "My {species} knocked a glass off the table this morning."),
        ("Do I have a pet?", "Have I got any animals at home?"),
    ),
    Template(
        ("I've never written a single line of {lang}.", "Spent the whole weekend debugging my {lang} scraper."),
        ("How much {lang} have I done?", "Am I familiar with {lang}?"),
    ),
    Template(
        ("{name} is not on the {team} team.", "{name} presented the {team} roadmap at the all-hands today."),
        ("Is {name} part of the {team} team?", "Does {name} work with the {team} people?"),
    ),
    Template(
        (
            "I don't play any instrument, no musical bone in me.",
            "Good {instrument} practice tonight, I finally nailed that scale.",
        ),
        ("Do I play an instrument?", "Am I musical at all?"),
    ),
    Template(
        ("I have never been a customer of {org}.", "{org} billed me twice again this month, so annoying."),
        ("Am I a customer of {org}?", "Have I dealt with {org} before?"),
    ),
)

# says: the steps, in the order they happen (each in a later session than the one before).
SEQUENCES = (
    Template(
        (
            "Ordered {color} tiles for the bathroom redo.",
            "The plumber came and ripped out the old bathtub.",
            "Walls are tiled, now waiting for the grout to dry.",
            "Took the first shower in the new bathroom tonight!",
        ),
        (
            "What were the stages of my bathroom renovation, in order?",
            "List the steps of redoing my bathroom from start to finish.",
        ),
    ),
    Template(
        (
            "Wrote the first design doc for {project}.",
            "The prototype of {project} runs end to end now.",
            "{project} passed the security review with two minor findings.",
            "We shipped {project} to its first customers.",
        ),
        (
            "In what order did the {project} milestones happen?",
            "Walk me through how {project} progressed, first to last.",
        ),
    ),
    Template(
        (
            "Bought a second-hand {instrument} from a neighbour.",
            "First proper lesson with a teacher today, my fingers hurt.",
            "Played the {instrument} in front of friends for the first time.",
        ),
        (
            "How did my {instrument} journey unfold, step by step?",
            "In which order did things happen with my {instrument}?",
        ),
    ),
    Template(
        (
            "Sent my CV to {org} this morning.",
            "Had a first interview at {org}, it went fine.",
            "{org} invited me back for a second round.",
            "The offer from {org} arrived today!",
        ),
        ("What happened in my application to {org}, in order?", "Put the stages of my {org} application in sequence."),
    ),
    Template(
        (
            "Started looking at flats in {place}.",
            "Booked the movers for the first of the month.",
            "Got the keys to the new place in {place}.",
            "Hosted our first dinner party in the new flat.",
        ),
        ("In what order did my move to {place} happen?", "Give me the timeline of relocating to {place}."),
    ),
    Template(
        (
            "Signed up for the {place} 10k race.",
            "First long training run done, eight kilometres without stopping.",
            "Pulled a calf muscle, resting for a week.",
            "Finished the {place} 10k in under an hour!",
        ),
        (
            "How did my preparation for the {place} race go, in order?",
            "What were the steps on the way to my {place} run?",
        ),
    ),
)

# says: what is said about the subject, in any order across sessions.
TOPICS = (
    Template(
        (
            "{person} signed on as the sponsor of {project}.",
            "The {noun} export in {project} is far too slow, it's our biggest risk.",
            "We dropped the {adj} {noun2} from the scope of {project}.",
            "{org} wants a demo of {project} before they commit.",
        ),
        ("Can you summarise everything I've told you about {project}?", "Give me a recap of where {project} stands."),
    ),
    Template(
        (
            "Planted {color} tulips all along the fence.",
            "Slugs ate half of my lettuce overnight.",
            "The new compost bin is finally producing something usable.",
            "Tomatoes are ripening early this year.",
        ),
        ("Summarise how my garden has been doing.", "Recap my growing season for me."),
    ),
    Template(
        (
            "Joined a climbing gym near the office.",
            "My knee hurts after long runs, so I'm cycling instead.",
            "Did twenty push-ups in a row for the first time!",
            "Signed up for {hobby} classes on {weekday}s.",
        ),
        ("Recap my fitness progress so far.", "Summarise what I've shared about staying in shape."),
    ),
    Template(
        (
            "My {relation} {name} starts university in the autumn.",
            "{name} failed the driving test, second try next month.",
            "{name} got a part-time job at a bakery.",
        ),
        ("Summarise the news about {name}.", "What's been going on with my {relation} lately?"),
    ),
    Template(
        (
            "The boiler broke again, an engineer is coming on {weekday}.",
            "Found damp behind the wardrobe in the bedroom.",
            "The landlord agreed to repaint the hallway.",
        ),
        ("Summarise the problems with my flat.", "Recap the trouble I've had at home."),
    ),
)
