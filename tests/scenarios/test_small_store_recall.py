"""A new user's few memories: each question finds the memory it is about, in other words.

A store of a few dozen memories is what every user starts with, and there a word such as "I",
"my" or "have" is as rare as any: before the text leg required a word that is not a function
word, "what pet do I have?" led with "I'm vegetarian" and "what do I drive?" too. The first
profile was written while that was fixed; the second before it was measured (10 of 25 first,
18 in the top 3, before; 19 and 24 after); the third (a family) before the ``others`` signal
(:mod:`langmem_es.rank.signals`) was. Questions share almost no word with their answers.
"""

from __future__ import annotations

import pytest

REASON = "Helps personalise answers."

FIRST = {
    "facts": [
        ("My daughter Emma is allergic to peanuts.", "what's my kid allergic to?"),
        ("I prefer answers in bullet points.", "how should you format replies to me?"),
        ("My car is a 2015 Toyota Corolla.", "what do I drive?"),
        ("I'm vegetarian.", "what should I cook for dinner for my family?"),
        ("I run a small bakery in Bristol with my husband Tom.", "what's my business?"),
        ("My dog Biscuit is a three-year-old beagle.", "what pet do I have?"),
        ("I'm training for the Bath half marathon in March.", "when is my race?"),
        ("My laptop is a ThinkPad X1 Carbon running Ubuntu.", "what computer do I use?"),
        ("I speak Spanish and a bit of Portuguese.", "what languages do I know?"),
        ("My mother lives in Porto.", "where is my mum?"),
    ],
    "events": [
        ("Hub shows E-4012 after update v2.3.1", "what error did the hub show?"),
        (
            "The oven at the bakery broke down on Saturday morning and we lost a whole batch of sourdough.",
            "what went wrong with the oven?",
        ),
        ("Emma had a reaction at school after someone shared a snack.", "what happened to Emma at school?"),
        ("I booked flights to Porto for the Easter holidays.", "any trips planned?"),
        ("Biscuit chewed through the charger cable of my laptop.", "what happened to my charger?"),
    ],
}

SECOND = {
    "facts": [
        ("I'm a backend developer at a fintech startup called Lumen.", "where am I employed?"),
        ("My partner Priya is a paediatric nurse.", "what does my girlfriend do for a living?"),
        ("We rent a two-bedroom flat in Glasgow's West End.", "what kind of place do we live in?"),
        ("I'm lactose intolerant, so no dairy in recipes please.", "can I have milk?"),
        ("I play five-a-side football every Thursday evening.", "what sport am I into?"),
        ("My son Leo starts primary school in August.", "when does my boy begin school?"),
        ("I'm learning Japanese on Duolingo, about 200 days in.", "which language am I studying?"),
        ("My bike is a Brompton folding bike.", "what do I cycle on?"),
        ("I take levothyroxine every morning for my thyroid.", "what medication am I on?"),
        ("My favourite author is Ursula K. Le Guin.", "which writer do I like best?"),
        ("Our cat Miso is fourteen and has kidney problems.", "how old is our pet?"),
        ("I drink my coffee black with no sugar.", "how do I take my coffee?"),
        ("My brother Sam lives in Melbourne.", "where is my sibling based?"),
        ("I'm saving for a deposit on a house, aiming for 30,000 pounds.", "what is my savings goal?"),
        ("I use a mechanical keyboard with brown switches.", "what typing gear do I use?"),
        ("I'm allergic to penicillin.", "which antibiotics should I avoid?"),
        ("My birthday is on 3 November.", "when should you wish me many happy returns?"),
        ("I support Celtic.", "which football club do I follow?"),
        (
            "I'd like code examples in Go rather than Python.",
            "what programming language should examples be written in?",
        ),
        ("My dentist appointment is next Tuesday at 9.", "when am I seeing the dentist?"),
    ],
    "events": [
        ("The washing machine flooded the kitchen floor last night.", "what appliance leaked?"),
        ("Priya and I watched the new Dune film at the cinema on Friday.", "what movie did we see recently?"),
        ("Leo was sent home from nursery with a fever on Monday.", "when was my son ill?"),
        ("I got a parking fine outside the office for 60 pounds.", "how much was the ticket I got?"),
        ("The deploy of the payments service failed with error PAY-502.", "what went wrong in the release?"),
    ],
}


#: A person and their family, written before the ``others`` signal was measured (18 of 25 first
#: without it, after the write fix below; 19 with it; 20 once "boy", "girl" … were known as
#: people, a word list read from this profile's misses): the questions ask about the user and
#: family facts share their words. Its "what's my job?" found nothing in the top 10 before
#: session 41: "I'm a Welsh speaker." had replaced the job (tests/scenarios/test_life_changes.py).
THIRD = {
    "facts": [
        ("I live in Cardiff, in a terraced house near Roath Park.", "where's home for me?"),
        ("My sister lives in Swansea with her two kids.", "where does my sister live?"),
        ("I work as a pharmacist at a Boots in the city centre.", "what's my job?"),
        ("My husband works as an electrician.", "what does my husband do?"),
        ("I'm allergic to shellfish.", "what food allergies do I have?"),
        ("My son is allergic to eggs.", "what is my son allergic to?"),
        ("I drive a blue Kia Niro.", "what car have I got?"),
        ("My dad drives an old Land Rover Defender.", "what does my father drive?"),
        ("I'm 38 years old.", "how old am I?"),
        ("My mum turns 70 in June.", "how old is my mother turning?"),
        ("I play the cello in a community orchestra.", "what instrument do I play?"),
        ("My daughter is learning the violin.", "what is my daughter learning?"),
        ("I'm reading Wolf Hall at the moment.", "what book am I on right now?"),
        ("My brother is a big fan of crime novels.", "what does my brother like reading?"),
        ("I go swimming three mornings a week.", "how do I keep fit?"),
        ("My husband plays rugby on Saturdays.", "what sport does my husband play?"),
        ("I'm a Welsh speaker.", "what languages do I speak?"),
        ("My best friend Ffion lives in Bangor.", "where does Ffion live?"),
        ("I take my tea with oat milk.", "how do I like my tea?"),
        ("My neighbour has a noisy Alsatian.", "what dog is next door?"),
    ],
    "events": [
        ("I got a parking ticket outside the pharmacy on Tuesday.", "did I get fined recently?"),
        ("My sister's car failed its MOT last week.", "what happened with my sister's car?"),
        ("I sprained my ankle at the pool on Friday.", "how did I get hurt?"),
        ("My son lost his school jumper again.", "what did my boy lose?"),
        ("I finished the first draft of my thesis chapter.", "what did I complete?"),
    ],
}


@pytest.mark.parametrize("profile", [FIRST, SECOND, THIRD], ids=["first", "second", "third"])
def test_a_few_memories_each_found_by_a_question_in_other_words(core, alice, profile):
    for fact, _ in profile["facts"]:
        core.remember(alice, fact, reason=REASON)
    for event, _ in profile["events"]:
        core.remember(alice, event, kind="episodic")
    ranks: dict[str, int] = {}
    for text, question in [*profile["facts"], *profile["events"]]:
        got = [m.memory.content for m in core.recall(alice, question, k=10).memories]
        ranks[question] = got.index(text) + 1 if text in got else 11
    n = len(ranks)
    first = [q for q, r in ranks.items() if r == 1]
    top3 = [q for q, r in ranks.items() if r <= 3]
    assert len(top3) >= n - 1, {q: r for q, r in ranks.items() if r > 3}
    assert len(first) >= 0.75 * n, {q: r for q, r in ranks.items() if r > 1}
    assert all(r <= 5 for r in ranks.values()), ranks
