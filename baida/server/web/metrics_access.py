"""Who may read ``/metrics`` (``--metrics-from``); a module the command line can import.

Its counts move with what people do: read while a table pauses after a discard, the count of
actions or of messages sent says that a person there had a claim window to answer. So only
the operator's scraper reads them: by default this machine, never through a proxy.
"""

from __future__ import annotations

METRICS_FROM = "127.0.0.1/8,::1"  # this machine


FORWARDING = ("x-forwarded-for", "forwarded", "x-real-ip")  # what proxies add


def proxied(headers: object) -> bool:
    """Whether a request came through a proxy (it carries a forwarding header)."""
    return any(name in headers for name in FORWARDING)  # type: ignore[operator]
