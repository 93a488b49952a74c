"""The migrations, one module each (Alembic skips this ``__init__``)."""
