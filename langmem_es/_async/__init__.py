"""Async code written once; ``langmem_es._sync`` is generated from it (scripts/unasync.py)."""
