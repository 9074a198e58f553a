"""Requests said in another language's word order and prepositions, said the English way.

A speaker of another language keeps its order and prepositions: the infinitive after "please"
("please to put"), a wish with "that" ("I want that the QF 10 goes on 121 A"), the subject
"you" of an imperative ("please you give", "first you show
me"), "after" for "then" ("..., after you make it 0.5 A less"), "equal with" for "equal to",
the verb after its object ("the QF 29 make more with 1 ampere", "the q.f.21 please set on
121.5 A", "all horizontal correctors of sector 12, please put on 0.1 A"), "on" for the value a
device is put to ("put it on zero"), a comparative verb with "of" or "with" for the amount
("make less the QD 38 of two percent"), a factor before its comparative ("the ID 02 gap three
times bigger make"), and "actual" for "present" ("the actual setpoint"). Each is said the way
the parse and the writers read it; the amount is kept as typed, so its sign, digits and unit
are the operator's own, and a comparative with no amount stays vague (the writer asks).

``said_in_english_order`` runs before the request's clauses are read (a read and a change it
orders, "first ... after ...", are two clauses), ``changes_in_english_order`` with the other
change phrasings (``change_phrasings``).
"""

from __future__ import annotations

import re

from osprey_desktop.language.numbers import SPELLED_NUMBER_PATTERN, read_number
from osprey_desktop.language.units import lookup_unit

__all__ = ["changes_in_english_order", "said_in_english_order"]

#: Verbs of a request an imperative's "you" may stand before ("first you show me ...").
_IMPERATIVES = (
    r"(?:show|give|make|put|set|read|tell|raise|lower|increase|decrease|open|close|bring|check|"
    r"plot|take|move|change|get|apply|reduce|look|let)"
)
_DIGITS = r"(?:\d+(?:\.\d*)?|\.\d+)"
_NUMBER = rf"(?:[-+−]?{_DIGITS}|(?:minus|negative)\s+{_DIGITS}|{SPELLED_NUMBER_PATTERN})"
#: An amount as typed: a number in digits or words, and the word after it when it is a unit.
_AMOUNT = rf"(?P<num>{_NUMBER})(?P<unit>\s*(?:%|per\s*cent\b|[a-zµ]{{1,8}}\b))?"
_UP = frozenset({"more", "bigger", "higher", "larger", "greater", "wider", "stronger"})
_DOWN = frozenset({"less", "smaller", "lower", "narrower", "weaker", "fewer"})
_COMPARATIVE = r"(?P<cmp>more|less|bigger|smaller|higher|lower|larger|greater|wider|narrower)"
#: Words no object of a change begins or holds: verbs, conjunctions, question words.
_NOT_OBJECT_WORDS = """and or then but if when so what how which why is are was were do does did
can could would will should read show check plot set put make give raise lower increase decrease
open close bring take move change get tell apply compare"""
_NOT_OBJECT = frozenset(_NOT_OBJECT_WORDS.split())


def said_in_english_order(text: str) -> str:
    """``text`` with the forms of the module's docstring that order its clauses said the
    English way: "please to put" and "please you give" are "please put" and "please give",
    "first you show me X, after you make it 0.5 A less" is "show me X, then make it ...",
    "equal with" is "equal to" and "the actual setpoint" is "the setpoint"."""
    work = _PLEASE_TO.sub(lambda m: f"{m['polite']} ", text)
    work = _READ_AFTER_OBJECT.sub(_read_said_first, work)
    work = _FIRST_YOU.sub("", work)
    work = _AFTER_YOU.sub(lambda m: f"{m['lead']}then ", work)
    work = _AFTER_VERB.sub(lambda m: f"{m['lead']}then ", work)
    work = _HIM.sub(lambda m: f"{m['verb']} it", work)
    work = _YOU_LEADS.sub(lambda m: m["lead"], work)
    work = _YOU_AFTER_OBJECT.sub(_you_dropped, work)
    work = re.sub(r"\bequal\s+(?:with|as)\b", "equal to", work, flags=re.I)
    return _ACTUAL.sub("", work)


def changes_in_english_order(text: str) -> str:
    """``text`` with the changes of the module's docstring said "set X to V", "increase X by
    A" or "decrease X by A". A question is left as typed ("The QF 3 make more with 1 A?" may
    ask whether, as much as ask for it)."""
    if "?" in text:
        return text
    work = _TIMES_BIGGER_LAST.sub(_by_factor, text)
    work = _TIMES_BIGGER.sub(_by_factor, work)
    work = _MAKE_CMP_LAST.sub(_by_amount, work)
    work = _MAKE_CMP_FIRST.sub(_by_amount, work)
    work = _MAKE_WHAT_CMP.sub(_by_amount, work)
    work = _VERB_OF.sub(_verb_of, work)
    work = _MAKE_AMOUNT_CMP.sub(_by_amount, work)
    work = _WANT_THAT.sub(lambda m: f"set {m['what']} to ", work)
    work = _OBJECT_THEN_VERB.sub(_set_to, work)
    return _PUT_ON.sub(_put_on, work)


_PLEASE_TO = re.compile(
    rf"\b(?P<polite>please|pls|plz|kindly)\s*,?\s+(?:to|you)\s+(?={_IMPERATIVES}\b)", re.I
)
_FIRST_YOU = re.compile(
    rf"^\W*(?:first(?:\s+of\s+all)?|at\s+first)\s*,?\s+(?:you\s+)?(?=(?:please\s+)?{_IMPERATIVES}\b)",
    re.I,
)
#: "..., after you make it 0.5 A less": "after" with the imperative's "you" is "then" (without
#: it, "after that" and "afterwards" are read by the clauses)
_AFTER_YOU = re.compile(
    r"(?P<lead>[,;]\s*(?:and\s+)?|\s+and\s+)(?:after(?:wards?|\s+(?:that|this|it))?|then\s+after|"
    rf"later)\s*,?\s+you\s+(?:please\s+)?(?={_IMPERATIVES}\b)",
    re.I,
)
#: "..., after put HCM 34 at 0.2 A": "after" straight before a verb is "then"
_AFTER_VERB = re.compile(rf"(?P<lead>[,;]\s*)after\s+(?=(?:please\s+)?{_IMPERATIVES}\b)", re.I)
#: "increase him of 1 A": a device is "he" or "she" in some languages
_HIM = re.compile(
    r"\b(?P<verb>increase|decrease|raise|lower|reduce|set|put|make|bring|open|close|move|change|"
    r"adjust|zero|read|check)\s+(?:him|her)\b",
    re.I,
)
#: "First the lifetime you read me", "The QF 47 setpoint you control first": a reading said
#: after its object ("control" is another language's word for check)
_READ_AFTER_OBJECT = re.compile(
    r"(?P<lead>^\W*(?:first\s+)?|[,;]\s*(?:then\s+)?)(?P<what>[^,;:?!]+?)\s+you\s+"
    r"(?P<verb>read|show|give|check|control|verify|tell)(?:\s+(?:me|us|to\s+me))?"
    r"(?P<first>\s+(?:first|before|now|please))*(?=\s*(?:[,;.!]|$))",
    re.I,
)


def _read_said_first(found: re.Match[str]) -> str:
    what = _object(found["what"])
    if what is None:
        return found.group(0)
    verb = "check" if found["verb"].lower() in ("check", "control", "verify") else "read"
    return f"{found['lead']}{verb} {what}"


#: "then you make it", "VCM 35, you put it on 0": the imperative's subject said
_YOU_LEADS = re.compile(
    rf"(?P<lead>^\W*|[,;]\s*|\bthen\s+|\bplease\s+)you\s+(?={_IMPERATIVES}\b)",
    re.I,
)
#: "The HCM 9 you make 0.1 A more": the subject "you" after the object, before its verb
_YOU_AFTER_OBJECT = re.compile(
    r"(?P<before>\b[\w'’]+)\s+you\s+(?=(?:make|put|set|give|bring|take|raise|lower|increase|"
    r"decrease|open|close)\b)",
    re.I,
)
#: Words after which "you" is the subject of a question or a clause, not of an imperative
_ASKING_YOU_WORDS = """can could would will do did if when that as than should may might must
shall please and then first"""
_ASKING_YOU = frozenset(_ASKING_YOU_WORDS.split())


def _you_dropped(found: re.Match[str]) -> str:
    if found["before"].lower() in _ASKING_YOU:
        return found.group(0)
    return f"{found['before']} "


#: "the actual setpoint", "the actual readback": the present one (another language's false
#: friend); the role word after it says which
_ACTUAL = re.compile(
    r"\bactual\s+(?=(?:setpoints?|set\s+points?|readbacks?|read\s+backs?|sp|rb|value|values|"
    r"reading|readings)\b)",
    re.I,
)


def _unit_kept(found: re.Match[str]) -> str:
    """The amount as typed, with the word after it only when that word is a unit."""
    unit = (found["unit"] or "").strip()
    if re.fullmatch(r"per\s*cent", unit, re.I):
        unit = "%"
    if unit and lookup_unit(unit) is None:
        unit = ""
    number = found["num"].strip()
    return f"{number} {unit}".strip()


def _unit_word_dropped(found: re.Match[str]) -> str:
    """What followed the amount that is no unit ("1 please"): given back to the sentence."""
    unit = (found["unit"] or "").strip()
    if unit and not re.fullmatch(r"per\s*cent|%", unit, re.I) and lookup_unit(unit) is None:
        return found["unit"]
    return ""


def _object(words: str) -> str | None:
    """The object of a change said before its verb, or None when the words are no object
    (a verb or a conjunction among them: "read HCM3 and set on 0.1 A" is no verb-last form)."""
    words = re.sub(r"\b(?:please|pls|plz|kindly|you|to)\b", " ", words, flags=re.I)
    words = " ".join(words.split()).strip(" ,")
    lowered = [w.lower() for w in re.findall(r"[A-Za-z]+", words)]
    if not words or any(w in _NOT_OBJECT for w in lowered):
        return None
    return words


def _way(comparative: str) -> str:
    return "increase" if comparative.lower() in _UP else "decrease"


def _by_amount(found: re.Match[str]) -> str:
    what = _object(found["what"])
    if what is None:
        return found.group(0)
    return (
        f"{found['lead'] or ''}{_way(found['cmp'])} {what} by {_unit_kept(found)}"
        f"{_unit_word_dropped(found)}"
    )


def _verb_of(found: re.Match[str]) -> str:
    said = (found["what"] or "").strip()
    after = (found["after"] or "").strip()
    unit = (found["unit"] or "").strip()
    if (
        bool(said) == bool(after)
        or not unit
        or not re.fullmatch(r"per\s*cent|%", unit, re.I)
        and (lookup_unit(unit) is None)
    ):
        return found.group(0)  # the object said once, and the amount with its unit
    what = _object(said or after)
    if what is None:
        return found.group(0)
    return f"{found['lead']}{found['verb']} {what} by {_unit_kept(found)}"


def _by_factor(found: re.Match[str]) -> str:
    what = _object(found["what"] or found.groupdict().get("what2") or "")
    factor = read_number(found["n"])
    if what is None or factor is None or factor <= 1:
        return found.group(0)  # "1.0 times bigger" changes nothing; asked, not guessed
    return f"{found['lead'] or ''}increase {what} by {(factor - 1) * 100:g}%"


def _a_value(said: str) -> bool:
    """Whether ``said`` is a value: a number, and after it a unit or nothing ("one plot" is
    no value)."""
    word = re.search(r"[a-zµ%]+$", said.strip(), re.I)
    return word is None or read_number(said) is not None or lookup_unit(word.group(0)) is not None


def _set_to(found: re.Match[str]) -> str:
    what = _object(found["what"])
    if what is None or not _a_value(found["val"]):
        return found.group(0)
    return f"{found['lead']}set {what} to {found['val']}"


def _put_on(found: re.Match[str]) -> str:
    if not _a_value(found["val"]):
        return found.group(0)
    return f"{found['lead']}set {found['what']} to {found['val']}"


_LEAD = r"(?P<lead>^\W*|[,;:]\s*(?:then\s+)?|\bthen\s+)"
#: Where an imperative's verb stands: first, after a comma, "then", "and" or the courtesy
#: ("yesterday someone put HCM 3 on 0.2 A" tells what was done)
_VERB_LEAD = (
    r"(?P<lead>(?:^\W*|[,;:]\s*|\b(?:then|and|please|pls|kindly|so|now|ok|you)\s+)"
    r"(?:(?:then|and|please|pls|kindly|so|now|ok)\s+)*)"
)
#: "The QF 29 make more with 1 ampere please": the object, the verb, the comparative, the amount
_MAKE_CMP_LAST = re.compile(
    rf"{_LEAD}(?P<what>[^,;:?!]+?)\s+(?:please\s+|you\s+)*make\s+(?:it\s+)?{_COMPARATIVE}\s+"
    rf"(?:with|of|by|for)\s+{_AMOUNT}",
    re.I,
)
#: "Make less the QD 38 of two percent": the verb, the comparative, the object, the amount
_MAKE_CMP_FIRST = re.compile(
    rf"{_VERB_LEAD}make\s+{_COMPARATIVE}\s+(?P<what>[^,;:?!]+?)\s+(?:with|of|by|for)\s+{_AMOUNT}",
    re.I,
)
#: "Make the QF 3 more with 1 A": the verb, the object, the comparative, the amount
_MAKE_WHAT_CMP = re.compile(
    rf"{_VERB_LEAD}make\s+(?P<what>[^,;:?!]+?)\s+{_COMPARATIVE}\s+(?:with|of|by|for)\s+{_AMOUNT}",
    re.I,
)
#: "increase of 2 percent the QD 5", "reduce the QF 3 of 1 A": "of" for "by", the amount with
#: its unit (without one, "of" names what it is of)
_VERB_OF = re.compile(
    rf"{_VERB_LEAD}(?P<verb>increase|decrease|raise|lower|reduce)\s+(?:(?P<what>[^,;:?!]+?)\s+)?of\s+"
    rf"{_AMOUNT}(?:\s+(?P<after>(?:the\s+)?[^,;:?!]+?))?(?=\s*(?:[,;.!]|please\b|$))",
    re.I,
)
#: "make it 0.5 A less", "make QF3 1 A more": the amount before its comparative
_MAKE_AMOUNT_CMP = re.compile(
    rf"{_VERB_LEAD}make\s+(?P<what>[^,;:?!]+?)\s+{_AMOUNT}\s+{_COMPARATIVE}\b"
    r"(?!\s+than\b)",
    re.I,
)
_FACTOR = rf"(?P<n>\d+(?:\.\d+)?|{SPELLED_NUMBER_PATTERN})\s*(?:times|x|×)"
_BIGGER = r"(?:bigger|larger|higher|greater|wider|more)"
#: "The ID 02 gap three times bigger make please": the object, the factor, the verb last
_TIMES_BIGGER_LAST = re.compile(
    rf"{_LEAD}(?P<what>[^,;:?!]+?)\s+{_FACTOR}\s+{_BIGGER}\s+(?:please\s+|you\s+)*make\b", re.I
)
#: "make the ID 4 gap two times bigger", "the ID 4 gap make two times larger"
_TIMES_BIGGER = re.compile(
    rf"{_LEAD}(?:(?:please\s+)?make\s+(?P<what>[^,;:?!]+?)|(?P<what2>[^,;:?!]+?)\s+"
    rf"(?:please\s+|you\s+)*make)\s+{_FACTOR}\s+{_BIGGER}\b(?!\s+than\b)",
    re.I,
)
_VALUE = rf"(?P<val>{_NUMBER}(?:\s*(?:%|[a-zµ]{{1,8}}\b))?)"
_VALUE_ENDS = r"(?=\s*(?:[,;.!]|please\b|pls\b|$))"
#: "the q.f.21 please set on 121.5 ampere", "All horizontal corrector of sector 12, please put
#: on 0.1 A": the object, then the verb with "on", "at" or "to" and the value
_OBJECT_THEN_VERB = re.compile(
    rf"{_LEAD}(?P<what>[^,;:?!]+?)\s*,?\s+(?:(?:(?:please|pls|you)\s+)+(?:to\s+)?"
    # without the courtesy, only "on" says the order ("HCM3 set at 0.2 A" may tell a value)
    rf"(?:set|put|bring|make)\s+(?:(?:them|all|both|each)\s+)?(?:on|at|to)|(?:set|put|bring)\s+(?:(?:them|all|both|each)\s+)?on)\s+"
    rf"{_VALUE}{_VALUE_ENDS}",
    re.I,
)
#: "I want that the QF 10 goes on 121 A", "we would like that the ID 4 gap is at 20 mm": a wish
#: said with "that" and the verb of being or going
_WANT_THAT = re.compile(
    r"\b(?:i|we)\s+(?:want|wish|need|(?:would|'d)\s+like|would\s+want)\s+that\s+"
    r"(?P<what>(?:the\s+)?[^,;:?!]{1,40}?)\s+(?:goes|go|is|be|stays|stay|comes|will\s+be|gets|"
    r"will\s+go|sits|remains)\s+(?:on|at|to)\s+(?=[-+−]?\.?\d|minus\b|zero\b)",
    re.I,
)
#: "put it on zero", "set the ID 4 gap on 20 mm": "on" for the value it is put to
_PUT_ON = re.compile(
    rf"{_VERB_LEAD}(?:put|set|bring)\s+(?P<what>it|them|(?:the\s+)?[^,;:?!]{{1,40}}?)\s+on\s+{_VALUE}"
    rf"{_VALUE_ENDS}",
    re.I,
)
