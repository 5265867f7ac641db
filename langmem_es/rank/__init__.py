"""Learning to rank recall's candidates: what the model reads of a candidate (:mod:`.features`),
the shipped model (:mod:`.model`), and the step recall runs (:func:`learned_order`)."""

from .features import FEATURES, features
from .model import MODEL_FILE, LearnedRanker, load_ranker
from .order import candidate_of_hit, learned_order

__all__ = ["FEATURES", "MODEL_FILE", "LearnedRanker", "candidate_of_hit", "features", "learned_order", "load_ranker"]
