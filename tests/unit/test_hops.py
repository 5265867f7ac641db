"""Second-hop expansion words: what the best hits add, rare, names first."""

from __future__ import annotations

from langmem_es.core.hops import expansion_terms


def test_names_the_question_lacks_come_first():
    best = ["My sister Lurena started a new job.", "Lurena says the Quintaro office is lovely."]
    window = best + ["I started a new course.", "The new office is far.", "A new week starts."]
    terms = expansion_terms("Where does my sister work now?", best, window, n_terms=3)
    assert terms[0] == "lurena" and "quintaro" in terms
    assert "sister" not in terms and "new" not in terms  # asked already / common to all


def test_nothing_to_add():
    assert expansion_terms("hello there", ["hello there"], ["hello there"]) == []
    assert expansion_terms("anything", [], []) == []
