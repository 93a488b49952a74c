"""The WSGI entry point, for any WSGI server (``squares serve`` runs the same app with
granian: `service.serve.app_server`)."""

from service.http.app import create_app

app = create_app()
