"""The sixth held-out half for class 4 (issue 45): keyless updates in new words, and the kept
cases beside them.

Written by someone who had not read the rules, before any further class 4 rule; measured,
never tuned on. Half the update families name common attributes (home, employer, job title,
manager, partner, phone number, email address, car, dentist) said in shapes the earlier halves
do not use: the value first, the passive, a fronted time phrase, a reason clause, two clauses
the first of which names the old value as over, chatty and elliptical lines, and an agent's
third-person note about the user. The other half name attributes no earlier half names (home
airport, preferred airline, password manager, notes app, piano teacher, yoga studio,
childminder, cloud storage, web host, church). The kept families leave the held fact current:
another holder, a plan, a question or a refusal, a past value, a trip or temporary stay,
a second member beside the held one, another attribute in a similar frame.
"""

from __future__ import annotations

from tests.unit.belief_stories import F, Family

HELD_OUT_SIXTH: dict[str, Family] = {
    # -- update, common attributes in new shapes ----------------------------------------------------
    "4/home-sixth": F(
        "4",
        "update",
        ["I live in {A}.", "The user is based in {A}."],
        [
            "{B} is where we ended up after the move.",
            "Since the spring, we've been living in {B}.",
            "Moved out of {A} in June; we're in {B} now.",
        ],
        [("Brighton", "Sheffield")],
    ),
    "4/employer-sixth": F(
        "4",
        "update",
        ["I work at {A}."],
        [
            "Handed in my notice at {A}; I've been at {B} since Monday.",
            "I moved to {B} because the commute to {A} was killing me.",
            "{B} signs my paycheque these days.",
            "Oh, and it's {B} I work for now, not {A}.",
        ],
        [("Vandelay", "Dunder Mifflin")],
    ),
    "4/job-title-sixth": F(
        "4",
        "update",
        ["My job title is {A}."],
        [
            "Got promoted: {B} as of this week.",
            "My title changed to {B} in the last reshuffle.",
            "The user's current role is {B}.",
            "Officially a {B} since Monday!",
        ],
        [("junior designer", "design lead")],
    ),
    "4/manager-sixth": F(
        "4",
        "update",
        ["{A} is my line manager."],
        [
            "{A} moved teams, so {B} manages me now.",
            "Since the reorg I've been under {B}.",
            "With {A} gone, {B} is in charge of me now.",
        ],
        [("Marta", "Kwame")],
    ),
    "4/partner-sixth": F(
        "4",
        "update",
        ["My boyfriend is {A}."],
        [
            "{A} and I broke up in the summer, and {B} is my boyfriend now.",
            "Meet my new fella, {B}!",
            "Since splitting from {A} I've been with {B}.",
        ],
        [("Tom", "Reuben")],
    ),
    "4/phone-sixth": F(
        "4",
        "update",
        ["My phone number is {A}."],
        [
            "Oh and it's {B} now for the phone.",
            "Number's changed, ring {B} from now on.",
            "{B} is the number to use now; the old one's gone.",
        ],
        [("07700 900321", "07700 900654")],
    ),
    "4/email-sixth": F(
        "4",
        "update",
        ["My email is {A}."],
        [
            "Emails to me should go to {B} now; {A} is closed.",
            "The user's email address has changed to {B}.",
            "Write to me at {B} from now on.",
        ],
        [("sam.k@mailbox.org", "sam@kestrel.dev")],
    ),
    "4/car-sixth": F(
        "4",
        "update",
        ["My car's a {A}."],
        [
            "Traded in the {A} for a {B} last weekend.",
            "The {A} failed its MOT, so we replaced it with a {B}.",
            "What I drive now is a {B}.",
        ],
        [("Vauxhall Corsa", "Kia Niro")],
    ),
    "4/dentist-sixth": F(
        "4",
        "update",
        ["My dentist is {A}."],
        [
            "{A} retired, so my teeth are looked after by {B} now.",
            "Since January, {B} has been my dentist.",
            "Switched dentists: {B} from now on.",
        ],
        [("Dr Lowe", "Dr Adeyemi")],
    ),
    # -- update, attributes no earlier half names ---------------------------------------------------
    "4/home-airport-sixth": F(
        "4",
        "update",
        ["My home airport is {A}."],
        [
            "Since the move, {B} is my local airport.",
            "These days I fly out of {B}; it's twenty minutes from the house.",
            "Swapped {A} for {B} as my home airport.",
        ],
        [("Gatwick", "Bristol Airport")],
    ),
    "4/airline-sixth": F(
        "4",
        "update",
        ["My go-to airline is {A}."],
        [
            "After the lost-luggage saga I've switched to {B} for all my flights.",
            "{B} gets all my bookings now.",
            "I'm a {B} loyalist these days.",
        ],
        [("easyJet", "Jet2")],
    ),
    "4/password-manager-sixth": F(
        "4",
        "update",
        ["I use {A} as my password manager."],
        [
            "Migrated all my passwords from {A} to {B} at the weekend.",
            "{B} is where my logins live now.",
            "Password manager: {B} (moved off {A}).",
        ],
        [("LastPass", "Bitwarden")],
    ),
    "4/notes-app-sixth": F(
        "4",
        "update",
        ["I keep my notes in {A}."],
        [
            "Exported everything from {A}; my notes live in {B} now.",
            "For note-taking I've moved over to {B}.",
            "My notes app is {B} nowadays.",
        ],
        [("Evernote", "Obsidian")],
    ),
    "4/piano-teacher-sixth": F(
        "4",
        "update",
        ["My piano teacher is {A}."],
        [
            "{A} moved away, so piano lessons are with {B} now.",
            "I've got a new piano teacher, {B}.",
            "These days I'm taught piano by {B}.",
        ],
        [("Mrs Okoye", "Daniel Frey")],
    ),
    "4/yoga-studio-sixth": F(
        "4",
        "update",
        ["I do yoga at {A}."],
        [
            "I've moved my yoga practice to {B}.",
            "My yoga studio has been {B} since {A} closed.",
            "Cancelled my {A} pass; I do yoga at {B} now.",
        ],
        [("Lotus Yoga", "Flow House")],
    ),
    "4/childminder-sixth": F(
        "4",
        "update",
        ["Our childminder is {A}."],
        [
            "{A} stopped childminding, so the kids go to {B} now.",
            "We've found a new childminder, {B}, and the kids love her.",
            "The children are minded by {B} these days.",
        ],
        [("Mrs Grant", "Julie Parr")],
    ),
    "4/cloud-storage-sixth": F(
        "4",
        "update",
        ["I use {A} for cloud storage."],
        [
            "Everything's on {B} now; I cancelled {A}.",
            "My cloud storage is {B} these days.",
            "Moved my photos and documents off {A} and onto {B}.",
        ],
        [("Dropbox", "Google Drive")],
    ),
    "4/web-host-sixth": F(
        "4",
        "update",
        ["My website is hosted with {A}."],
        [
            "The site's on {B} now, since {A} kept going down.",
            "I moved my website's hosting to {B}.",
            "{B} hosts my site these days.",
        ],
        [("GoDaddy", "Netlify")],
    ),
    "4/church-sixth": F(
        "4",
        "update",
        ["Our church is {A}."],
        [
            "Since we moved, we go to {B} on Sundays.",
            "{B} is our parish church now.",
            "We left {A} and joined the congregation at {B}.",
        ],
        [("St Peter's", "Holy Trinity")],
    ),
    # -- kept: the held fact stays current ----------------------------------------------------------
    # other holders, in the phone's frames
    "4/safety-sixth-phone-others": F(
        "4",
        "kept",
        ["My phone number is {A}."],
        [
            "My wife's new number is {B}.",
            "{B} is the landline at my mum's.",
            "The user's son has a new phone number: {B}.",
        ],
        [("07700 900321", "07700 900654")],
    ),
    # a plan, a question, a refusal
    "4/safety-sixth-passwords-hedge": F(
        "4",
        "kept",
        ["I use {A} as my password manager."],
        [
            "Thinking about moving my passwords to {B} once the subscription runs out.",
            "Is {B} safer than {A} for passwords?",
            "Work keeps pushing {B} on us, but I'm not switching.",
        ],
        [("LastPass", "Bitwarden")],
    ),
    # past homes
    "4/safety-sixth-home-past": F(
        "4",
        "kept",
        ["We live in {A}."],
        [
            "Before the kids, we rented in {B}.",
            "Back in uni I lived in {B}.",
            "{B} was home for most of my twenties.",
        ],
        [("Brighton", "Sheffield")],
    ),
    # trips and temporary stays
    "4/safety-sixth-home-away": F(
        "4",
        "kept",
        ["We live in {A}."],
        [
            "We're renting a cottage in {B} for half-term.",
            "Staying with my in-laws in {B} until the boiler's fixed.",
            "I'm working out of the {B} office for a fortnight.",
        ],
        [("Brighton", "Sheffield")],
    ),
    # a second studio beside the held one, and another holder
    "4/safety-sixth-yoga-also": F(
        "4",
        "kept",
        ["I do yoga at {A}."],
        [
            "I also do the odd class at {B} when I'm in town.",
            "Every so often I'll go to a class at {B} too.",
            "My sister does yoga at {B} now.",
        ],
        [("Lotus Yoga", "Flow House")],
    ),
    # other attributes in the dentist's frames
    "4/safety-sixth-dentist-frames": F(
        "4",
        "kept",
        ["My dentist is {A}."],
        [
            "My new orthodontist is {B}.",
            "The hygienist I see these days is {B}.",
            "I was referred to {B} to have my wisdom teeth out.",
        ],
        [("Dr Lowe", "Dr Adeyemi")],
    ),
    # a temporary placement, another attribute, a plan, in the employer's frames
    "4/safety-sixth-employer-frames": F(
        "4",
        "kept",
        ["I work at {A}."],
        [
            "I'm on secondment at {B} until March.",
            "{B} is our biggest client these days.",
            "I've got an interview at {B} next week.",
        ],
        [("Vandelay", "Dunder Mifflin")],
    ),
    # a refusal, another holder, a past one-off
    "4/safety-sixth-airline-refusal": F(
        "4",
        "kept",
        ["My go-to airline is {A}."],
        [
            "I'd never fly {B} again after last time.",
            "My husband swears by {B}, but I'm sticking with {A}.",
            "We flew {B} to Malaga once because it was cheaper.",
        ],
        [("easyJet", "Jet2")],
    ),
}
