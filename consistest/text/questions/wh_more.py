"""More WH rules (issue 23): exclusive attributes PersonaChat personas state that the first rules missed.

Each asks for something a person has one of (or the whole of), so another true answer cannot exist:

- ``wh.age_decade``: i am in my thirties / i am 60years old -> how old are you?
- ``wh.major``: i am an economics major -> what is your major? / economics
- ``wh.religion``, ``wh.diet``: i am a buddhist -> what is your religion?; i am a vegan -> what diet do you
  follow?
- ``wh.spouse``: i am married to a doctor -> who are you married to?; i married a model -> who did you marry?
- ``wh.employer``: i am employed by the post office / i have a part time job at burger king -> where do you
  work?
- ``wh.aim``: i want to be a lawyer -> what do you want to be?; i am studying to be a nurse -> what are you
  studying to be?; i went to school to be a vet -> what did you go to school to be?
- ``wh.how_often``: i visit europe twice a year -> how often do you visit europe? / twice a year
- ``wh.raised``: i was raised on a farm -> where were you raised? / farm
- ``wh.favorite_kind``: my favorite type of music to sing is folk music -> what is your favorite type of
  music to sing?
- ``wh.their_work``: my father used to work for home depot -> where did your father use to work?
- ``wh.colors``: my bedroom is purple and lime green -> what color is your bedroom?
- ``wh.languages``: i am fluent in english and french -> what languages are you fluent in?
- ``wh.grade``: i am in the third grade -> what grade are you in? / third grade; i am in high school -> what
  level of school are you in? / high school
- ``wh.hair``: i am a blonde girl with short hair -> what color is your hair? / blonde
- ``wh.when_future``: i am getting married in the spring -> when are you getting married? / the spring
- ``wh.born_when``: i was born in the early 80 s -> when were you born? / early 80 s
- ``wh.job_more``: i am a famous twitch streamer -> what do you do for a living? / twitch streamer (jobs
  the lexicon lacks); my father was a door to door salesman -> what did your father do?
- ``wh.descendant``: i am a descendant of christopher columbus -> who are you a descendant of?
- ``wh.military``: i am in the army -> what branch of the military are you in? / army
- ``wh.spent``: i spent a decade working in the field -> how long did you work in the field? / a decade
- ``wh.gender``: i am a woman -> what is your gender? / woman
- ``wh.marital``: i am divorced -> what is your relationship status? / divorced
- ``wh.moved``: i moved to the city from texas -> where did you move to? / city; where did you move from?
- ``wh.height``, ``wh.weight``: i am 6 feet tall -> how tall are you?; i weigh 200 pounds -> how much do you
  weigh?
- ``wh.job_past``: i used to be a teacher -> what was your job? / teacher; i retired from nursing -> what did
  you retire from?
- ``wh.degree``: i have a degree in biology / a biology degree -> what is your degree in? / biology
- ``wh.parent_of``: i am a mother of two -> how many children do you have? / two
- ``wh.their_age``: my son is 5 years old -> how old is your son? / 5
- ``wh.school``: i graduated from harvard / i attend yale -> where did you graduate from? / where do you go
  to school?

Versioned (WH_MORE_VERSION, in the builders' ``qagen`` version and the AIH inquirer's signature).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from consistest.text.parse import Tok
from consistest.text.questions.wh_identity import (
    rule_age_decade,
    rule_aim,
    rule_belief_diet,
    rule_body,
    rule_born_when,
    rule_degree,
    rule_descendant,
    rule_gender,
    rule_grade,
    rule_hair,
    rule_job_more,
    rule_job_past,
    rule_major,
    rule_marital,
    rule_military,
    rule_parent_of,
    rule_their_age,
)
from consistest.text.questions.wh_life import (
    rule_colors,
    rule_employer,
    rule_favorite_kind,
    rule_how_often,
    rule_languages,
    rule_moved,
    rule_raised,
    rule_school,
    rule_spent,
    rule_spouse,
    rule_their_work,
    rule_when_future,
)
from consistest.text.questions.yn_templates import Question

WH_MORE_VERSION = 1

MORE_RULES: tuple[Callable[[Sequence[Tok]], list[Question]], ...] = (
    rule_age_decade,
    rule_major,
    rule_belief_diet,
    rule_spouse,
    rule_employer,
    rule_aim,
    rule_how_often,
    rule_raised,
    rule_favorite_kind,
    rule_their_work,
    rule_colors,
    rule_languages,
    rule_grade,
    rule_hair,
    rule_when_future,
    rule_born_when,
    rule_job_more,
    rule_descendant,
    rule_military,
    rule_spent,
    rule_gender,
    rule_marital,
    rule_moved,
    rule_body,
    rule_job_past,
    rule_degree,
    rule_parent_of,
    rule_their_age,
    rule_school,
)
