"""The browser client's files (``/static/…``): compressed for a phone's connection, and
revalidated on every load, so that after an upgrade no browser mixes a cached old module with
a new one (a module importing a name the old one lacks stops the page)."""

from __future__ import annotations

import os
from pathlib import Path

from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Scope

# Each file is asked again on every load; an unchanged one is a 304 (its ETag): a few hundred
# bytes for the thirty-odd files, against the 290 KB they weigh.
REVALIDATE = "no-cache"


class RevalidatedFiles(StaticFiles):
    """``StaticFiles`` whose answers (200 and 304 alike) say ``Cache-Control: no-cache``."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = REVALIDATE
        return response


def static_files(directory: Path) -> ASGIApp:
    """The ``/static`` app: revalidated files, gzip-compressed for a client that takes it."""
    return GZipMiddleware(RevalidatedFiles(directory=directory), minimum_size=512)
