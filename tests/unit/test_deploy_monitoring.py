"""The shipped monitoring examples (deploy/) read only metrics the service has."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client.metrics import MetricWrapperBase

from service.ops import metrics

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
SUFFIXES = ("_bucket", "_count", "_sum", "_total")


def known_metrics() -> set[str]:
    return {family.name for value in vars(metrics).values()
            if isinstance(value, MetricWrapperBase) for family in value.describe()}


def base_name(sample: str) -> str:
    for suffix in SUFFIXES:
        if sample.endswith(suffix):
            return sample[: -len(suffix)]
    return sample


def test_every_dashboard_query_reads_a_metric_the_service_has() -> None:
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    used = {base_name(m) for e in exprs for m in re.findall(r"squares_[a-z_]+", e)}
    assert len(exprs) >= 8 and used
    assert used <= known_metrics(), used - known_metrics()
    # and every metric the service has is on the dashboard
    assert known_metrics() <= used, known_metrics() - used


def test_the_scrape_config_targets_the_loopback_metrics_port() -> None:
    text = (DEPLOY / "prometheus.yml").read_text()
    assert "metrics_path: /metrics" in text and '"127.0.0.1:9464"' in text
