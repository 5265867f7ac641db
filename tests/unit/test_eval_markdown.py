"""The README's recall table is generated from an eval run's results (langmem_es_eval.markdown)."""

from __future__ import annotations

import json

from langmem_es_eval.markdown import main, table


def results() -> dict:
    def system(r10: float) -> dict:
        cat = {"recall@10": r10}
        return {
            "overall": {"recall@10": r10, "recall@5": r10 / 2, "mrr@10": r10 / 3},
            "by_category": {"1": cat, "2": cat},
            "adversarial": {"recall@10": 0.5},
        }

    return {
        "metadata": {
            "backend": "sqlite",
            "headline_categories": [1],
            "categories": {"1": "multi-hop", "2": "adversarial"},
            "dataset": {"questions_by_category": {"1": 3, "2": 4}},
        },
        "systems": {"langmem_es": system(0.75), "bm25": system(0.5)},
    }


def test_ours_last_in_bold_with_the_categories_of_the_run() -> None:
    lines = table(results()).splitlines()
    assert lines[0] == "| system | recall@10 | recall@5 | MRR@10 | multi-hop (3) | adversarial, cat. 2 (4) |"
    assert lines[2] == "| BM25 | 0.500 | 0.250 | 0.167 | 0.500 | 0.500 |"
    assert lines[3] == "| **langmem-es** (sqlite backend) | **0.750** | **0.375** | **0.250** | 0.750 | 0.500 |"


def test_a_missing_file_is_one_line(tmp_path, capsys) -> None:
    assert main([str(tmp_path / "none.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    path = tmp_path / "r.json"
    path.write_text(json.dumps(results()))
    assert main([str(path)]) == 0
