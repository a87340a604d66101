"""``/metrics`` of a hall of several nodes: every node's metrics, whichever node is scraped.

Each node renders its own metrics every ``PUBLISH_SECONDS`` (and whenever it is scraped) into
the shared directory; a scrape answers with the latest text of every node, each sample
labelled with its ``node``. So another node's figures are at most that many seconds old,
and a sum over ``node`` gives the hall's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

PUBLISH_SECONDS = 5.0


def merge(texts: dict[str, str]) -> bytes:
    """The Prometheus text of several nodes' expositions (node name -> text) as one, every
    sample labelled with its node; families of the same name become one."""
    families: dict[str, Metric] = {}
    for node in sorted(texts):
        for family in text_string_to_metric_families(texts[node]):
            merged = families.get(family.name)
            if merged is None:
                merged = families[family.name] = Metric(family.name, family.documentation,
                                                        family.type, family.unit)
            merged.samples.extend(
                Sample(s.name, {"node": node, **s.labels}, s.value, s.timestamp, s.exemplar)
                for s in family.samples)

    class Merged:
        def collect(self) -> Iterator[Metric]:
            return iter(families.values())

    registry = CollectorRegistry(auto_describe=False)
    registry.register(Merged())  # type: ignore[arg-type]
    return generate_latest(registry)


class NodeMetrics:
    """Publishes this node's metrics to the directory, and renders every node's."""

    def __init__(self, node: str, render: Callable[[], bytes], directory: Any) -> None:
        self.node = node
        self.render = render
        self.directory = directory  # a RedisDirectory: put_metrics, node_metrics
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._publish_soon()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _publish_soon(self) -> None:
        self.publish()
        self._timer = asyncio.get_running_loop().call_later(PUBLISH_SECONDS,
                                                            self._publish_soon)

    def publish(self) -> str:
        text = self.render().decode()
        self.directory.put_metrics(self.node, text)
        return text

    def render_all(self) -> bytes:
        """Every node's latest metrics (this node's as of now)."""
        texts = self.directory.node_metrics()
        texts[self.node] = self.publish()
        return merge(texts)
