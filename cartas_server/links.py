"""A link too long gets a page saying so, in every form Cartas is served.

    python -m cartas_server.links notebooks [voila options...]   # Voilà, as `make serve` runs it

Decided behaviour:
- tornado, as Voilà and jupyter-server start it, reads at most 64 KB of a request's start line
  and headers and then drops the connection without a word: a learner who follows a link with
  a query string over about 64 KB (a scenario link pasted twice, a chat app that mangled it)
  sees the browser's own "connection reset" and nothing else;
- here the server reads up to MAX_HEADERS (2.1 MB: Chromium's longest URL, 2 MB, fits, and it
  bounds what one connection may make the server hold), and a request whose target (path and
  query) is over MAX_LINK (64 KB) is answered 414 with a short page, in Portuguese and English,
  saying the link is too long and what to do, with a link to the index of the lessons beside
  the dashboard the link named (`index_of`; none when it named no dashboard); nothing behind
  it (Voilà, a kernel) sees it;
- every other request goes to the application unchanged.

How each form gets it: `serve_long_links()` makes `LongLinkServer` the class tornado builds
when anything asks for an `HTTPServer` in this process (tornado's `Configurable.configure`, its
public way to choose an implementation); `LongLinkServer` is tornado's server reading headers
up to MAX_HEADERS and serving its application through `LongLinks`. It is called
- by `make serve` (`python -m cartas_server.links`, `main`, before Voilà starts);
- by standalone Voilà started from the repository (`voila notebooks`, reading voila.json):
  building the identity provider voila.json names (`cartas_server.browsers`), which Voilà does
  before it listens;
- by jupyter-server (Binder, `jupyter server`, JupyterHub's single-user servers) as the server
  extension `cartas_server.links`, which Cartas' etc/jupyter/jupyter_server_config.json enables
  (`ServerApp.jpserver_extensions`): jupyter-server loads its extensions before it builds its
  HTTP server (jupyter-server has no setting of its own for the header size).

Under JupyterHub the request first passes the hub's proxy (configurable-http-proxy, on node),
whose HTTP parser answers a request line and headers over 16 KB (node's default) with a bare
431 and no page, before the proxy sees it (the proxy has no option of its own for it). Cartas'
hub configuration (deploy/jupyterhub/values.yaml) raises node's limit to MAX_HEADERS
(`NODE_OPTIONS=--max-http-header-size=2200000` in the proxy's environment,
`proxy.chp.extraEnv`), so the link reaches the learner's server and its page; and the hub
itself, which gets what the proxy routes to no server (her server stopped, the hub's own
pages), calls `serve_long_links()` from its configuration (`hub.extraConfig`). Without the
first, the learner sees the browser's own "HTTP ERROR 431" page.
"""
from __future__ import annotations

import re
from html import escape

from tornado import httputil
from tornado.httpserver import HTTPServer

MAX_LINK = 64 * 1024
MAX_HEADERS = 2_200_000

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


_DASHBOARD = re.compile(r"((?:/[\w.~-]+)*/voila/render/(?:[\w.~-]+/)*)[\w.~-]+\.ipynb")


def index_of(target: str) -> str | None:
    """The index of the lessons beside the dashboard a link names (`.../voila/render/[FOLDER/]
    NAME.ipynb`: the same folder's index.ipynb, so it is right under `make serve`, jupyter-server
    and a hub user's prefix alike), or None when the link names no dashboard. Only plain path
    segments count, so the page never links to another host (`//host/...`)."""
    path = target.split("?", 1)[0]
    found = _DASHBOARD.fullmatch(path) if len(path) <= 1024 else None
    return found.group(1) + "index.ipynb" if found else None


def too_long_page(size: int, index: str | None = None) -> bytes:
    """The page a link over MAX_LINK gets (both languages: the page cannot know which), with a
    link to `index` when there is one."""
    parts = []
    for lang in ("pt", "en"):
        said = TEXT["said"][lang].format(size=size // 1024, most=MAX_LINK // 1024)
        back = (f"<p><a href='{escape(index, quote=True)}'>{escape(TEXT['index'][lang])}</a></p>"
                if index else "")
        parts.append(f"<section lang='{lang}'><h1>{escape(TEXT['title'][lang])}</h1>"
                     f"<p>{escape(said)}</p><p>{escape(TEXT['todo'][lang])}</p>{back}</section>")
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
            body = too_long_page(len(target), index_of(target))
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


class LongLinkServer(HTTPServer):
    """tornado's HTTPServer, reading headers up to MAX_HEADERS (unless told a size) and serving
    its application through `LongLinks`."""

    def initialize(self, request_callback, *args, max_header_size=None, **kwargs):
        if isinstance(request_callback, httputil.HTTPServerConnectionDelegate) \
                and not isinstance(request_callback, LongLinks):
            request_callback = LongLinks(request_callback)
        super().initialize(request_callback, *args, max_header_size=max_header_size or MAX_HEADERS,
                           **kwargs)


def serve_long_links() -> None:
    """Make every HTTPServer this process builds from now on a `LongLinkServer` (idempotent)."""
    if HTTPServer.configured_class() is not LongLinkServer:
        HTTPServer.configure(LongLinkServer)


def _jupyter_server_extension_points():
    """jupyter-server's extension protocol: this module is the extension."""
    return [{"module": "cartas_server.links"}]


def _load_jupyter_server_extension(serverapp) -> None:
    """Loaded before jupyter-server builds its HTTP server: that server will be a LongLinkServer."""
    serve_long_links()
    serverapp.log.info("Cartas: links over %d KB get a page saying they are too long", MAX_LINK // 1024)


def main() -> None:
    """`python -m cartas_server.links notebooks [voila options...]`: Voilà, serving through
    `LongLinkServer` whatever its configuration names."""
    from voila.app import Voila  # here, so the hub (which has no Voilà) can import this module

    serve_long_links()
    Voila.launch_instance()

if __name__ == "__main__":
    main()
