"""How the evidence for a reading is weighed, the same way in identify and fuzz.

A reading (a switch value, or a rule mutant) is supported where it gives the engine's very answer and the rules
do not.  It is refuted where the engine plays the rule as written and the reading would not (identify: a case
pinning it that the engine passes and the reading would fail; fuzz: a state on which the engine agrees with the
reference and the reading would not), and doubted where the engine fails under it too and no rule mutant explains
that (identify's failures pinning it: another deviation, or a wrong reading).  One refutation among many supports
does not refute a reading (an engine with the reading may have another quirk there): it stands while its support
is more than REFUTE times its refutations and DOUBT times its doubts.
"""

from __future__ import annotations

REFUTE = 10  # support needed per refutation: one state against 35 for stands, six cases against 30 do not
DOUBT = 3  # support needed per doubt (a failure the reading does not explain is weaker evidence than a pass)


def stands(support: int, refuted: int, doubted: int = 0) -> bool:
    """Whether a reading with `support` answers for it, `refuted` answers where the engine plays the rules as
    written against it and `doubted` unexplained failures under it stands."""
    return not (refuted or doubted) or support > REFUTE * refuted + DOUBT * doubted
