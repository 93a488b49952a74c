"""The Alembic script directory (``env.py``, ``script.py.mako``, ``versions/``).

A package only so that the wheel ships it next to `service`; Alembic loads the
files itself (`service.store.migrations.MIGRATIONS_DIR` is this directory).
"""
