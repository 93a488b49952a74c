"""The JSON API: its endpoints (a flask-smorest blueprint, `blueprint`), the OpenAPI
document and the readable API page (`openapi`, which `init_app` puts on the app).

The package itself imports nothing: the streams server shares its plain modules
(`paths`, `statuses`) without importing Flask's API stack.
"""
