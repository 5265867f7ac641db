"""Faults, bad input and load on a real Elasticsearch (and the SQLite backend)."""
