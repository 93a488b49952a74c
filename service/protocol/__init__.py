"""HTTP as this service speaks it, shared by the three adapters over HTTP (the JSON API,
the pages and the live streams): every error's status (`statuses`) and shape
(`answers`), the headers every answer carries (`headers`), request ids and the access
log line, what a path or a cursor may name (`paths`), an event as JSON
(`event_json`) and a game's events as Server-Sent Events text (`event_pages`)."""
