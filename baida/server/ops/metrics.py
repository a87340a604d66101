"""Prometheus metrics of one hall process (``/metrics``)."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class Metrics:
    """Counters and gauges of the hall; a registry of its own (tests make many halls).
    ``queued``: how many messages this process has queued to its clients so far (the
    connections count them in a plain integer; the metrics read it at each scrape)."""

    def __init__(self, queued: Callable[[], int]) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge("baida_tables", "tables by status", ["status"], registry=r)
        self.connections = Gauge("baida_connections", "open table connections", registry=r)
        self.players = Gauge("baida_players_seated", "people seated at tables", registry=r)
        self.messages_in = Counter("baida_messages_in", "client messages received", registry=r)
        self.messages_out = Counter("baida_messages_out", "messages sent to clients (all kinds)",
                                    registry=r)
        self.refusals = Counter("baida_refusals", "client messages refused", ["code"],
                                registry=r)
        self.actions = Counter("baida_actions", "actions taken from people", registry=r)
        self.hands = Counter("baida_hands_finished", "hands finished", registry=r)
        self.latency = Histogram(
            "baida_action_latency_seconds",
            "from a person's action to its messages being queued to every seat",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.logins = Counter("baida_logins", "logins by outcome", ["outcome"], registry=r)
        self.reports = Counter("baida_reports", "people reported to the operator by others at "
                               "their table", registry=r)
        self.masked = Counter("baida_chat_masked", "chat messages shown with words of the "
                              "operator's list masked", registry=r)

        self._scrape_hooks: list[Callable[[], None]] = []
        # the hot path counts in plain integers; the counters catch up at each scrape
        self.pending_in = 0
        self._queued = queued
        self._out_counted = queued()  # at the last scrape (one hall per process)
        self.pending_actions = 0

    def on_scrape(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` before each rendering (gauges that are cheaper to count then)."""
        self._scrape_hooks.append(hook)

    def refused(self, code: str) -> None:
        self.refusals.labels(code=code).inc()

    def report(self) -> None:
        self.reports.inc()

    def chat_masked(self) -> None:
        self.masked.inc()

    def action(self) -> None:
        self.pending_actions += 1

    def hand_finished(self) -> None:
        self.hands.inc()

    def render(self) -> bytes:
        for hook in self._scrape_hooks:
            hook()
        for counter, name in ((self.messages_in, "pending_in"), (self.actions, "pending_actions")):
            counter.inc(getattr(self, name))
            setattr(self, name, 0)
        queued = self._queued()
        self.messages_out.inc(queued - self._out_counted)
        self._out_counted = queued
        return generate_latest(self.registry)
