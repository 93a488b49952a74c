"""The pages' blueprint: its templates and assets, what every page's template is given
(`page_settings`, the row helpers of `rows`), and the services the pages call."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from ..domain.names import NAME_MAX
from ..protocol.headers import live_origin
from ..services import Services
from .rows import TEMPLATE_GLOBALS

bp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
               static_url_path="/assets")


@bp.app_context_processor
def page_settings() -> dict[str, Any]:
    """The domain's limits the pages' forms state (``maxlength``), and the origin of
    the live streams (`headers.live_origin`; "" for the page's own)."""
    return {"name_max": NAME_MAX, "live_origin": live_origin()}


def page_services() -> Services:
    services: Services = current_app.extensions["squares"]
    return services


for _name, _helper in TEMPLATE_GLOBALS.items():
    bp.add_app_template_global(_helper, _name)

