"""The game domain: plain Python, no Flask or SQLAlchemy (RULES F, I, T, A, E, V)."""
