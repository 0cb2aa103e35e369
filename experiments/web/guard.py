"""What keeps the browser table safe to run: request bodies of a bounded size, headers that
tell the browser to run only the page's own files, and which addresses are this machine's.

The per-game token lives with the games (experiments.web.store); the files the server may
read, with the directories (experiments.web.files).
"""

from __future__ import annotations

import ipaddress
import json

from cardsim.errors import CardsimError

MAX_BODY_BYTES = 64 * 1024  # the API's largest body is a small JSON object

# the page loads its script, styles and pictures from the server itself and nothing else:
# no inline script, no other site, no frame around it
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; "
                           "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
                           "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class BodyTooLarge(CardsimError):
    """A request body over the limit."""


def too_large_message(limit: int) -> str:
    """The 413 reply's message: what the limit is and what the API takes."""
    return (f"the request body is over {limit} bytes, the most this server reads; the API "
            f"takes small JSON objects")


class Guard:
    """ASGI middleware: refuses bodies over ``max_body`` bytes (413, by their declared
    length at once, else once that many bytes arrived) and adds the security headers to
    every response."""

    def __init__(self, app, max_body: int = MAX_BODY_BYTES):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            return await _refuse(send, self.max_body)
        seen = 0

        async def counted_receive():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BodyTooLarge(too_large_message(self.max_body))
            return message

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = list(message.get("headers", [])) + HEADERS
            await send(message)

        await self.app(scope, counted_receive, send_with_headers)


async def _refuse(send, limit: int) -> None:
    body = json.dumps({"error": too_large_message(limit)}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *HEADERS]})
    await send({"type": "http.response.body", "body": body})


def is_this_machine(host: str) -> bool:
    """Whether listening on ``host`` reaches this machine only (a loopback address or
    ``localhost``)."""
    if host.strip().lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False  # a name: it may resolve to any interface


def public_warning(host: str, port: int) -> str:
    """The line ``cardsim serve --public`` prints: who can reach the table, and what guards it."""
    return (f"cardsim serve: warning: listening on {host}:{port}, beyond this machine: anyone "
            f"who reaches it can start games and read the hand records and runs under the "
            f"directories given; each game is guarded by its token only, and nothing is "
            f"encrypted (put a TLS proxy in front for anything but a trusted network)")
