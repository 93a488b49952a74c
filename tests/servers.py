"""The real ASGI server (uvicorn, with `squares serve`'s settings) on a loopback port
in a thread of the test process, for tests that need real HTTP and the app's objects
at hand (the live feed's, the browser tests'): `benchmarks._server.asgi_server`,
which the API benchmark uses too."""

from benchmarks._server import asgi_server

__all__ = ["asgi_server"]
