/**
 * A cheap stand-in for comparing JSON texts: the keys and primitive values of a plain JSON-like
 * value, in order, with markers for structure. Two values whose lists are equal (=== item by
 * item) have the same JSON text; building and comparing the lists costs a walk over the value
 * (strings compared by reference first), not an encoding of it.
 */
const ARRAY = Symbol('array');
const OBJECT = Symbol('object');
const END = Symbol('end');

export type Leaves = unknown[];

function walk(v: unknown, out: Leaves): void {
  if (v === null || typeof v !== 'object') {
    out.push(v);
    return;
  }
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    out.push(JSON.stringify(v));
    return;
  }
  if (Array.isArray(v)) {
    out.push(ARRAY, v.length);
    for (const x of v) walk(x, out);
    return;
  }
  out.push(OBJECT);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (x === undefined || typeof x === 'function') continue; // as JSON.stringify leaves them out
    out.push(k);
    walk(x, out);
  }
  out.push(END);
}

export function leavesOf(v: unknown): Leaves {
  const out: Leaves = [];
  walk(v, out);
  return out;
}

export function sameLeaves(a: Leaves | undefined, b: Leaves): boolean {
  if (a === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
