"""The WSGI entry point: `gunicorn wsgi:app`."""

from service.app import create_app

app = create_app()
