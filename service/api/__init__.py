"""The JSON API: its endpoints (a flask-smorest blueprint, `blueprint`), the OpenAPI
document and the readable API page (`openapi`, which `init_app` puts on the app).

What it shares with the pages and the live streams (paths, statuses, the error
shape) is `service.protocol`'s.
"""
