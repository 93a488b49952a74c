"""The Flask app: its factory (`app`), its error handlers (`errors`: JSON on API paths,
the site's own pages elsewhere), the hooks every request passes (`hooks`: rate
`limits`, then the security headers, request ids and the access line of
`service.protocol`) and its JSON answers (`json`). The API's endpoints are
`service.api`'s, the pages `service.web`'s."""
