"""The Flask app's HTTP side: the app factory (`app`), the hooks every request passes
(`hooks`: rate `limits`, security `headers`, `request_ids`, the `access_log`) and its
JSON answers (`json`). The API's endpoints are `service.api`'s, the pages
`service.web`'s."""
