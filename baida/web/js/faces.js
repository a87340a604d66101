// Tile faces in the project's notation ("5m", "E", "C", "f1") and their order, as baida.tiles.

export const HONOURS = "ESWNCFP";
export const SUITS = "mps";
export const ALL_FACES = [
  ...[..."mps"].flatMap((s) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${n}${s}`)),
  ..."ESWNCFP",
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `f${n}`),
];

/** The kind number of a face (0-41), as baida.tiles numbers them; -1 for anything else. */
export function kindOf(face) {
  if (typeof face !== "string") return -1;
  if (/^[1-9][mps]$/.test(face)) return SUITS.indexOf(face[1]) * 9 + Number(face[0]) - 1;
  if (/^f[1-8]$/.test(face)) return 33 + Number(face[1]);
  const h = HONOURS.indexOf(face);
  return face.length === 1 && h >= 0 ? 27 + h : -1;
}

export function isFlower(face) {
  return /^f[1-8]$/.test(face);
}

/** Faces sorted as the engine sorts a hand: the wilds first, then by kind. */
export function sortFaces(faces, wilds = []) {
  const wild = new Set(wilds);
  return [...faces].sort((a, b) => {
    const wa = wild.has(a) ? 0 : 1;
    const wb = wild.has(b) ? 0 : 1;
    return wa - wb || kindOf(a) - kindOf(b);
  });
}

/** Remove one copy of ``face`` from ``list`` in place; true if it was there. */
export function removeOne(list, face) {
  const i = list.indexOf(face);
  if (i < 0) return false;
  list.splice(i, 1);
  return true;
}
