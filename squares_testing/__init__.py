"""What the tests and the benchmarks share: one home for each helper.

Why a top-level package: the benchmarks run as scripts (``.venv/bin/python
benchmarks/load.py``, from the repository or from anywhere else), so whatever they
share with the tests must be importable without a ``sys.path`` edit. ``./dev``
puts the checkout on its venv's path (a ``squares-checkout.pth`` file), so
``import squares_testing`` works in pytest, in a benchmark script and in
``scripts/run_tests.py``. The wheel leaves it out: it is not the product
(``[tool.setuptools.packages.find]``; tests/packaging/test_wheel.py checks). Only the
standard library is imported at import time; ``service`` and third-party packages
are imported where they are used.

Modules, one job each:

- `net`: the loopback address, free ports, a plain HTTP status probe;
- `processes`: /proc readings (children, RSS, CPU), process groups, SIGTERM;
- `server`: the real service as ``squares serve`` runs it (`Server`, `start_server`,
  `running_server`) and other server processes, with the one health wait;
- `inprocess`: the in-thread ASGI server (`asgi_server`), as ``squares serve`` runs
  the app, with the app's objects at hand;
- `profiling`: app server workers under cProfile and their summed profile;
- `client`: `ApiClient`, the keep-alive JSON client of the loopback server;
- `traffic`: many clients playing whole games through the API, what they saw, what
  was acknowledged and whether the store kept it;
- `play`: playing a game to its end (the domain, the services, the API);
- `greedy`: a simple strategy (the first square, no box given away);
- `worst`, `crafted`: worst-case positions and games for the budgets;
- `throwaway_postgres`, `throwaway_redis`, `nginx`: the launchers;
- `stats`: `percentile`;
- `results`: benchmark figures as JSON.
"""
