"""The words of a control room's English the request parse knows: generic, no facility's.

Verbs that read, plot, compare or change; words of history and statistics; directions, vague
amounts, determiners, places, roles. A facility's own words (its device names and channel
words) are not here: they come in as a ``request.Vocabulary``.
"""

from __future__ import annotations

from osprey_desktop.language.words import CHANGE_VERBS, STOP_WORDS, stem


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


READ_VERBS = _set(
    """read show get check display give tell list fetch see report print look what whats
    monitor view pull query find gimme know provide quote quantify assess evaluate estimate
    determine characterize characterise record"""
)
PLOT_VERBS = _set("plot trend graph chart draw graphic graphics diagram overlay")
HISTORY_WORDS = _set(
    """history historical archived archive evolve evolved evolution behaved trend stable steady
    constant noisy fluctuating stability"""
)
#: Verbs in the past that ask what a channel did ("did the gap move", "how the vacuum changed"):
#: history words, never part of a channel's name.
PAST_VERBS = _set(
    """changed moved drifted varied evolved behaved shifted went dropped rose fell jumped
    touched altered modified move drift vary change behave do did done happen happened evolve
    rise fall jump shift go gone been"""
)
#: A reading said to have crossed a threshold ("has the lifetime fallen under 6 h"): the
#: state asked now, no word of a channel, and no question of the past.
CROSSED_WORDS = _set("fallen risen climbed sunk exceeded reached crossed dipped")
ASKERS = _set("anyone someone somebody anybody who")
STATISTIC_WORDS = _set(
    """average avg mean maximum max minimum min rms std stdev deviation median peak spread
    variance highest lowest"""
)
COMPARE_WORDS = _set("compare comparison versus vs against")
#: Verbs that change a device. The planner's word list plus those that act only with a value,
#: a state or a reference.
CHANGE = CHANGE_VERBS | _set(
    """open close shut bring drive take make return start stop insert retract extract arm
    disarm activate deactivate match copy restore revert zero put raise lower drop reduce
    increase decrease cut boost widen narrow steer degauss cycle dial crank rise increment
    decrement diminish fix correct"""
)
#: Verbs that read, and change only when a value follows "to": "can we get QF 9 to 121.5".
READ_OR_CHANGE = _set("get")
#: Verbs that change only with their particle: "go back to ...", "roll back", "go to 0.3 A".
PHRASAL_CHANGES = {"go": frozenset({"back", "to", "up", "down"}), "roll": frozenset({"back"})}
#: Nouns that are also verbs: a verb only in verb position, followed by what they act on.
NOUN_VERBS = _set("tune trim scan set change current step drop cut match cycle steer zero")
NOUN_VERB_STEMS = frozenset(stem(w) for w in NOUN_VERBS)
STATE_VERBS = {
    "open": "open",
    "close": "closed",
    "shut": "closed",
    "start": "on",
    "stop": "off",
    "insert": "in",
    "retract": "out",
    "extract": "out",
    "arm": "armed",
    "disarm": "disarmed",
    "activate": "on",
    "deactivate": "off",
    "enable": "on",
    "disable": "off",
}
#: Verbs of a change that say no way: an unsigned amount after them is asked which way
#: ("change QF 41 by 0.5 A", "move the ID 9 gap by 3 mm"), never guessed up.
NO_WAY_VERBS = _set(
    "change move step adjust shift trim tweak nudge modify alter vary jog offset retune correct"
)
UP_WORDS = _set(
    "higher up more raise increase wider larger bigger further above open widen stronger"
)
DOWN_WORDS = _set(
    "lower down dn dwn less reduce decrease narrower smaller below close drop cut narrow weaker"
)
#: Words of a turn that offers a value ("try 0.25 instead", "say 0.3", "make that 0.35"): the
#: number after them is an amount, never a device's number.
VALUE_OFFERS = _set(
    "try say maybe instead then rather mean ok okay no yes so now that it wait sorry"
)
#: "a touch lower", "slightly higher": a direction and no amount.
VAGUE_AMOUNTS = _set("touch bit little tad smidge slightly somewhat notch hair fraction")
GOLDEN_WORDS = _set("golden nominal reference usual default design saved standard")
POLITE = _set(
    """please kindly thanks thank cheers pls plz ok okay hi hello hey just now also quickly
    possibly maybe mind could would can will you me for us want need like let lets go ahead
    there right away thx ta please actually exactly really"""
)
QUESTION_LEADS = _set(
    """what which who whom whose how why when where whether is are was were am do does did has
    have had can could would should will shall may might if"""
)
NEGATIONS = _set("not no never nothing without don dont doesn didn isn aren wasn weren won")
DETERMINERS = _set(
    """the a an all every each this that these those it them its my our both some any"""
)
PLACE_WORDS = _set("sector sectors cell cells straight section arc ring machine storage")
#: Words that only qualify a head noun: "horizontal and vertical tune" is two tunes.
MODIFIERS = _set(
    """horizontal vertical x y upstream downstream inner outer upper lower left right first
    second third last front back entrance exit north south east west long short"""
)
#: Which channel of a device: "HCM33 readback and setpoint" is two channels of HCM33.
ROLE_WORDS = _set("setpoint setpoints readback readbacks reference sp rb setting settings monitor")
PRONOUNS = _set("it that them those these this one everything anything something")
RANGE_WORDS = _set("through thru to till until from")
ORDINALS = _set("first second third fourth fifth sixth last next previous middle")

#: Words that never name a thing (auxiliaries, pronouns, hedges, the whole machine): a channel
#: list without them lacks nothing the request asks for ("the lifetime we have", "the current
#: in the machine").
FUNCTION_WORDS = frozenset().union(
    STOP_WORDS,
    QUESTION_LEADS,
    DETERMINERS,
    PRONOUNS,
    _set(
        """have has had having been being doing done going getting got gets goes went we he
        she him her his their your yours ours anyone anybody someone somebody everyone
        everybody currently presently still yet already roughly approximately around nearly
        almost quite rather pretty really actually machine looking looks seem seems across
        along throughout between among per via inside beyond often above below under except
        excluding anywhere everywhere somewhere"""
    ),
)

#: Comparatives: in a comparison with "than" ("is the lifetime longer now than at 7?") they name
#: nothing; elsewhere ("make the correctors a little stronger") they are a change's way.
COMPARATIVES = _set(
    "longer shorter bigger smaller larger better worse stronger weaker faster slower higher lower"
)

#: Words the grammar reads itself: never taken for a channel word shortened ("set" is no
#: "setpoint", "max" no "maximum" when a request asks for one).
GRAMMAR_WORDS = frozenset().union(
    CHANGE,
    COMPARE_WORDS,
    DETERMINERS,
    DOWN_WORDS,
    GOLDEN_WORDS,
    HISTORY_WORDS,
    MODIFIERS,
    NEGATIONS,
    ORDINALS,
    PLACE_WORDS,
    PLOT_VERBS,
    POLITE,
    PRONOUNS,
    QUESTION_LEADS,
    RANGE_WORDS,
    READ_VERBS,
    ROLE_WORDS,
    STATISTIC_WORDS,
    STOP_WORDS,
    UP_WORDS,
    VAGUE_AMOUNTS,
    VALUE_OFFERS,
)

#: Change verbs whose base is not their participle less "ed" ("closed" is "close").
_IRREGULAR_BASES = {
    "raised": "raise",
    "reduced": "reduce",
    "increased": "increase",
    "decreased": "decrease",
    "closed": "close",
    "moved": "move",
    "changed": "change",
    "nudged": "nudge",
    "dropped": "drop",
    "bumped": "bump",
    "trimmed": "trim",
}


def base_form(participle: str) -> str:
    """The base of a change verb's past participle ("raised" -> "raise", "opened" -> "open");
    a gerund's stem with "ed" ("clos" + "ed") reads the same way."""
    word = participle.lower()
    return _IRREGULAR_BASES.get(word, word[:-2] if word.endswith("ed") else word)
