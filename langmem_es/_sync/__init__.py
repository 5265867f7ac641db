# generated from the _async twin by scripts/unasync.py — do not edit
"""Async code written once; ``langmem_es._sync`` is generated from it (scripts/unasync.py)."""
