"""Adapters to agent frameworks, each behind its own extra (imported only when used)."""
