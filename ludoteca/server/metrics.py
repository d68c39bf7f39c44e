"""Prometheus metrics: tables by status, connected clients, actions and their latency."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

STATUSES = ("open", "playing", "finished")


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.tables = Gauge(
            "ludoteca_tables", "Tables in memory, by status", ["status"], registry=self.registry
        )
        self.clients = Gauge(
            "ludoteca_connected_clients", "Open table WebSockets", registry=self.registry
        )
        self.actions = Counter(
            "ludoteca_actions", "Actions applied (people and bots)", registry=self.registry
        )
        self.latency = Histogram(
            "ludoteca_action_seconds",
            "From an action's arrival at its table to every viewer's message queued, the "
            "write to the store included",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self.messages = Counter(
            "ludoteca_messages_sent", "Table messages queued for clients", registry=self.registry
        )
        self.errors = Counter(
            "ludoteca_refusals", "Typed errors sent, by code", ["code"], registry=self.registry
        )

        self.bot_moves = Gauge(
            "ludoteca_bot_moves",
            "Bot moves chosen since start, by where: this process's pool or a worker's (queue)",
            ["where"], registry=self.registry,
        )
        self.cycle_collections = Histogram(
            "ludoteca_cycle_collection_seconds",
            "The event loop stopped by the timed cycle collector (cycle_collector.py), by "
            "generation",
            ["generation"], buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
            registry=self.registry,
        )
        self.cycle_garbage = Counter(
            "ludoteca_cycle_garbage",
            "Unreachable objects the timed cycle collector found, by generation: what each "
            "generation's walks are for",
            ["generation"], registry=self.registry,
        )
        self.analysis_parts = Gauge(
            "ludoteca_analysis_parts",
            "Parts of post-game analyses made since start, by where: this process's pool or a "
            "worker's (queue)",
            ["where"], registry=self.registry,
        )
        self.hints = Gauge("ludoteca_hints", "The coach's hints chosen since start",
                           registry=self.registry)
        self.catch_ups = Counter(
            "ludoteca_catch_ups",
            "Tables read again from the store because another process changed them",
            registry=self.registry,
        )

    def watch_bots(self, answered: dict[str, int]) -> None:
        self.bot_moves.labels("local").set_function(lambda: answered["local"])
        self.bot_moves.labels("queue").set_function(lambda: answered["queue"])

    def watch_analysis(self, parts: dict[str, int]) -> None:
        self.analysis_parts.labels("local").set_function(lambda: parts["local"])
        self.analysis_parts.labels("queue").set_function(lambda: parts["queue"])
        self.hints.set_function(lambda: parts["hints"])

    def watch_tables(self, by_status: Callable[[], dict[str, int]]) -> None:
        """Count tables by status when the metrics are read, not each time one opens or
        closes: walking every live table at each change was 6% of the server's time with 600
        tables (benchmarks/server.py)."""
        def count(status: str) -> Callable[[], float]:
            return lambda: by_status().get(status, 0)

        for status in STATUSES:
            self.tables.labels(status).set_function(count(status))

    def cycle_collection(self, generation: int, seconds: float, found: int) -> None:
        self.cycle_collections.labels(str(generation)).observe(seconds)
        self.cycle_garbage.labels(str(generation)).inc(found)

    def action(self, seconds: float) -> None:
        self.actions.inc()
        self.latency.observe(seconds)

    def sent(self, n: int) -> None:
        self.messages.inc(n)

    def render(self) -> bytes:
        return generate_latest(self.registry)
