// One table's WebSocket (/ws/tables/{id}), reopened after a drop: the hall then sends
// welcome and a snapshot (resync), so the page carries on where it was.

const RETRY_MS = [300, 1000, 2000, 4000, 8000];

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
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${this.tableId}`;
  }

  open() {
    this.stopped = false;
    clearTimeout(this.timer);
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.tries = 0;
      ws.send(JSON.stringify({ type: "hello", protocol: 1 }));
      this.onStatus(this.everOpen ? "reopened" : "open");
      this.everOpen = true;
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "error" && ["replaced", "closed"].includes(message.code)) this.stopped = true;
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped || [4401, 4403, 4404].includes(event.code)) {
        this.onStatus("closed", event.code);
        return;
      }
      this.onStatus("reconnecting");
      const wait = RETRY_MS[Math.min(this.tries, RETRY_MS.length - 1)];
      this.tries += 1;
      this.timer = setTimeout(() => this.open(), wait);
    });
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
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000, "bye");
    }
  }
}
