"""Voilà as `make serve` runs it, with one difference: a link too long gets a page saying so.

    python -m cartas_server.links notebooks [voila options...]

Decided behaviour:
- tornado, as Voilà starts it, reads at most 64 KB of a request's start line and headers and
  then drops the connection without a word: a learner who follows a link with a query string
  over about 64 KB (a scenario link pasted twice, a chat app that mangled it) sees the browser's
  own "connection reset" and nothing else;
- here the server reads up to MAX_HEADERS (2.1 MB: Chromium's longest URL, 2 MB, fits, and it
  bounds what one connection may make the server hold), and a request whose target (path and
  query) is over MAX_LINK (64 KB) is answered 414 with a short page, in Portuguese and English,
  saying the link is too long and what to do; nothing behind it (Voilà, a kernel) sees it;
- every other request goes to Voilà unchanged.

`CartasVoila` is Voilà's application with its `listen` replaced by one that serves through
`LongLinks` (tornado's public `HTTPServerConnectionDelegate`); its options and configuration
(voila.json) are Voilà's.
"""
from __future__ import annotations

from html import escape

import tornado.ioloop
from tornado import httputil
from tornado.httpserver import HTTPServer
from voila.app import Voila

MAX_LINK = 64 * 1024
MAX_HEADERS = 2 * 1024 * 1024 + 100 * 1024

TEXT = {
    "title": {"pt": "Link longo demais", "en": "Link too long"},
    "said": {"pt": "Este link é longo demais para o servidor da aula ({size} KB; o máximo é {most} KB).",
             "en": "This link is too long for the class server ({size} KB; the most is {most} KB)."},
    "todo": {"pt": "Ele pode ter sido colado duas vezes ou cortado. Peça o link de novo a quem o mandou, "
                   "ou abra a lição pelo índice.",
             "en": "It may have been pasted twice or mangled. Ask whoever sent it for the link again, "
                   "or open the lesson from the index."},
    "index": {"pt": "Ir para o índice das lições", "en": "Go to the index of the lessons"},
}


def too_long_page(size: int) -> bytes:
    """The page a link over MAX_LINK gets (both languages: the page cannot know which)."""
    parts = []
    for lang in ("pt", "en"):
        said = TEXT["said"][lang].format(size=size // 1024, most=MAX_LINK // 1024)
        parts.append(f"<section lang='{lang}'><h1>{escape(TEXT['title'][lang])}</h1>"
                     f"<p>{escape(said)}</p><p>{escape(TEXT['todo'][lang])}</p>"
                     f"<p><a href='/voila/render/index.ipynb'>{escape(TEXT['index'][lang])}</a></p></section>")
    return ("<!DOCTYPE html><html lang='pt'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{TEXT['title']['pt']} / {TEXT['title']['en']}</title></head>"
            f"<body class='cartas-link-too-long' style='font-family:sans-serif;text-align:center;padding:2em'>"
            f"{''.join(parts)}</body></html>").encode()


class _Checked(httputil.HTTPMessageDelegate):
    """One request: answered here when its target is over MAX_LINK, else passed on."""

    def __init__(self, inner: httputil.HTTPMessageDelegate, connection: httputil.HTTPConnection):
        self.inner = inner
        self.connection = connection
        self.refused = False

    def headers_received(self, start_line, headers):
        target = getattr(start_line, "path", "")
        if len(target) > MAX_LINK:
            self.refused = True
            body = too_long_page(len(target))
            self.connection.write_headers(
                httputil.ResponseStartLine("HTTP/1.1", 414, "URI Too Long"),
                httputil.HTTPHeaders({"Content-Type": "text/html; charset=UTF-8",
                                      "Content-Length": str(len(body)), "Connection": "close",
                                      "Cache-Control": "no-store"}),
                body)
            self.connection.finish()
            return None
        return self.inner.headers_received(start_line, headers)

    def data_received(self, chunk):
        if not self.refused:
            return self.inner.data_received(chunk)
        return None

    def finish(self):
        if not self.refused:
            self.inner.finish()

    def on_connection_close(self):
        if not self.refused:
            self.inner.on_connection_close()


class LongLinks(httputil.HTTPServerConnectionDelegate):
    """`application`'s requests, but a target over MAX_LINK answered with `too_long_page`."""

    def __init__(self, application: httputil.HTTPServerConnectionDelegate):
        self.application = application

    def start_request(self, server_conn, request_conn):
        return _Checked(self.application.start_request(server_conn, request_conn), request_conn)

    def on_close(self, server_conn):
        self.application.on_close(server_conn)


class CartasVoila(Voila):
    """Voilà, listening through `LongLinks` on exactly its `ip` and `port` (no retries:
    `make serve` checks the port first)."""

    def listen(self):
        server = HTTPServer(LongLinks(self.app), max_header_size=MAX_HEADERS)
        try:
            server.listen(self.port, self.ip)
        except OSError as error:
            self.log.critical("Cartas: cannot listen on %s:%s: %s", self.ip, self.port, error.strerror)
            self.exit(1)
        self.log.info("Voilà is running at:\n%s", self.display_url)
        self.ioloop = tornado.ioloop.IOLoop.current()
        try:
            self.ioloop.start()
        except KeyboardInterrupt:
            self.log.info("Stopping...")
        finally:
            self.stop()


main = CartasVoila.launch_instance

if __name__ == "__main__":
    main()
