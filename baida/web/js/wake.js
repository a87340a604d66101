// Keeps a phone's screen on while the page shows a table (the Screen Wake Lock API, where the
// browser has it): a screen that dims and locks between one's turns hands the seat to 托管. The
// browser drops the lock whenever the page is hidden; it is taken again when the page is shown.

export function keepScreenOn() {
  const wakeLock = navigator.wakeLock;
  if (!wakeLock) return () => {};
  let lock = null;
  let asking = false;
  let stopped = false;
  const take = async () => {
    if (stopped || asking || lock || document.visibilityState !== "visible") return;
    asking = true;
    try {
      const got = await wakeLock.request("screen");
      if (stopped) {
        got.release().catch(() => {});
        return;
      }
      lock = got;
      got.addEventListener("release", () => { if (lock === got) lock = null; });
    } catch {
      // refused (battery saver, a browser's policy): the screen behaves as it would anyway
    } finally {
      asking = false;
    }
  };
  document.addEventListener("visibilitychange", take);
  take();
  return () => {
    stopped = true;
    document.removeEventListener("visibilitychange", take);
    if (lock) lock.release().catch(() => {});
    lock = null;
  };
}
