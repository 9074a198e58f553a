"""A physicist's notation said in words: the symbols of accelerator physics for the quantities
every ring has, and the operators written around them.

* tunes: "Qx", "Q_y", "νx", "nu_y" → "horizontal tune", "vertical tune";
* RF: "V_RF", "Vrf", "RF V" → "RF voltage"; "f_RF", "frf", "RF f" → "RF frequency";
* beam: "I_beam", "Ibeam", "I" beside an operator or a statistic ("I + lt", "I p2p") →
  "beam current"; "τ" → "lifetime"; "ξx", "xi_y" → "horizontal
  chromaticity", "vertical chromaticity";
* statistics of a signal: "σ(BPM20 x)" → "standard deviation of BPM20 x", "rms(X)", "mean(X)",
  "max(X)", "min(X)", "p2p(X)" likewise;
* a change written as a difference: "ΔI(QD16) = -0.5 A", "Δ(QD16) = -0.5 A", "ΔQD16 = +0.2 A"
  → "change QD16 by -0.5 A".

The symbols are those of the textbooks, not of one facility: a facility's own names reach the
finder through its channel list.
"""

from __future__ import annotations

import re

__all__ = ["averages_said_in_words", "notation_said_in_words"]

_NUMBER = r"[-+−]?\s*(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?"
_SYMBOLS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<![\w:])(?:Q|ν|nu)_?\{?x\}?(?![\w:])"), "horizontal tune"),
    (re.compile(r"(?<![\w:])(?:Q|ν|nu)_?\{?y\}?(?![\w:])"), "vertical tune"),
    (re.compile(r"(?<![\w:])(?:V_?RF|V_?rf|[Rr][Ff]\s+V)(?![\w:])"), "RF voltage"),
    (re.compile(r"(?<![\w:])(?:f_?RF|f_?rf|RF\s+f)(?![\w:])"), "RF frequency"),
    (re.compile(r"(?<![\w:])I_?(?:beam|b)(?![\w:])", re.I), "beam current"),
    (re.compile(r"(?<![\w:])τ(?![\w:])"), "lifetime"),
    # "I + lt now", "lt, I", "I p2p last 2h": the current as a symbol beside other items or a
    # statistic (never the pronoun: "I mean", "I want", "I + lt" only with its operator)
    (
        re.compile(
            r"(?<![\w'’])I(?=\s*[+&]\s*\w|\s+(?:p2p|pk-pk|rms|σ|sigma|avg|max|min|std)\b)"
            r"|(?<=[+&/]\s)I(?![\w'’])|(?<=[+&/])I(?![\w'’])"
        ),
        "beam current",
    ),
    # ξ: the chromaticity of a plane ("ξx", "xi_y")
    (re.compile(r"(?<![\w:])(?:ξ|xi)_?\{?x\}?(?![\w:])"), "horizontal chromaticity"),
    (re.compile(r"(?<![\w:])(?:ξ|xi)_?\{?y\}?(?![\w:])"), "vertical chromaticity"),
    # η: the dispersion of a plane ("η_x"), or an efficiency ("η_inj")
    (re.compile(r"(?<![\w:])(?:η|eta)_?\{?x\}?(?![\w:])"), "horizontal dispersion"),
    (re.compile(r"(?<![\w:])(?:η|eta)_?\{?y\}?(?![\w:])"), "vertical dispersion"),
    (re.compile(r"(?<![\w:])η_?\{?inj\}?(?![\w:])", re.I), "injection efficiency"),
)
_STATISTIC = re.compile(
    r"(?P<op>σ|sigma|rms|std|mean|avg|max|min|p2p|pk-pk)\s*\(\s*(?P<what>[^()]+?)\s*\)", re.I
)
_STATISTIC_WORDS = {
    "σ": "standard deviation",
    "sigma": "standard deviation",
    "std": "standard deviation",
    "rms": "rms",
    "mean": "mean",
    "avg": "average",
    "max": "maximum",
    "min": "minimum",
    "p2p": "peak-to-peak",
    "pk-pk": "peak-to-peak",
}
_DIFFERENCE = re.compile(
    rf"(?:Δ|delta\s*)(?:[A-Za-z]{{1,3}}\s*)?\(\s*(?P<what>[^()]+?)\s*\)\s*(?:=|:=|by)\s*"
    rf"(?P<amount>{_NUMBER})\s*(?P<unit>[a-zA-Zµ%]{{0,4}})"
    rf"|Δ\s*(?P<what2>[A-Za-z]{{2,5}}\s?\d{{1,3}})\s*(?:=|:=)\s*(?P<amount2>{_NUMBER})\s*"
    rf"(?P<unit2>[a-zA-Zµ%]{{0,4}})",
    re.I,
)


def _difference(found: re.Match[str]) -> str:
    what = found["what"] or found["what2"]
    amount = (found["amount"] or found["amount2"]).replace(" ", "").replace("−", "-")
    unit = found["unit"] or found["unit2"] or ""
    return f"change {what} by {amount} {unit}".rstrip()


# "HCM03 := avg(HCM01, HCM02)": the mean of several devices, as the parse reads it
_MEAN_OF_SEVERAL = re.compile(
    r"\b(?:avg|mean|average)\s*\(\s*(?P<items>[A-Za-z]{1,5}\s?\d{1,3}"
    r"(?:\s*,\s*[A-Za-z]{1,5}\s?\d{1,3})+)\s*\)",
    re.I,
)


def _mean_of_several(found: re.Match[str]) -> str:
    items = [i.strip() for i in found["items"].split(",")]
    return f"the average of {', '.join(items[:-1])} and {items[-1]}"


def averages_said_in_words(text: str) -> str:
    """ "avg(HCM01, HCM02)" -> "the average of HCM01 and HCM02" (said before any list is
    split at its commas); "avg of HCM 23 and HCM 25" -> "average of ..."."""
    text = re.sub(r"\bavg\.?(?=\s+(?:of|between)\b)", "average", text, flags=re.I)
    return _MEAN_OF_SEVERAL.sub(_mean_of_several, text)


def notation_said_in_words(text: str) -> str:
    """``text`` with the notation above said in words (unchanged when it has none)."""
    said = _MEAN_OF_SEVERAL.sub(_mean_of_several, text)
    said = _DIFFERENCE.sub(_difference, said)
    said = _STATISTIC.sub(lambda m: f"{_STATISTIC_WORDS[m['op'].lower()]} of {m['what']}", said)
    for pattern, words in _SYMBOLS:
        said = pattern.sub(words, said)
    return said
