"""Held-out stories for the worse class 4 mistake (issue 45): a statement about another attribute
(or another holder or thing) that replaces the held fact and so loses it.

Written by someone who had not read the rules, before any further rule; measured, never tuned
on. Every family is ``kept``: the held fact is of one attribute, and each new statement is
about a different one that shares words, frames or verbs with it, so that a reading by surface
alone might take it for the same attribute. The traps: shared verbs (work out, work on, join a
gym, move a meeting or the kids or one's mum, files that live somewhere, switch a supplier,
start a course, see a chiropractor, move one's savings), shared nouns (home airport, home page,
home games, working from home, a care home; energy and phone companies; a driving school; an
account manager, a store manager, a password manager; a business, tennis or dance partner;
account, membership, staff, tracking and policy numbers; a postal address beside an email
address; car insurance and breakdown cover; a doctoral thesis, a consultant, a vet), "with X"
for a person, a company or an investment platform, "for my ..." purposes, possessives of other
things (a laptop's new owner, a daughter's team's manager), titles (Dr, Mr) and organisations
named like people (John Lewis, Hargreaves Lansdown), new places named without a move (a trip,
an office, a course, a child's university or school, a client), and membership, customer and
patient relations.
"""

from __future__ import annotations

from tests.unit.belief_stories import F, Family

CROSS_HELD_OUT: dict[str, Family] = {
    # -- the employer --------------------------------------------------------------------------------
    # work out, join, a membership: a gym is no employer
    "x/employer-work-out": F(
        "4",
        "kept",
        ["I work at {A}.", "{A} is my employer."],
        [
            "I work out at {B} most mornings now.",
            "{B} is where I do my workouts these days.",
            "I've joined {B} to get fit before the wedding.",
            "My membership at {B} started this week.",
            "I've been going to {B} for spin classes since January.",
        ],
        [("Marlow Systems", "Third Space")],
    ),
    # work on: a project at work, or a side project, is no employer
    "x/employer-work-on": F(
        "4",
        "kept",
        ["I work at {A}."],
        [
            "I'm working on the {B} project these days.",
            "My new project at work is {B}.",
            "They've put me on the {B} rollout full-time.",
            "In the evenings I work on {B}, my side project.",
            "{B} is the app my team works on now.",
        ],
        [("Marlow Systems", "Lighthouse")],
    ),
    # with X, seeing X: a person is no employer
    "x/employer-person": F(
        "4",
        "kept",
        ["I work at {A}."],
        [
            "{B} and I have been dating since the summer.",
            "I'm going out with {B} now.",
            "I've moved in with {B}.",
            "These days I spend every weekend with {B}.",
            "My new tennis partner is {B}.",
            "I've been meeting {B} for coffee every Friday.",
        ],
        [("Halcyon Foods", "Freya")],
    ),
    # an energy, phone or broadband company, a customer, a switch, "join ... for"
    "x/employer-service-company": F(
        "4",
        "kept",
        ["I work for {A}."],
        [
            "My energy company is {B} now.",
            "We switched our gas and electricity to {B} last month.",
            "My phone company is {B} these days.",
            "{B} does our broadband and mobiles now.",
            "I'm a {B} customer now.",
            "I joined {B} for the bundle discount.",
        ],
        [("Babcock", "Utility Warehouse")],
    ),
    # a patient at a hospital is no nurse there
    "x/employer-patient": F(
        "4",
        "kept",
        ["I'm a nurse at {A}."],
        [
            "I'm a patient at {B} now.",
            "{B} is doing my knee operation next month.",
            "I've been referred to {B} for my hip.",
            "My mum is being treated at {B} these days.",
            "I go to {B} for my physio now.",
        ],
        [("St Mary's Hospital", "Spire Leeds Hospital")],
    ),
    # -- the home ------------------------------------------------------------------------------------
    # move a meeting, the kids, one's mum; move at work; files that live somewhere; live on a train
    "x/home-move-live-verbs": F(
        "4",
        "kept",
        ["I live in {A}."],
        [
            "We moved the quarterly team meeting to {B}.",
            "I moved my mum into a care home in {B}.",
            "We moved the kids to a school in {B}; it's a longer drive each morning.",
            "Work moved me to the {B} office, so my commute is longer now.",
            "All our company files live on a server in {B} now.",
            "I practically live on the train to {B} these days.",
        ],
        [("Harrogate", "Leeds")],
    ),
    # home airport, home page, home games, working from home, home insurance, a home match
    "x/home-home-nouns": F(
        "4",
        "kept",
        ["I live in {A}."],
        [
            "{B} is my home airport now that it flies direct to Malaga.",
            "My browser's home page is the {B} Post website.",
            "I've got a season ticket for {B} City's home games.",
            "I work from home for a firm in {B}.",
            "Our home insurance is with a broker in {B}.",
            "Our five-a-side team has a home match against {B} Rovers on Saturday.",
        ],
        [("Bath", "Bristol")],
    ),
    # a new place named without a move: a course, a trip, a child's university, an office,
    # a weekly commute, a client
    "x/home-place-no-move": F(
        "4",
        "kept",
        ["I'm based in {A}."],
        [
            "I'm doing a week-long course in {B} next month.",
            "We've booked a fortnight in {B} for August.",
            "My daughter has started uni in {B}.",
            "Our new office is in {B}, but I'm still fully remote.",
            "I fly up to {B} every Monday for work and back home on Thursdays.",
            "I've landed a big client in {B}.",
        ],
        [("Manchester", "Edinburgh")],
    ),
    # -- the manager ---------------------------------------------------------------------------------
    # other people's managers, an account manager, a store manager, a property manager (a title)
    "x/manager-other-managers": F(
        "4",
        "kept",
        ["My manager is {A}."],
        [
            "My daughter's football team has a new manager, {B}.",
            "{B} is my account manager at the bank now.",
            "The new store manager at our local Tesco is {B}.",
            "My wife's manager at the council is {B}.",
            "{B} manages the flats for our landlord now.",
            "{B} has taken over as manager of my brother's band.",
        ],
        [("Rachel", "Mr Gill")],
    ),
    # a password manager, and "manages"
    "x/manager-password-manager": F(
        "4",
        "kept",
        ["I report to {A}."],
        [
            "I've switched my password manager to {B}.",
            "My new password manager is {B}.",
            "{B} manages all my logins these days.",
            "I moved my passwords over to {B} at the weekend.",
        ],
        [("Rachel", "1Password")],
    ),
    # -- the partner ---------------------------------------------------------------------------------
    # a business, tennis or dance partner; going into business with; a laptop's new owner; a desk mate
    "x/partner-other-partners": F(
        "4",
        "kept",
        ["My partner is {A}."],
        [
            "My business partner is {B}.",
            "{B} is my new tennis partner.",
            "I've gone into business with {B}; we're opening a bakery.",
            "My dance partner for the competition is {B}.",
            "My laptop's new owner is {B} — I sold it on eBay.",
            "I'm sharing a desk with {B} at work now.",
        ],
        [("Alex", "Marcus")],
    ),
    # "with X" a company named like a person: insurance, a Saturday job, shopping, a card, a delivery
    "x/partner-with-company": F(
        "4",
        "kept",
        ["I'm going out with {A}."],
        [
            "I'm with {B} for my home insurance now.",
            "I've started a Saturday job at {B}.",
            "I do all my shopping at {B} these days.",
            "I've got a {B} credit card now.",
            "{B} delivered our new sofa yesterday.",
        ],
        [("Zoe", "John Lewis")],
    ),
    # -- the phone number, the email address ---------------------------------------------------------
    # account, membership, staff, tracking and policy numbers
    "x/phone-other-numbers": F(
        "4",
        "kept",
        ["My phone number is {A}."],
        [
            "My new account number is {B}.",
            "My gym membership number is {B} now.",
            "My staff ID number changed to {B}.",
            "The tracking number for my parcel is {B}.",
            "My policy number is {B} since the renewal.",
        ],
        [("07700 900246", "31926581")],
    ),
    # a postal address is no email address
    "x/email-postal-address": F(
        "4",
        "kept",
        ["My email address is {A}."],
        [
            "My address is {B} now.",
            "We've moved; the new address is {B}.",
            "Post for me should go to {B} from now on.",
            "My delivery address for online orders is {B} now.",
            "My home address has changed to {B}.",
            "The address on my driving licence is {B} now.",
        ],
        [("sam.k@fastmail.com", "14 Elm Road, Leeds")],
    ),
    # -- the car ---------------------------------------------------------------------------------------
    # car insurance, breakdown cover, a tow, another holder's lessons, joining for cover
    "x/car-car-services": F(
        "4",
        "kept",
        ["I drive a {A}."],
        [
            "My car insurance is with {B} now.",
            "I've switched my breakdown cover to {B}.",
            "{B} towed my car to the garage last night.",
            "My son is learning to drive with {B}.",
            "I've joined {B} for the roadside cover.",
        ],
        [("Honda Civic", "the AA")],
    ),
    # -- the doctor ------------------------------------------------------------------------------------
    # a doctoral thesis, seeing a chiropractor, a consultant, another holder's GP, a vet, a department head
    "x/doctor-other-doctors": F(
        "4",
        "kept",
        ["My doctor is {A}."],
        [
            "{B} is supervising my doctoral thesis.",
            "I've started seeing {B}, a chiropractor, for my back.",
            "{B} is the consultant who'll do my hip replacement.",
            "My daughter's new GP is {B}.",
            "{B} is the vet who treats our cat.",
            "{B} is the new head of my department at the university.",
        ],
        [("Dr Moore", "Dr Hughes")],
    ),
    # -- the bank --------------------------------------------------------------------------------------
    # savings, a pension, investments moved "with" a platform named like people
    "x/bank-investments": F(
        "4",
        "kept",
        ["I bank with {A}."],
        [
            "I've moved some of my savings into an ISA with {B}.",
            "My pension is with {B} these days.",
            "I invest through {B} now.",
            "{B} looks after my shares now.",
            "I switched my stocks and shares ISA to {B}.",
        ],
        [("Lloyds", "Hargreaves Lansdown")],
    ),
    # -- the university --------------------------------------------------------------------------------
    # a driving school, starting a course, lessons, an instructor
    "x/school-driving-school": F(
        "4",
        "kept",
        ["I'm a student at {A}."],
        [
            "I'm learning to drive with {B}.",
            "I've booked ten lessons with {B}.",
            "I've started an intensive driving course with {B} over the holidays.",
            "{B} gave me a new instructor this week.",
            "I've been revising for my theory test with {B}'s app.",
        ],
        [("Durham University", "Red Driving School")],
    ),
}
