// One table's WebSocket (/ws/tables/{id}), reopened after a drop: the hall then sends
// welcome and a snapshot (resync), so the page carries on where it was. A connection that
// goes silent without closing (a phone changing networks, a sleeping laptop) is noticed by a
// heartbeat: the page pings every few seconds, and when nothing at all has come back for
// longer than the silence limit it gives that connection up and opens a new one. A table
// that is moving between the hall's nodes is tried again for a while (MOVING_MS). When the
// page comes back to the screen (a phone's browser brought to the front, a laptop woken) or
// the device is back online, the page does not wait for its timers: a connection waiting to
// be reopened is reopened at once, and an open one is asked for a word and given up if none
// comes within PROBE_MS (a phone's frozen tab may hold a connection that died meanwhile).

const RETRY_MS = [300, 1000, 2000, 4000, 8000];
// A table whose node is restarting, or that is moving to another node, is briefly away
// where the socket lands: the hall answers 1013 (try again). The page tries again this many
// times, these pauses apart (about 20 s in all), before it says so. A table that is gone for
// good (closed, never made, or private) is 4404 (no_table): said at once.
const MOVING_MS = [300, 600, 1000, 1500, 2000, 3000, 3000, 4000, 4000];
const MOVING_CODES = [1013];
// ``window.baidaConfig`` may set ``heartbeatMs``, ``silenceMs``, ``probeMs`` and ``retryMs``
// (tests change them)
const HEARTBEAT_MS = 5000;
const SILENCE_MS = 12000;
const PROBE_MS = 2000;

export class TableSocket {
  constructor(tableId, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.tries = 0;
    this.stopped = false;
    this.timer = null;
    this.everOpen = false;
    this.welcomed = false;  // the table answered once: a later absence is a move, not a bad link
    const config = globalThis.baidaConfig || {};
    this.heartbeatMs = config.heartbeatMs || HEARTBEAT_MS;
    this.silenceMs = config.silenceMs || SILENCE_MS;
    this.heartbeat = null;
    this.heard = 0;
    this.moving = 0;  // tries in a row that found the table away
    this.movingMs = config.movingMs || MOVING_MS;
    this.retryMs = config.retryMs || RETRY_MS;
    this.probeMs = config.probeMs || PROBE_MS;
    this.probe = null;
    this.waking = () => this.wake();
    this.onVisibility = () => { if (document.visibilityState === "visible") this.wake(); };
    this.listening = false;
  }

  /** Listen for the page's return to the screen and the network's return (until close). */
  listen() {
    if (this.listening) return;
    this.listening = true;
    document.addEventListener("visibilitychange", this.onVisibility);
    window.addEventListener("online", this.waking);
    window.addEventListener("pageshow", this.waking);
  }

  unlisten() {
    this.listening = false;
    document.removeEventListener("visibilitychange", this.onVisibility);
    window.removeEventListener("online", this.waking);
    window.removeEventListener("pageshow", this.waking);
  }

  /** The page is in front again or the network is back: check the connection now. */
  wake() {
    if (this.stopped) return;
    if (this.ws === null) {
      if (this.timer === null) return;  // nothing waits to be reopened
      this.tries = 0;
      this.open();
      return;
    }
    const ws = this.ws;
    if (ws.readyState !== WebSocket.OPEN || this.probe !== null) return;
    const asked = performance.now();
    ws.send(JSON.stringify({ type: "ping", id: "wake" }));
    this.probe = setTimeout(() => {
      this.probe = null;
      if (this.ws === ws && this.heard < asked) this.giveUp(ws);
    }, this.probeMs);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${this.tableId}`;
  }

  open() {
    this.stopped = false;
    clearTimeout(this.timer);
    this.timer = null;
    this.listen();
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.tries = 0;
      this.heard = performance.now();
      ws.send(JSON.stringify({ type: "hello", protocol: 1 }));
      this.startHeartbeat(ws);
      this.onStatus(this.everOpen ? "reopened" : "open");
      this.everOpen = true;
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;  // a connection given up: nothing of it counts any more
      this.heard = performance.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "error" && ["replaced", "closed", "unattended", "broken"].includes(message.code)) this.stopped = true;
      // the table is away for a moment: the close that follows decides (see MOVING_MS)
      if (message.type === "error" && ["no_table", "try_again", "moving"].includes(message.code)) return;
      if (message.type === "welcome") {
        this.moving = 0;
        this.welcomed = true;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.stopHeartbeat();
      if (!this.stopped && MOVING_CODES.includes(event.code) && this.moving < this.movingMs.length) {
        this.onStatus(this.welcomed ? "moving" : "finding");
        this.timer = setTimeout(() => this.open(), this.movingMs[this.moving]);
        this.moving += 1;
        return;
      }
      if (this.stopped || [4401, 4403, 4404, ...MOVING_CODES].includes(event.code)) {
        this.onStatus("closed", event.code);
        return;
      }
      this.onStatus("reconnecting");
      const wait = this.retryMs[Math.min(this.tries, this.retryMs.length - 1)];
      this.tries += 1;
      this.timer = setTimeout(() => this.open(), wait);
    });
  }

  startHeartbeat(ws) {
    this.stopHeartbeat();
    this.heartbeat = setInterval(() => {
      if (this.ws !== ws) return;
      if (performance.now() - this.heard > this.silenceMs) {
        this.giveUp(ws);
        return;
      }
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping", id: "heartbeat" }));
    }, this.heartbeatMs);
  }

  stopHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = null;
    clearTimeout(this.probe);
    this.probe = null;
  }

  /** A silent connection: forget it at once (its close may take minutes) and open another. */
  giveUp(ws) {
    this.ws = null;
    this.stopHeartbeat();
    try {
      ws.close(4000, "silent");
    } catch {
      // already closing
    }
    this.onStatus("reconnecting");
    this.tries += 1;
    this.open();
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Drop the connection as a network failure would (tests, and "continue here"). */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = null;
    this.unlisten();
    this.stopHeartbeat();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000, "bye");
    }
  }
}
