// The player's mutes (屏蔽): whose chat they do not read. Kept with the account (GET, PUT and
// DELETE /api/me/mutes) so they hold on every device the player signs in on; a copy per
// account in localStorage serves at once and while the hall cannot be reached. Mutes made in
// this browser before the hall kept them are sent up once: an older page kept them as a list
// under "baida.muted", the key that holds the sound switch ("1"/"0", js/sound.js), which it
// overwrote; the list is taken and removed, the switch is left alone.

import { api, get } from "./api.js";

const LEGACY_KEY = "baida.muted";
const MAX = 500;

let owner = null;  // the account whose mutes ``muted`` holds
let muted = new Set();
let loading = null;  // the fetch of ``owner``'s mutes in flight

function cacheKey(id) {
  return `baida.muted.${id}`;
}

/** The account ids kept under ``key`` (null: no list there). */
function readIds(key) {
  try {
    const ids = JSON.parse(localStorage.getItem(key) || "null");
    return Array.isArray(ids) ? ids.filter((n) => Number.isInteger(n) && n > 0) : null;
  } catch {
    return null;
  }
}

function keep() {
  try { localStorage.setItem(cacheKey(owner), JSON.stringify([...muted].slice(-MAX))); } catch { /* not kept */ }
}

function own(me) {
  if (!me || owner === me.id) return;
  owner = me.id;
  muted = new Set(readIds(cacheKey(owner)) || []);
  loading = null;
}

/** Whether ``me`` (the signed-in account) has muted account ``user``. */
export function isMuted(me, user) {
  own(me);
  return muted.has(user);
}

/** Fetch ``me``'s mutes from the hall (each table opened asks again: a mute made on another
 * device holds from the next table, with no reload); resolves true when they differ from what
 * was shown. */
export function loadMutes(me) {
  own(me);
  if (!me) return Promise.resolve(false);
  if (!loading) {
    loading = (async () => {
      let list = (await get("/api/me/mutes")).muted;
      const legacy = readIds(LEGACY_KEY);
      if (legacy) {
        for (const id of legacy.filter((n) => n !== me.id && !list.includes(n))) {
          try { list = (await api("PUT", `/api/me/mutes/${id}`)).muted; } catch { /* gone, or too many */ }
        }
        try { localStorage.removeItem(LEGACY_KEY); } catch { /* kept */ }
      }
      const before = [...muted].sort().join();
      muted = new Set(list);
      keep();
      return before !== [...muted].sort().join();
    })().catch(() => false).finally(() => { loading = null; });
  }
  return loading;
}

/** Mute account ``user`` for ``me`` (``on``) or no longer: at once here, then with the hall
 * (the hall's answer is the list kept). Rejects, the change undone, when the hall refuses. */
export async function setMuted(me, user, on) {
  own(me);
  const flip = (yes) => {
    if (yes) muted.add(user); else muted.delete(user);
    keep();
  };
  flip(on);
  let answer;
  try {
    answer = await api(on ? "PUT" : "DELETE", `/api/me/mutes/${user}`);
  } catch (err) {
    if (owner === me.id) flip(!on);
    throw err;
  }
  if (owner === me.id) {
    muted = new Set(answer.muted);
    keep();
  }
}
