"""Generated training and evaluation data (episodes, statement pairs); no I/O beyond caches."""
