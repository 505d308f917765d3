"""Benchmarks: LoCoMo loading and scoring, the LTP-like state bench and the ledger bench."""
