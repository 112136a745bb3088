"""Facts of the speaker that hold one value at a time, said again with another: age, sex and job.

The ``slot`` reading of the detectors' answer rules (``--qa-rules``, :mod:`.answers`), after any user turn:
a clause of the reply that gives the speaker's age ("i'm 16", "i am 30 years old", "i'm a 42 year old
male") or sex ("because i'm a boy", "i'm a little girl") contradicts a persona sentence or earlier
statement of the speaker's that gives another ("i'm 27 years old"; "i'm a 12 year old girl"), unless one of
them gives the same. A job ("i'm a waitress", "i work as a nurse at the clinic") contradicts the speaker's
job only when its statements name exactly one kind of job ("i am a doctor"; a persona may hold two: "i am
a musician" and "i work as a custodian"), the new one is of another kind (a chef who says "i'm a cook" says
nothing new), none of its statements has a word opening as the new one does ("i teach piano" for "i'm a
piano teacher") and the reply does not name the speaker's own job too ("i'm a nurse manager"). A skill, an
idiom, a fan or a pastime is no job ("a good cook", "a backseat driver", "a fan of singers", "a writer at
heart"), nor a job not held now ("a retired teacher"). Places and pets, which a person has several of, are
left to the guard.

Only a clause that is nothing but the statement counts, after fillers ("oh , i'm 16 now"): not "i feel like
i'm 80 years old", "when i am 70 ...", "i'm a big boy", "i'm a yes man"; not an age under 3 ("i am one" is
no age); not a number that ends a turn without punctuation, which the length limit may have cut ("i'm 2" of
"i'm 25"). Ages and sexes were designed on dev data (round 1 of ``tests/data/dialogues``, the synthetic dev
split, DECODE ``rct`` train and dev, ConsisTest dev replies) and a review's examples; there they fire on 21
contradictions and on none of 2,802 consistent turns. Jobs were added on rounds 1-4 of
``tests/data/dialogues`` (dev since round 5) and the same dev sets: there ``slot`` decides 13 contradictions
of rounds 1-4 (6 without jobs) and fires on 2 of 6,870 consistent turns (synthetic personas whose second
job is not said as "i am a ..."); a review's examples then removed skills, idioms and pastimes (``qa:13``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from consistest.metrics.category_text import clauses
from consistest.metrics.clean import clean_response
from consistest.metrics.numbers import normalize_numbers
from consistest.metrics.words import lex

_FILLER = r"(?:yes|yeah|yep|no|nope|oh|well|wow|so|and|but|ok|okay|lol|haha|actually|because|cause|hi|hey)"
_FILLERS = rf"^(?:{_FILLER}\W+)*"
_I_AM = r"i\s*(?:'m|am|m)\s+"
_OLD = r"(?:years?|yrs?)[\s-]*old|yo"
_AGE = (
    re.compile(_FILLERS + _I_AM + rf"(\d{{1,3}})\s*(?:{_OLD})?(?:\s+(?:now|today|too|already))?$"),
    re.compile(_FILLERS + _I_AM + rf"an?\s+(\d{{1,3}})[\s-]*(?:{_OLD})\b(?!.*\b(?:heart|spirit|inside)\b)"),
    re.compile(_FILLERS + r"my age is (\d{1,3})$"),
)
MIN_AGE = 3
_FEMALE = lex("girl woman female lady gal mom mother wife grandmother grandma daughter housewife")
_MALE = lex("boy man male guy dude dad father husband grandfather grandpa son")
_MODIFIER = r"little|young|old|single|grown|married|divorced|retired|widowed|proud|teenage"
_MODIFIERS = rf"(?:{_MODIFIER}|\d{{1,3}}[\s-]*{_OLD})"
_SEX = re.compile(_FILLERS + _I_AM + rf"(?:an?\s+)?(?:{_MODIFIERS}\s+){{0,2}}([\w-]+)$")
# "i'm a (two words at most) JOB (at/in/for ..., as well, lol)": the job's head noun
_JOB = re.compile(
    _FILLERS
    + r"i\s*(?:'m|am|m|work as|'m working as|am working as)\s+(?:an?\s+)?((?:[\w-]+\s+){0,2}?)([\w-]+)"
    r"(?P<after>\s+(?:at|in|for|on|from|with|by|now|too|here|there|as well|lol|haha)\b.*)?$"
)
# not a job held now, or not a job at all: a skill ("a good cook"), an idiom ("a backseat driver", "such a
# teacher"), a fan, one who is not working
_NOT_NOW = re.compile(
    r"\b(?:not|never|no|former|ex|retired|aspiring|future|wannabe|would-be|failed|unemployed|laid|student|"
    r"good|bad|great|terrible|awful|horrible|lousy|poor|decent|amazing|excellent|best|worst|better|worse|"
    r"backseat|con|such|like|fan|fans|of|the|a|an|real|total|natural|born|huge|big|little)\b"
)
# a job said of a pastime rather than a living ("a writer at heart", "a singer in the shower", "the cook in
# my family", "a chef in my free time")
_PASTIME = re.compile(
    r"\b(?:heart|shower|free|spare|family|fun|dreams?|mind|hobby|home|house|kids|life|head|soul)\b"
)
# jobs of one kind: saying one of them when the speaker has another is no new job
JOB_KINDS: tuple[frozenset[str], ...] = tuple(
    lex(kind)
    for kind in (
        "cook chef baker",
        "cop policeman policewoman officer sheriff detective",
        "vet veterinarian",
        "lawyer attorney judge",
        "writer author novelist poet journalist reporter blogger editor",
        "painter artist sculptor animator designer illustrator",
        "musician singer pianist guitarist drummer violinist rapper composer dj producer director",
        "doctor surgeon dentist physician",
        "waiter waitress server bartender",
        "housewife homemaker",
        "teacher professor tutor instructor coach trainer",
        "nurse midwife caregiver paramedic",
        "fireman firefighter",
        "mailman postman",
        "farmer rancher beekeeper",
        "programmer developer engineer technician",
        "actor actress model dancer",
        "housekeeper maid janitor custodian",
        "salesman saleswoman salesperson realtor broker cashier clerk",
        "pastor priest preacher",
        "driver trucker",
        "accountant banker economist analyst auditor",
        "plumber electrician carpenter mechanic welder",
        "scientist chemist biologist physicist",
        "psychologist therapist counselor",
        "manager ceo entrepreneur investor consultant",
        "secretary receptionist assistant",
        "photographer",
        "librarian",
        "pilot astronaut",
        "soldier",
        "athlete wrestler boxer lifeguard",
        "babysitter nanny",
        "hairdresser stylist barber",
        "butcher",
        "pharmacist",
        "architect",
        "miner lumberjack",
        "fisherman",
        "gardener landscaper florist",
        "comedian",
        "youtuber streamer moderator",
        "usher",
        "zookeeper",
        "tailor jeweler",
    )
)
JOBS = frozenset().union(*JOB_KINDS)


def _plain(clause: str) -> str:
    return normalize_numbers(clause.lower().replace("\u2019", "'").strip(" .!"))


def age(clause: str) -> int | None:
    """The speaker's age a clause states (number words read as digits; 3 and over), or None."""
    text = _plain(clause)
    for pattern in _AGE:
        if (m := pattern.search(text)) and int(m[1]) >= MIN_AGE:
            return int(m[1])
    return None


def sex(clause: str) -> str | None:
    """``female`` or ``male`` when the clause says what the speaker is ("i'm a little girl"), or None."""
    m = _SEX.search(_plain(clause))
    word = m[1] if m else None
    return "female" if word in _FEMALE else "male" if word in _MALE else None


def job(clause: str) -> str | None:
    """The speaker's present job a clause states ("i'm a school teacher", "i work as a nurse at the
    clinic"; plural heads read singular), or None ("i'm a retired teacher", "i'm not a nurse")."""
    m = _JOB.search(_plain(clause))
    if m is None or _NOT_NOW.search(m[1]) or (m["after"] and _PASTIME.search(m["after"])):
        return None
    head = m[2] if m[2] in JOBS or not m[2].endswith("s") else m[2][:-1]
    return head if head in JOBS else None


def _kind(name: str) -> frozenset[str]:
    return next((k for k in JOB_KINDS if name in k), frozenset({name}))


def other_job(
    clause: str, jobs: Sequence[tuple[str, str]], held: Sequence[str], said: Sequence[str]
) -> str | None:
    """The statement that names the speaker's one job (``jobs``: the (statement, job) pairs of ``held``; one
    kind: "a chef" and "a cook at a diner" are one), when ``clause`` names another of another kind, no
    statement of ``held`` holds it ("i teach" for a teacher) and nothing ``said`` with it names the
    speaker's own ("i'm a nurse manager", "... i'm also a nurse"); None otherwise."""
    new = job(clause)
    kinds = {_kind(j) for _, j in jobs}
    if new is None or len(kinds) != 1 or new in (kind := next(iter(kinds))):
        return None
    if any(re.search(rf"\b{new[:4]}", _plain(o)) for o in held):
        return None
    if any(w in kind for c in said for w in re.findall(r"[\w-]+", _plain(c))):
        return None
    return jobs[0][0]


def _stated(text: str) -> list[str]:
    """A turn's statements: not its questions, nor a last clause ending in a number when the turn has no
    final punctuation (the length limit may have cut it)."""
    out = [c for c in clauses(text) if not c.rstrip().endswith("?")]
    cut = not text.rstrip().endswith((".", "!", "?", ")", '"'))
    if out and cut and re.search(r"\d\W*$", _plain(out[-1])):
        out = out[:-1]
    return out


def other_value(reply: str, own: Sequence[str], jobs_too: bool = True) -> tuple[str, str] | None:
    """The first clause of ``reply`` that gives the speaker's age, sex or job (not job with ``jobs_too``
    False), with the statement of ``own`` (persona sentences, earlier turns) that gives another, when none of
    ``own`` gives the same (for jobs, see ``other_job``); None when there is none."""
    held = [c for t in own for c in _stated(t)]
    jobs = [(o, j) for o in held if jobs_too and (j := job(o))]  # read once, not once per clause
    said = _stated(clean_response(reply))
    for c in said:
        if clash := other_job(c, jobs, held, said):
            return c, clash
        for read in (age, sex):
            value = read(c)
            if value is None:
                continue
            readings = [(read(o), o) for o in held]
            if any(v == value for v, _ in readings):
                continue
            clash = next((o for v, o in readings if v is not None), None)
            if clash is not None:
                return c, clash
    return None
