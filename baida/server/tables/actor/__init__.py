"""One table of the hall: the single owner of its match, an actor with an inbox.

Everything that touches a table arrives as a message in its inbox (a client's message, a
connection opening or closing, a timer firing, a bot's answer, an operator's command) and
is handled in order by the table's own task, so no timer races a move. The game itself is
``baida.table.TableDriver``'s; the actor adds people and connections, seats and readiness,
bots in worker processes, persistence (an action is durable before anyone sees what it
caused), the 银子 ledger at the end of each hand, chat and spectators.

``TableActor`` is one object with one inbox, put together from parts with one job each, a
small mixin in a module of its own (the lower ones first):

- ``state``: what a table holds (its seats, the driver, the hand in play, the inbox) and
  the questions asked of its seats;
- ``outbox``: what the table sends: its summary (to everyone there and to the lobby), the
  welcome, the game's messages and acks, snapshots, a hand's result;
- ``storage``: making actions durable before what they caused is sent, and standing still,
  clocks stopped, while the store fails;
- ``bots``: the decisions of bots and 托管, thought in the worker processes;
- ``match``: the match's life: starting it, dealing each hand, driving the hand after every
  message, finishing hands (the ledger) and the match;
- ``escapes``: a person leaving mid-match, and an operator's suspension, which goes the same way;
- ``seating``: sitting, standing, readiness, starting, adding bots;
- ``restart``: going on with a hand or a match that was in play when the server stopped;
- ``table``: the actor itself: its task and inbox, connections, dispatching the clients'
  messages, chat, closing.

Why mixins and not separate objects: the parts share one state that only the table's own
task touches (the seats, the driver, the hand in play, an outage); split into objects, each
part would reach into the others' fields, and one owner would be harder to see, not easier.
As mixins, every part inherits only the parts it calls (``state`` under ``outbox``,
``storage`` and ``bots``; those under ``match``; ``match`` under ``escapes`` and
``restart``; ``escapes`` under ``seating``; all of them under ``table``), so the order of
the parts reads in their bases. The one call the other way is declared in ``state``:
an act deferred through an outage goes back through the actor's dispatch.
"""

from .state import BETWEEN, CLOSED, PLAYING, WAITING, SeatState, TableInfo
from .storage import STORAGE_BACK, STORAGE_DOWN
from .table import TableActor

__all__ = [
    "BETWEEN",
    "CLOSED",
    "PLAYING",
    "STORAGE_BACK",
    "STORAGE_DOWN",
    "WAITING",
    "SeatState",
    "TableActor",
    "TableInfo",
]
