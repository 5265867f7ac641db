# generated from the _async twin by scripts/unasync.py — do not edit
