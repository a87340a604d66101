"""How a hall is run: where its data lives, where it listens, its limits and tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..nodes.role import NodeRole
from ..ops.paths import default_data_dir
from ..tables.pace import MIN_BOT_TIME, UNATTENDED_PACE
from ..tables.standing import DEFAULT_STANDING, StandingTables
from .metrics_access import METRICS_FROM


@dataclass(slots=True)
class HallSettings:
    """Everything ``baida serve`` can be told (its flags and environment variables)."""

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = field(default_factory=default_data_dir)
    database: str | None = None  # a SQLAlchemy URL; None: SQLite in data_dir
    starting_balance: int = 1000
    bot_workers: int = 1  # processes for bots (0: on the event loop, for tests)
    warm_up: bool = True
    secure_cookies: bool = False  # set behind HTTPS
    allowed_origins: tuple[str, ...] = ()  # besides the hall's own
    standing: tuple[StandingTables, ...] = DEFAULT_STANDING
    argon2_fast: bool = False  # cheap password hashing (tests only)
    sqlite_synchronous: str = "NORMAL"
    client_rate: float = 8.0  # messages a second a connection may send on average
    client_burst: float = 24.0  # ... and at once
    db_process: bool = True  # the tables' actions, deals and hand ends in a process of their own
    node: NodeRole | None = None  # one of several nodes (``baida serve --nodes``); None: alone
    guests_per_hour: int = 10  # guests one address may make in an hour (0: no limit)
    signins_per_address: int = 40  # sign-in attempts per address in 10 minutes (0: no limit)
    request_timeout: float = 10.0  # seconds for a request's headers and body
    connections_per_address: int = 64  # open HTTP and socket connections of one address
    sockets_per_address: int = 32  # table sockets of one address
    sockets_per_account: int = 8  # table sockets of one account
    forwarded_allow_ips: str = ""  # proxies whose X-Forwarded-For is believed ("": none)
    metrics_from: str = METRICS_FROM  # who may read /metrics (never through a proxy)
    password_workers: int = 1  # threads hashing passwords at once
    chat_filter: Path | None = None  # the operator's words the chat masks (one a line)
    # the least seconds between two bot or 托管 decisions at a table nobody is connected to
    unattended_pace: float = UNATTENDED_PACE
    # the least seconds a bot (or 托管) takes over a turn at a table a player makes
    min_bot_time: float = MIN_BOT_TIME

    @property
    def database_url(self) -> str:
        if self.database:
            return self.database
        return str(self.data_dir / "hall.db")

    @property
    def secret_path(self) -> Path:
        return self.data_dir / "secret.key"
