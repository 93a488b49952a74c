"""Followers of the event store: read every stream in global order after a
checkpoint, write their rows and the new checkpoint in one transaction."""
