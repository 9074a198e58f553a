"""The language of a request: numbers, units, words, and (later) the parse of a whole request.

A Qt-free package low in the layers: it imports only ``events`` and ``config``; the planners,
the capabilities and the channel finder import it.

* ``numbers``: number words ("three", "twenty-four") and amounts spelled out ("two point five").
* ``units``: the unit words an operator types and conversion between units (pint).
* ``words``: tokens, light stemming, stop words, change verbs and capability scores.
"""
