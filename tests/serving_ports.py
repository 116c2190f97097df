"""A loopback port with nothing listening on it."""
import socket


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # released when the socket closes: nobody listens there
