"""``/metrics`` of a hall of several nodes (``baida.server.nodes.metrics``): every node's
samples, each labelled with its node, values unchanged, one family per name."""

from __future__ import annotations

from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from baida.server.nodes.metrics import NodeMetrics, merge
from baida.server.ops.metrics import Metrics


def samples(text: bytes | str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    raw = text.decode() if isinstance(text, bytes) else text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for f in text_string_to_metric_families(raw) for s in f.samples
            if not s.name.endswith("_created")}


def node_metrics(actions: int, latencies: list[float], playing: int) -> Metrics:
    m = Metrics(queued=lambda: 0)  # no connections here
    for _ in range(actions):
        m.action()
    for seconds in latencies:
        m.latency.observe(seconds)
    m.tables.labels(status="playing").set(playing)
    return m


def test_every_nodes_samples_with_its_node_label() -> None:
    a = node_metrics(3, [0.002, 0.2], playing=5)
    b = node_metrics(7, [0.03], playing=2)
    texts = {"node-0": a.render().decode(), "node-1": b.render().decode()}
    merged = merge(texts)
    got = samples(merged)
    for node, text in texts.items():
        for (name, labels), value in samples(text).items():
            assert got[(name, tuple(sorted((*labels, ("node", node)))))] == value
    assert len(got) == sum(len(samples(t)) for t in texts.values())
    assert got[("baida_actions_total", (("node", "node-0"),))] == 3
    assert got[("baida_actions_total", (("node", "node-1"),))] == 7
    count = [v for (n, labels), v in got.items() if n == "baida_action_latency_seconds_count"]
    assert sorted(count) == [1, 2]
    # one HELP and TYPE per family: a valid exposition
    text = merged.decode()
    assert text.count("# TYPE baida_action_latency_seconds histogram") == 1
    assert text.count("# TYPE baida_tables gauge") == 1


def test_a_scrape_publishes_this_node_and_reads_the_others() -> None:
    class Shared:
        def __init__(self) -> None:
            self.texts: dict[str, str] = {}

        def put_metrics(self, node: str, text: str) -> None:
            self.texts[node] = text

        def node_metrics(self) -> dict[str, str]:
            return dict(self.texts)

    shared: Any = Shared()
    a, b = node_metrics(1, [], 1), node_metrics(2, [], 1)
    NodeMetrics("node-1", b.render, shared).publish()
    here = NodeMetrics("node-0", a.render, shared)
    a.action()  # counted since: the scrape renders this node afresh
    got = samples(here.render_all())
    assert got[("baida_actions_total", (("node", "node-0"),))] == 2
    assert got[("baida_actions_total", (("node", "node-1"),))] == 2
    assert set(shared.texts) == {"node-0", "node-1"}
