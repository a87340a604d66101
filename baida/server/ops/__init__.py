"""Operations: structured logs, metrics, the stall watchdog, where data lives."""
