/**
 * One journal record: a JSON line holding what changed since the previous save.
 *
 *   {"seq":7,"crc":"1c291ca3","from":41,"messages":[...],"set":{"turns":5,...},"patch":{"files":{"a.js":{...}}},"unset":["pending"]}
 *
 * - seq: the save's number. The snapshot holds save S; the journal holds S+1, S+2, ... in order.
 * - crc: CRC-32 (8 hex digits) of the line without its crc field: the bytes `{"seq":7,`
 *   followed by everything after `"crc":"1c291ca3",` (the newline excluded).
 * - from: how many messages of the previous state are kept; `messages` are appended to them
 *   (an append-only save keeps them all; a changed or shrunk prefix keeps fewer, 0 for a full record).
 * - set: the top-level state fields other than messages whose value changed, with the new value;
 *   patch: for a field holding an object that only gained or changed entries, those entries;
 *   unset: the fields that were removed. Each is omitted when empty.
 */
import * as zlib from 'node:zlib';
import { z } from 'zod';
import { keyedRecord, parseSchema, SchemaError } from '../../core/schema';

/** What a record holds, as values (encoded once, together, by encodeRecord). */
export interface RecordChange {
  from: number;
  /** Appended messages. */
  messages: unknown[];
  /** [field, its new value]. */
  set: Array<[string, unknown]>;
  /** [field, [entry, the entry's new value][]]. */
  patch: Array<[string, Array<[string, unknown]>]>;
  unset: string[];
}

export interface JournalRecord {
  seq: number;
  from: number;
  messages: unknown[];
  set: Record<string, unknown>;
  patch: Record<string, Record<string, unknown>>;
  unset: string[];
}

/** What one line of a journal turned out to be. */
export type LineVerdict =
  | { ok: true; record: JournalRecord }
  /** `intact`: the checksum matched, so the line is as written and cannot be a torn append. */
  | { ok: false; intact: boolean; reason: string };

const HEAD = /^\{"seq":(0|[1-9][0-9]{0,14}),"crc":"([0-9a-f]{8})",/;
/** Longest possible head: `{"seq":` + 15 digits + `,"crc":"` + 8 + `",`. */
const HEAD_MAX = 7 + 15 + 8 + 8 + 2;

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

const NEWLINE = Buffer.from('\n');

/** An object with these own entries, in order ("__proto__" defined as an ordinary key, not assigned). */
function objectOf(kv: Array<[string, unknown]>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of kv) {
    if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    else o[k] = v;
  }
  return o;
}

/** The record line for save `seq`, newline included, as bytes ready to append. */
export function encodeRecord(seq: number, c: RecordChange): Buffer {
  const body: Record<string, unknown> = { from: c.from };
  if (c.messages.length > 0) body.messages = c.messages;
  if (c.set.length > 0) body.set = objectOf(c.set);
  if (c.patch.length > 0) body.patch = objectOf(c.patch.map(([k, entries]) => [k, objectOf(entries)]));
  if (c.unset.length > 0) body.unset = c.unset;
  // One encoding of the whole body: `{"from":...}`; the line is its head, then the body without its "{".
  const bytes = Buffer.from(JSON.stringify(body));
  const tail = bytes.subarray(1);
  const prefix = `{"seq":${seq},`;
  const crc = zlib.crc32(tail, zlib.crc32(prefix));
  return Buffer.concat([Buffer.from(`${prefix}"crc":"${hex8(crc)}",`, 'latin1'), tail, NEWLINE]);
}

/** A record's body as parsed after its checksum matched; messages and fields are checked again when the state is rebuilt (RunStateSchema). */
const RecordBodySchema = z.object({
  from: z.number().int().nonnegative(),
  messages: z.array(z.unknown()).default([]),
  set: keyedRecord(z.unknown())
    .refine((o) => !Object.hasOwn(o, 'messages'), { error: 'holds messages, which only "messages" and "from" change' })
    .default({}),
  patch: keyedRecord(keyedRecord(z.unknown()))
    .refine((o) => !Object.hasOwn(o, 'messages'), { error: 'holds messages, which only "messages" and "from" change' })
    .default({}),
  unset: z.array(z.string().refine((k) => k !== 'messages', { error: 'cannot remove messages' })).default([]),
});

/** Checks one line (without its newline): the checksum first, then the shape. */
export function verifyLine(line: Buffer): LineVerdict {
  const head = HEAD.exec(line.subarray(0, HEAD_MAX).toString('latin1'));
  if (!head) return { ok: false, intact: false, reason: 'it does not start like a record' };
  const prefix = `{"seq":${head[1]},`;
  const crc = zlib.crc32(line.subarray(head[0].length), zlib.crc32(prefix));
  if (hex8(crc) !== head[2]) return { ok: false, intact: false, reason: 'its checksum does not match' };
  let raw: unknown;
  try {
    raw = JSON.parse(line.toString('utf8'));
  } catch (e) {
    return { ok: false, intact: true, reason: `it is not valid JSON (${(e as Error).message})` };
  }
  let body: z.output<typeof RecordBodySchema>;
  try {
    body = parseSchema(RecordBodySchema, raw, '');
  } catch (e) {
    if (e instanceof SchemaError) return { ok: false, intact: true, reason: e.message };
    throw e;
  }
  return { ok: true, record: { seq: Number(head[1]), ...body } };
}
