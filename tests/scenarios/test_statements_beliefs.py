"""Issue 12 as user stories: beliefs that do not hinge on phrasing (both backends)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from langchain_core.messages import AIMessage

from langmem_es.core import MemoryConfig
from langmem_es.integration.scripted import ScriptedChatModel

WHY = "Answers about travel and weather depend on it."
SHARED_ES_BACKEND = True  # every test writes and reads as its own tenant's alice (see conftest.py)


def active(core, who, query):
    return [m.content for m in core.recall(who, query, kinds=["semantic"]).memories]


def test_tense_varied_denial_from_two_sources_applies(core, alice):
    fact = core.remember(alice, "I live in Bristol.", subject_key="user.home_city", reason=WHY, sources=["msg:1"])
    first = core.remember(alice, "I never lived in Bristol.", reason=WHY, sources=["msg:2"])
    assert first.action == "pending_denial" and first.memory.supersedes == [fact.id]
    second = core.remember(alice, "I have never lived in Bristol.", reason=WHY, sources=["crm:alice"])
    assert second.superseded == [fact.id]
    assert core.get(alice, fact.id).status == "superseded"


def test_weak_mentions_never_unseat_a_frozen_fact(core, alice, clock):
    fact = core.remember(alice, "I live in Bristol.", subject_key="user.home_city", reason=WHY, confidence=0.9)
    clock.advance(days=31)
    core.decay(alice)
    assert core.get(alice, fact.id).frozen
    w = core.remember(alice, "I moved to Leeds.", reason=WHY, confidence=0.3, sources=["gossip:0"])
    assert w.action == "conflict" and w.conflict_id
    for i in range(1, 10):
        core.remember(alice, "I moved to Leeds.", reason=WHY, confidence=0.3, sources=[f"gossip:{i}"])
    assert core.get(alice, fact.id).status == "active"


def test_key_variants_map_to_one_fact(core, alice):
    a = core.remember(alice, "I live in Bristol.", subject_key="user.home_city", reason=WHY)
    b = core.remember(alice, "I moved to Leeds.", subject_key="user.location.city", reason=WHY)
    assert b.memory.subject_key == "user.home_city" and b.superseded == [a.id]
    c = core.remember(alice, "I now live in York.", reason=WHY)
    assert c.memory.subject_key == "user.home_city" and c.superseded == [b.id]


def test_a_new_value_under_another_key_for_the_same_attribute_replaces_it(core, alice):
    """A model picks a different key each time; the fact it updates is still found."""
    a = core.remember(alice, "I live in Bristol.", subject_key="user.home_city", reason=WHY)
    b = core.remember(alice, "I moved to Leeds.", subject_key="user.location", reason=WHY)
    assert b.memory.subject_key == "user.home_city" and b.superseded == [a.id]
    c = core.remember(alice, "I work at Initech.", subject_key="user.employer", reason=WHY)
    d = core.remember(alice, "I now work at Globex.", subject_key="user.job.company", reason=WHY)
    assert d.memory.subject_key == "user.employer" and d.superseded == [c.id]


@pytest.mark.parametrize(
    ("key", "first", "second"),
    [
        ("user.health", "Alice is allergic to peanuts.", "Alice takes 20mg of sertraline daily."),
        ("user.pets", "Alice has a dog named Rex.", "Alice also has a cat named Luna."),
    ],
)
def test_a_key_naming_a_kind_of_facts_holds_several(core, alice, key, first, second):
    """A model files two facts under one broad key (``user.health``): the second is another fact, not
    a new value of the first, and both are recalled."""
    a = core.remember(alice, first, subject_key=key, reason=WHY)
    b = core.remember(alice, second, subject_key=key, reason=WHY)
    assert b.superseded == [] and core.get(alice, a.id).status == "active", (b.action, b.memory.subject_key)
    again = core.remember(
        alice, first.replace("peanuts", "shellfish").replace("Rex", "Max"), subject_key=key, reason=WHY
    )
    assert b.id not in again.superseded and core.get(alice, b.id).status == "active"  # never the other kind


def test_keys_naming_other_things_stay_apart(core, alice):
    """Keys that differ in an identifier (``device.3`` and ``device.4``) are two subjects."""
    three = core.remember(alice, "My device 3 is in room 1.", subject_key="device.3", reason=WHY)
    four = core.remember(alice, "My device 4 is in room 2.", subject_key="device.4", reason=WHY)
    assert four.memory.subject_key == "device.4" and four.superseded == []
    moved = core.remember(alice, "My device 4 is in room 5.", subject_key="device.4", reason=WHY)
    assert moved.superseded == [four.id] and core.get(alice, three.id).status == "active"


def test_lookalikes_about_others_do_not_supersede(core, alice):
    mine = core.remember(alice, "I live in Bristol.", subject_key="user.home_city", reason=WHY)
    core.remember(alice, "My sister lives in York.", reason=WHY)
    core.remember(alice, "My sister lives in York.", subject_key="user.home_city", reason=WHY)
    out = core.remember(alice, "The outbound flight leaves on 3 May.", subject_key="trip.flight", reason=WHY)
    back = core.remember(alice, "The return flight leaves on 10 May.", subject_key="trip.flight", reason=WHY)
    assert core.get(alice, mine.id).status == "active"
    assert core.get(alice, out.id).status == "active" and back.superseded == []


def test_true_updates_without_the_key_words(core, alice):
    boss = core.remember(alice, "My manager is Dana.", subject_key="user.manager", reason=WHY)
    w = core.remember(alice, "Priya took over as my manager.", reason=WHY)
    assert w.superseded == [boss.id]
    rent = core.remember(alice, "My rent is £1,200 a month.", subject_key="user.rent", reason=WHY)
    w = core.remember(alice, "My rent went up to £1,350.", reason=WHY)
    assert w.superseded == [rent.id]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user lives in Edinburgh.", "The user moved to Glasgow."),  # the tools ask for the third person
        ("I live in Paris.", "I moved to Berlin last month."),
        ("The user's manager is Dana.", "Priya is the user's new manager."),
        ("My favourite colour is blue.", "Actually my favorite color is green."),
        ("The user works at Initech.", "The user joined Globex."),
        ("The user is vegetarian.", "The user is now vegan."),
        ("The user drives a Honda.", "The user sold the Honda and drives a Tesla now."),
        ("The user drinks coffee every morning.", "The user quit coffee and only drinks tea now."),
        ("The user uses VS Code.", "The user switched from VS Code to Neovim."),
        ("My phone number is 555-1234.", "Update: my phone is now 555-9876."),
        ("My email is bob@old.com.", "My new email address is bob@new.io."),
        ("The user lives in Bristol.", "The user's sister lives in York and the user moved to Leeds."),
        ("The user prefers window seats.", "The user prefers aisle seats now."),
        ("The user has a dog named Rex.", "The user no longer has a dog."),
        ("The user takes the 8:15 train.", "The user now takes the 7:40 train."),
        ("The user is engaged to Sam.", "The user married Sam in June."),
        ("The user's landlord is Mr. Grant.", "The user has a new landlord, Ms. Ortiz."),
        ("The user drinks two coffees a day.", "The user cut down to one coffee a day."),
        ("The user's preferred language is Python.", "The user now prefers Go over Python."),
        ("I write my notes in Notion.", "I write my notes in Obsidian instead of Notion."),
        ("My internet provider is BT.", "I switched my internet provider to Sky."),
        ("I live in Bristol.", "My home is in Leeds now."),
        ("My name is Elizabeth.", "Call me Liz."),
        ("We have standup at 9:30.", "We moved standup to 10am."),
        ("I'm a junior developer.", "I got promoted to senior developer."),
        ("I use an iPhone 12.", "I upgraded to an iPhone 15."),
        ("I drink oat milk.", "I switched to almond milk."),
        ("I work from home on Fridays.", "I now work from home on Mondays."),
        ("I eat fish.", "I'm off fish now."),
        ("My rent is £900.", "Rent went up to £950 this year."),
        ("The standup is at 9:30.", "Standup is now at 10am."),
        ("The user runs 10 km a week.", "The user is up to 20 km a week now."),
        ("I eat meat every day.", "I cut back to meat once a week."),
        ("The user prefers to be contacted by phone.", "The user wants to be contacted by email from now on."),
        ("Please contact me by email.", "Actually, text me instead."),
        ("The user is married to Tom.", "The user and Tom separated last month."),
        ("My family lives in Ohio.", "We just moved to Texas."),
        ("The user works the night shift.", "The user moved to the day shift."),
        ("My timezone is PST.", "I'm on Eastern time now."),
        ("The user's budget is $300.", "The user can spend up to $500 now."),
        ("I have a girlfriend, Mia.", "Mia and I broke up."),
        ("The user is in a relationship with Chris.", "The user is single again."),
        ("I'm learning French.", "I gave up on French and started Italian."),
        ("My doctor is Dr. Patel.", "I changed doctors, I see Dr. Kim now."),
        ("The user is on metformin.", "The user's doctor took them off metformin."),
        ("I have a dog named Max.", "Max passed away last month."),
        ("My favourite band is Muse.", "These days I'm more into Radiohead than Muse."),
        ("I go to bed at 11pm.", "I've been going to bed at 10 lately."),
        ("The user is a student.", "The user graduated in June and started working."),
        ("I'm a manager at Acme.", "I stepped down from management."),
        ("I use Gmail.", "I moved my email to Proton."),
        ("I work remotely.", "I'm back in the office full time now."),
        ("I commute by car.", "I cycle to work now."),
        ("I rent my flat.", "We bought a house last month."),
        ("I'm 5 months pregnant.", "The baby arrived last week."),
        ("My mother lives with us.", "My mother moved into a care home."),
        ("I don't drink alcohol.", "I've started drinking wine occasionally."),
        ("I smoke a pack a day.", "I cut down to five cigarettes a day."),
        ("I have a son.", "I have two kids now."),
        ("My preferred language is Python.", "I prefer Rust these days."),
        ("I'm saving for a car.", "I bought the car last week."),
        ("I'm looking for a job.", "I found a job at Stripe."),
        ("I'm a vegetarian.", "I started eating chicken again."),
        ("I drink decaf only.", "I've gone back to regular coffee."),
        ("I sleep about six hours a night.", "I've been sleeping eight hours lately."),
        ("The project deadline is March 1.", "The deadline got pushed to April 15."),
        ("My daughter goes to Oakfield Primary.", "My daughter changed schools, she's at Hillview now."),
        ("My pronouns are she/her.", "I use they/them now."),
        ("The user works from home.", "The user is back in the office now."),
        ("The user uses Outlook for email.", "The user switched their email to Gmail."),
        ("The user rents an apartment in Leeds.", "The user bought a house in York."),
        ("The user is training for a 10k.", "The user ran the 10k on Sunday."),
        ("The user's wife is pregnant.", "The user's wife gave birth to a boy last week."),
        ("The user's address is 12 Oak Street.", "The user moved to 4 Elm Road."),
        ("The user's dog is called Rex.", "The user renamed the dog Max."),
        ("The user is single.", "The user got engaged to Priya."),
        ("The user weighs 90 kg.", "The user has lost weight and is 82 kg now."),
        ("The office Wi-Fi network is called ACME-Guest.", "The office Wi-Fi network is called ACME-Visitors."),
        ("The team standup is at 9:30.", "Standup moved to 10:00."),
        ("The staging database runs on port 5432.", "The staging database moved to port 6432."),
        ("The cluster has 3 nodes.", "We scaled the cluster to 5 nodes."),
        ("The CI runs on Jenkins.", "We replaced Jenkins with GitHub Actions for CI."),
        ("Alice owns the billing service.", "Bob took over the billing service from Alice."),
        ("The project deadline is June 1.", "The deadline was pushed back to June 15."),
        ("The user prefers concise answers.", "The user now wants detailed explanations."),
        ("I'm in the Pacific time zone.", "I'm on Eastern time now."),
        ("My budget for the laptop is $800.", "I can spend up to $1,200 on the laptop now."),
        ("My daughter is in kindergarten.", "My daughter started first grade this fall."),
        ("The user's salary is 50k.", "The user got a raise to 60k."),
        ("The user uses Spotify.", "The user moved to Apple Music."),
        ("I bank with Barclays.", "I moved my account to Monzo."),
        ("My manager is Sarah.", "My new manager is Tom."),
        ("I use an Android phone.", "I switched my phone to an iPhone."),
        ("The user commutes by train.", "The user now drives to work."),
        ("The user relocated from Austin to Denver.", "The user moved to Boulder last month."),
        ("Maria maintains the mobile app.", "Luis took over the mobile app from Maria."),
        ("I'm on Central European Time.", "I'm on British time now."),
        ("The user likes short replies.", "The user now prefers step-by-step explanations."),
        ("I take 20mg of sertraline.", "I now take 40mg of sertraline in the morning."),
        ("The user works 4 days a week.", "The user went back to full time."),
        ("The user's kid is in year 2.", "The user's kid moved up to year 3."),
        ("The meeting is on Monday.", "Sorry, I meant Tuesday, not Monday."),
        ("The primary database is MySQL 5.7.", "We migrated the primary database to Postgres 16."),
        ("My home address is 12 Elm Road, Oxford.", "Our new address is 4 Mill Lane, Abingdon."),
        ("My phone number is 07700 900123.", "My new number is 07700 900456."),
        ("The user runs 10 km a week.", "The user has stepped up to 25 km a week."),
        ("The user's flight to Lisbon is on 14 June.", "The Lisbon flight was rebooked for 16 June."),
        ("My cat is called Luna.", "We renamed our cat Mochi."),
        ("The retro is every two weeks.", "The retro is monthly now."),
        ("We release every Thursday.", "Releases now go out on Tuesdays."),
        ("The user goes by Bob.", "The user asked to be called Robert from now on."),
        ("I work at Meta.", "I was laid off from Meta last week."),
        ("Dana is the tech lead.", "Dana left the company last month."),
        ("The user is going to Japan in April.", "The user's trip to Japan got cancelled."),
        ("The user's favourite team is Arsenal.", "The user now supports Chelsea."),
        ("I go into the office on Mondays.", "I'm in the office on Tuesdays and Thursdays now."),
        ("I live in Bristol.", "btw i moved to leeds last month"),
        ("I use Gmail.", "switched to protonmail fyi"),
        ("My phone number is 07700 900123.", "new number: 07700 900999"),
        ("Maria is the product owner for search.", "Tom took over as product owner for search."),
        ("Checkout is owned by the web team.", "The payments team owns checkout now."),
        ("The user likes emojis in replies.", "The user asked me to stop using emojis."),
        ("The user's bedtime is 11pm.", "The user goes to bed at 10 these days."),
        (
            "The production cluster runs Elasticsearch 8.15.",
            "The production cluster was upgraded to Elasticsearch 8.19.",
        ),
        ("I prefer dark mode in my editor.", "I prefer light mode in my editor."),
        ("I prefer metric units.", "I prefer imperial units."),
    ],
)
def test_keyless_updates_replace_keyless_facts(core, alice, old, new):
    """As a user whose assistant files facts without keys, I want a fact that changes to
    replace the one it changes, with the history kept, as keyed facts do."""
    a = core.remember(alice, old, reason=WHY)
    b = core.remember(alice, new, reason=WHY)
    assert b.action == "superseded" and b.superseded == [a.id], (b.action, b.note)
    assert core.get(alice, a.id).status == "superseded" and core.get(alice, a.id).superseded_by == b.id
    assert active(core, alice, new) == [new]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The user likes jazz.", "The user likes rock."),
        ("The user has a cat named Tom.", "The user has a dog named Rex."),
        ("The user met Anna at the conference.", "The user met Tom at the gym."),
        ("I ate sushi yesterday.", "I ate pizza last night."),
        ("The user lives in Paris.", "The user's sister lives in York."),
        ("The user speaks French.", "The user speaks Spanish."),
        ("The user bought a standing desk.", "The user bought a new monitor."),
        ("The user works in insurance.", "The user sells insurance for a living."),
        ("I live in Berlin.", "I met Tom when I lived in Paris."),
        ("The user works at Acme.", "The user lives in Bristol and works at Acme."),
        ("The user lives in Paris.", "The user moved to a new team."),
        ("The user takes the 8:15 train.", "The user now also takes the bus."),
        ("The user drinks two coffees a day.", "The user cut down to two beers a week."),
        ("The user has two kids.", "The user has two cats."),
        ("The user likes tea.", "The user prefers coffee over juice."),
        ("Call me Liz.", "Call me after 5pm."),
        ("The user visited Kyoto in 2018.", "The user visited Kyoto in 2022."),
        ("The user ran a marathon in 2019.", "The user ran a half marathon in 2021."),
        ("My name is Elizabeth.", "My dog's name is Rex."),  # a thing's attribute is the thing's
        ("My dog's name is Rex.", "My cat's name is Tom."),
        ("I teach the year 3 class.", "I now also teach the year 5 class."),
        ("I live in Bristol.", "Bristol is where my sister lives."),
        ("I love coffee.", "I'm down to one coffee a day."),
        ("Please contact me by email.", "My sister texted me yesterday."),
        ("The user's budget is $300.", "The user spent $50 on lunch."),
        ("The user works the night shift.", "The user's sister works the day shift."),
        ("I'm learning French.", "I'm also learning Italian now."),
        ("My sister lives in York.", "My sister started a new job."),
        ("I have a dog named Max.", "Max loves the new park."),
        ("I drive a Honda.", "My Honda needs new tyres."),
        ("I'm a doctor.", "I graduated from Oxford in 2010."),
        ("My favourite language is Python.", "I'm learning Rust now."),
        ("I rent my flat.", "My landlord raised the rent."),
        ("I'm pregnant.", "My sister's baby was born yesterday."),
        ("I work remotely.", "I got a new office chair."),
        ("I have a son.", "I have a daughter now."),
        ("I live with my girlfriend.", "I live in Leeds."),
        ("I'm a vegetarian.", "I eat a lot of beans."),
        ("I use a Mac for work.", "I bought a new mouse for my Mac."),
        ("I'm looking for a job.", "I had an interview at Stripe today."),
        ("The user works from home.", "The user bought a new desk for their home office."),
        ("The user is vegan.", "The user loves tofu."),
        ("I use Gmail.", "I now read my email in the morning only."),
        ("The user's dog is called Rex.", "The user's dog had surgery."),
        ("The user works at Google as a PM.", "The user's team at Google is moving floors."),
        ("I commute by car.", "My car needs new tyres now."),
        ("The user weighs 90 kg.", "The user now lifts 100 kg at the gym."),
        ("I'm vegetarian.", "I started eating more tofu."),
        ("The user has two dogs.", "The user now walks the dogs twice a day."),
        ("My budget for the laptop is $800.", "My budget for the monitor is $300."),
        ("The cluster has 3 nodes.", "The cluster runs Elasticsearch 8.19."),
        ("The server has 64 GB of RAM.", "The server runs Ubuntu 24.04."),
        ("The meeting with Dana is on Tuesday.", "The meeting with Omar got moved to Thursday."),
        ("My flight to Rome leaves at 9:00.", "My flight to Oslo was moved to 11:00."),
        ("The staging database runs on port 5432.", "The production database runs on port 5433."),
        ("Alice owns the billing service.", "Bob took over the on-call rota from Alice."),
        ("The user prefers concise answers.", "The user now wants answers in French."),
        ("The team standup is at 9:30.", "The standup notes are due at 11:00."),
        ("The user plays guitar in a band.", "The user bought a new guitar."),
        ("The user's salary is 50k.", "The user's bonus was 5k this year."),
        ("The user works 4 days a week.", "The user works late on Thursdays."),
        ("I bank with Barclays.", "I opened a savings account with Monzo too."),
        ("I take 20mg of sertraline.", "I now take my sertraline in the morning."),
        ("My manager is Sarah.", "My manager moved to a new office."),
        ("I use a Mac for work.", "I switched my Mac to dark mode."),
        ("The meeting with the design team is at 10am.", "The meeting with the sales team moved to 11am."),
        ("The user's flight to Lisbon is on 14 June.", "The user's flight to Porto is on 20 June."),
        ("My account number is 12345678.", "My new number is 07700 900456."),
        ("I live in Bristol.", "I'm thinking about moving to Leeds next year."),
        ("My cat is called Luna.", "My sister renamed her cat Mochi."),
        ("I swim on Mondays.", "I also swim on Fridays."),
        ("We release every Thursday.", "This Thursday's release was delayed."),
        ("Dana works at Google.", "Dana left early for lunch."),
        ("The user is going to Japan in April.", "My colleague's trip to Japan got cancelled."),
        ("I work at Meta.", "I was laid off from my previous job in 2019."),
        ("Maria is the product owner for search.", "Maria is also the product owner for billing."),
        ("I use Gmail.", "might try protonmail at some point"),
        ("Alice owns a house.", "Bob owns a house."),
        ("The production cluster runs Elasticsearch 8.15.", "The staging cluster runs Elasticsearch 8.19."),
        ("I prefer dark mode in my editor.", "I prefer dark mode in my terminal too."),
        ("I like tea.", "I like coffee."),
    ],
)
def test_keyless_facts_that_both_hold_stay(core, alice, first, second):
    """As a user, I want two things that are both true kept: neither replaces the other,
    and the second is not taken for a repeat of the first."""
    a = core.remember(alice, first, reason=WHY)
    b = core.remember(alice, second, reason=WHY)
    assert b.action == "created" and b.id != a.id and b.superseded == [], (b.action, b.note)
    assert core.get(alice, a.id).status == "active"


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("The user has two kids.", "The user has 2 children."),
        ("The user lives in Bristol.", "Bristol is where the user lives."),
        ("The user lives in Bristol.", "The user's home is in Bristol."),
        ("The user works at Acme.", "Acme is where the user works."),
        ("I'm 34.", "I am thirty-four years old."),
        ("I work at Google.", "I'm still at Google."),
        ("My daughter is called Emma.", "Emma is my daughter."),
    ],
)
def test_the_same_fact_in_other_words_is_a_repeat(core, alice, first, again):
    """As a user, I want a fact I repeat in other words kept once, not twice."""
    a = core.remember(alice, first, reason=WHY)
    b = core.remember(alice, again, reason=WHY)
    assert b.action == "reinforced", (b.action, b.note)
    assert core.get(alice, a.id).status == "active"
    assert len(active(core, alice, first)) == 1


#: A user's other facts, several of them worded closer to "text me" than the contact fact is.
CROWD = [
    "I text my sister every day.",
    "My sister's number is 555-0142.",
    "I prefer texting over calls with friends.",
    "I send my mum a message every Sunday.",
    "My phone is a Pixel 8.",
    "I use WhatsApp with my family.",
    "My best friend is Sam.",
    "I live in Leeds.",
    "I work at Acme as a designer.",
    "My manager is Priya.",
    "I read the news on my phone every morning.",
    "I'm learning Spanish.",
    "My brother lives in York.",
    "I drink two coffees a day.",
    "My partner's name is Alex.",
    "I write short stories in my spare time.",
    "My favourite app is Notion.",
    "I usually reply to texts in the evening.",
    "I keep my notes in a text file.",
    "My team chats on Slack.",
    "I call my grandmother on Saturdays.",
    "I hate long voice messages.",
    "I type fast on my phone.",
    "I'd rather walk than drive.",
    "Instead of TV I read books.",
    "I switched to a new bank last year.",
    "My dentist is Dr. Lee.",
    "I go climbing on Thursdays.",
    "I have a cat named Miso.",
]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Please contact me by email.", "Actually, text me instead."),
        ("I prefer to be contacted by phone.", "I'd rather you email me from now on."),
    ],
)
def test_an_update_finds_the_fact_it_changes_among_many(core, alice, old, new):
    """As a user with many facts, I want a change said in other words to replace the fact it
    changes even when other facts share more of its words."""
    held = core.remember(alice, old, reason=WHY)
    for fact in CROWD:
        core.remember(alice, fact, reason=WHY)
    w = core.remember(alice, new, reason=WHY)
    assert w.action == "superseded" and w.superseded == [held.id], (w.action, w.note)
    assert core.get(alice, held.id).status == "superseded"
    assert all(m.status == "active" for m in core.recall(alice, "anything", kinds=["semantic"], k=50).memories)


def test_a_frozen_keyless_fact_yields_only_to_an_explicit_update(core, alice, clock):
    fact = core.remember(alice, "The user lives in Bristol.", reason=WHY, confidence=0.9)
    clock.advance(days=31)
    core.decay(alice)
    assert core.get(alice, fact.id).frozen
    w = core.remember(alice, "The user moved to Leeds.", reason=WHY)
    assert w.action == "conflict" and core.get(alice, fact.id).status == "active"
    explicit = core.remember(alice, "The user lives in Leeds now.", reason=WHY, replaces=[fact.id])
    assert fact.id in explicit.superseded and core.get(alice, fact.id).status == "superseded"


def test_my_name_and_the_user_are_one_person(core, alice):
    """As Alice, "Alice lives in Bristol" and "The user moved to Leeds" in my memories are
    about me; a fact about someone else named beside me is not."""
    mine = core.remember(alice, "Alice lives in Bristol.", reason=WHY)
    sister = core.remember(alice, "Alice's sister lives in York.", reason=WHY)
    bob = core.remember(alice, "Bob lives in Bath.", reason=WHY)
    moved = core.remember(alice, "The user moved to Leeds.", reason=WHY)
    assert moved.superseded == [mine.id]
    assert core.get(alice, sister.id).status == "active" and core.get(alice, bob.id).status == "active"


def test_keyless_updates_stay_in_their_scope(core, alice):
    """A private statement never replaces the workspace's shared fact (nor the reverse)."""
    shared = core.remember(alice, "The office is in Leeds.", reason=WHY, scope="shared")
    mine = core.remember(alice, "The office moved to York.", reason=WHY, scope="private")
    assert mine.superseded == [] and core.get(alice, shared.id).status == "active"


def test_paraphrase_dedupe(core, alice):
    a = core.remember(alice, "My favourite colour is blue.", reason=WHY, sources=["a"])
    b = core.remember(alice, "My favorite color is blue.", reason=WHY, sources=["b"])
    assert b.action == "reinforced" and b.id == a.id and b.memory.confidence > a.memory.confidence


def test_confidence_by_origin(core, alice):
    u = core.remember(alice, "I drive a Volvo.", reason=WHY)
    t = core.remember(alice, "I have two cats.", reason=WHY, origin="tool")
    e = core.remember(alice, "I speak German.", reason=WHY, origin="extracted")
    assert (u.memory.confidence, t.memory.confidence, e.memory.confidence) == (0.8, 0.7, 0.6)


def test_decay_counts_from_event_time(core, alice, clock):
    old = core.remember(
        alice, "We had lunch at the harbour.", kind="episodic", event_time=clock.now - timedelta(days=400)
    )
    new = core.remember(alice, "We had dinner in town.", kind="episodic")
    report = core.decay(alice)
    assert old.id in report.soft_deleted_ids["episodic"] and new.id not in report.soft_deleted_ids["episodic"]


@pytest.mark.parametrize("answer", ['{"event": "UPDATE", "id": "%s"}', "I am not sure, maybe?"])
def test_llm_reconciliation_and_its_fallback(request, clock, alice, answer):
    from .conftest import make_core

    holder: dict[str, str] = {}
    asked: list[int] = []

    def policy(messages):  # type: ignore[no-untyped-def]
        asked.append(1)
        return AIMessage(answer.replace("%s", holder.get("id", "?")))

    model = ScriptedChatModel(policy=policy)
    core, teardown = make_core("sqlite", request, clock, MemoryConfig(reconcile_model=model))
    try:
        fact = core.remember(alice, "I live in Bristol.", subject_key="user.home_city", reason=WHY)
        holder["id"] = fact.id
        w = core.remember(alice, "I moved to Leeds.", reason=WHY)
        assert core.get(alice, w.id).content == "I moved to Leeds." and len(asked) >= 1
        if answer.startswith("{"):
            assert w.superseded == [fact.id]  # the model's UPDATE
        else:  # nonsense: the rules take no key by meaning; both stay, and the write says it was unsure
            assert w.superseded == [] and w.unsure == [fact.id] and core.get(alice, fact.id).status == "active"
    finally:
        teardown()
