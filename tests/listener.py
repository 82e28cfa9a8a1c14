"""A real HTTP server on 127.0.0.1, in a thread, that records every request: for
tests that show a command fetched nothing."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class Listener:
    url: str
    requests: list[str] = field(default_factory=list)


@contextmanager
def listening() -> Iterator[Listener]:
    """A server that answers every GET with the schema ``{"type": "integer"}``."""
    heard: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            heard.append(self.path)
            body = b'{"type": "integer"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield Listener(f"http://127.0.0.1:{server.server_address[1]}/schema.json", heard)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
