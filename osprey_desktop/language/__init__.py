"""The language of a request: numbers, units, times, words, and the parse of a whole request.

A Qt-free package low in the layers: it imports only ``events`` and ``config`` (never the
channel list, the connectors or the planners); the planners and the capabilities use it. What
it needs to know of a facility (the letters of its device names, the words of its channel
list, its time zone) is handed in by the caller.

* ``request_length``: how long a request may be (``MAX_REQUEST_CHARS``), and why.
* ``request``: the parse of a whole request into an intent, targets, a quantity, a time, a
  reference and the words used or left over. Its docstring names the grammar.
* ``parsed_request``: what a parse holds (``Request``, ``TimeSlot``, ``Vocabulary``).
* ``clauses``: the clauses of a request, the verb leading each, questions and negations; a
  change taken back, the devices a request refuses ("don't touch HCM 3") and the reading asked
  in place of a change taken back.
* ``device_names``: device names typed with a space ("qd 08"), said letter by letter or by the
  letters' names ("queue f forty seven"), bare numbers listed after one ("hcm 10 & 11"), and
  values given to a device without a verb ("QD08 to 98 A").
* ``later_changes``: a change placed at a later moment ("set QF 1 to 121 at 18:00"), never
  held for it; an item of a list held for later or only noted ("(c) QF 21 +1 A is for
  tomorrow, not now") set aside, the others asked.
* ``screen_quotes``: readings copied from a screen before a request ("alarm panel:
  SR07C:IG13:Pressure HIGH 6.2e-09 Torr. What's IG14 next to it saying?"): left out, their
  names where the request's pronouns point at them.
* ``pasted_tables``: a table or a form pasted into a request (a CSV, a spreadsheet's columns,
  e-log lines, "device: / new: / reason:") said as one request; a change only when a line
  orders it or its header names new values, never beside a hold.
* ``one_of_a_kind``: one device named by its kind alone ("the undulator gap"), which a channel
  list of several asks about.
* ``which_answers``: the answer to "which one do you mean?" ("ID 9", "9", "the one in sector
  4", "all of them"): the request asked about, with the device named.
* ``time_slots``: the time words and clock times of a request.
* ``canonical_forms``: the request said the way the capabilities' parsers read it.
* ``rewordings``: phrasings said another way before the parse ("put them on one plot", "give
  0.2 A to VCM 9", "undo whatever happened to X in the last hour"), reasons and refused
  changes left out.
* ``discourse``: the part of a message that asks, apart from what it tells: discourse markers
  ("per the handover", "first thing"), statements beside the request ("the logbook says ...",
  "users finished their scan"); a pronoun of the request takes the device or subject that was
  told.
* ``relayed_requests``: a request relayed from a beamline said as the operator's own ("ID07 is
  asking for a 10 mm gap" sets the ID07 gap), bound to the asker's device only for what a
  beamline has.
* ``indirect_requests``: what should be, said as the change: a device that moves ("VCM33 needs
  to come down by 0.25 A"), a value judged best ("HCM24 would be happier at 0.6 A"), a wish
  ("it'd be good if ... were 100 kV higher"), a change asked in the passive, a purpose or an
  observation left out.
* ``conditions``: a change with a condition said first, the way the writer reads it ("...,
  but only if the lifetime is above 8 h", "current above 495 mA? then ...").
* ``item_lists``: a list written in lines, bullets or slashes, or under a shared head
  ("booster: current / energy"), said as one list; items to read beside a change said as the
  reading, then the change ("1) tunes 2) ID09 gap -> 14 mm").
* ``command_lines``: the EPICS tools' forms said in words ("caget -a X", "caput X 0.3",
  "caput A $(caget -t B)", "hcm20 -= 0.1", "qf1 *= 1.01"); shell patterns of names are the
  channel finder's (``channels.patterns``).
* ``notation``: a physicist's notation said in words ("Qy", "V_RF", "σ(BPM20 x)", "ΔI(QD16) =
  -0.5 A").
* ``checks``: a reading checked against a threshold ("within 0.01 of nominal", "anything
  beyond ±0.1 mm", "the worst gauge"), told apart from what it reads.
* ``change_phrasings``: changes said another way (another language's order, corrections, a
  copy with an offset, factors, nudges, wishes, a change suggested as a question).
* ``copy_phrasings``: another device's value given, said as a copy ("QD12 should be QD10
  minus half an amp", "-> whatever QF17 is sitting at", "half the ID09 gap", "80 % of the ID11
  gap", "match the RF voltage setpoint to its readback").
* ``word_order``: changes said in another language's word order and prepositions ("the QF 29
  make more with 1 ampere", "make less the QD 38 of two percent", "the q.f.21 please set on
  121.5 A", "first you show me X, after you make it 0.5 A less").
* ``terse_writes``: writes said tersely or of a group ("hcms in sec 11 all off pls (0)", "half
  an amp on vcm 26", "LT > 8 h → RF V SP 2.4 MV", "sector 8 hcms, each 0.1 A"), and a terse
  question of the limits ("vcm 13 +3a ok or over the limit").
* ``shortenings``: a word shortened the way a facility does ("lt", "pres", "vlt"), read by the
  words of its own channel list (the channel finder uses it too).
* ``targets``: the items of a list of channel phrases, the qualifiers and roles they lend each
  other, the words of other slots they drop, a quantity named alone read as measured, and what
  a group leaves out (``LEFT_OUT``: "all the gauges except sector 5"), which the channel finder
  takes away.
* ``references``: what a change takes its value from (another channel by a relation of
  equality whatever verb leads it, the archive, a golden value).
* ``follow_ups``: a follow-up as the previous parse with the slots the new turn names replaced.
* ``pronoun_follow_ups``: a follow-up that names no channel ("→ 94 then", "half amp down",
  "what was it at midnight?", "give QF33 the same, like this one") on the channels just read.
* ``corrections``: a correction of the previous answer ("wrong one, I meant HCM 14", "you read
  the wrong gauges, I wanted sector 8", "wrong unit, in mbar please"): what was meant, in the
  place of what was wrong.
* ``slot_follow_ups``: a follow-up made only of slots (a role, a statistic, "now", a shift of
  the moment, a place, a plot or a table), every other word saying nothing ("max instead",
  "15 minutes later?", "sector 9 as well", "add sector 9").
* ``spelling``: a verb typed with one slip, leading a request, read as that verb; slips in
  the grammar's and the channel list's words and chat spellings ("insted", "volatge", "wat");
  a word asking for history, a statistic or a time one slip away ("hisotry", "midnihgt");
  a short verb with a letter doubled ("seet"), "too" before a number, "lsat".
* ``device_prefix_slips``: a device prefix typed with two neighbouring letters swapped ("vmc
  7", "HMC21") read as the list's one prefix that close (the finder uses it too).
* ``time_words``: times said in words ("a quarter past nine", "an hour and a half ago",
  "at 9.30", "ten to midnight") written as the time parsers read them; an hour alone at a
  past moment ("what was X at 7") is that clock time.
* ``quantities``: amounts, their units, and whether they give a value, a change, a direction,
  or a scale of the channel copied from ("half the ID09 gap").
* ``lexicon``: the generic words of a control room's English the parse knows.
* ``times``: clock hours qualified by their words ("between 1 and 2 pm", "since 7 this
  morning", "from 10 last night"), resolved to instants in the past.
* ``questions``: which requests ask for an explanation, help or a thank-you, not a value.
* ``understanding``: questions of understanding said the way operators talk, naming channel
  words ("the correctors, why they exist in both planes?", "emittance vs orbit — difference?",
  "gap closing → orbit moves. why?"), told apart from questions of the machine's state.
* ``time_points``: the clock and date words of a moment ("09:30", "yesterday at 10").
* ``time_parsing``: a moment or a range of the archive, in the machine's time zone; a moment
  of a restore is one instant with its date, never a range ending now.
* ``write_parsing``: the target value of a write (absolute, relative, percent, comparative).
* ``write_states``: the named states a write can ask for ("open", "close", "on", "off").
* ``numbers``: number words ("three", "twenty-four"), amounts spelled out ("two point five"),
  and numbers typed in other conventions ("0,5 A", "1,500 A", "2½ hours").
* ``units``: the unit words an operator types and conversion between units (pint).
* ``words``: tokens, light stemming, stop words, change verbs and capability scores.
"""
