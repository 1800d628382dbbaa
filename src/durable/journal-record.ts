/**
 * One journal record: a JSON line holding what changed since the previous save.
 *
 *   {"seq":7,"crc":"1c291ca3","from":41,"messages":[...],"set":{"turns":5,...},"unset":["pending"]}
 *
 * - seq: the save's number. The snapshot holds save S; the journal holds S+1, S+2, ... in order.
 * - crc: CRC-32 (8 hex digits) of the line without its crc field: the bytes `{"seq":7,`
 *   followed by everything after `"crc":"1c291ca3",` (the newline excluded).
 * - from: how many messages of the previous state are kept; `messages` are appended to them
 *   (an append-only save keeps them all; a changed or shrunk prefix keeps fewer, 0 for a full record).
 * - set: the top-level state fields other than messages whose value changed, with the new value;
 *   unset: the fields that were removed. Omitted when empty.
 */
import * as zlib from 'node:zlib';

export interface RecordChange {
  from: number;
  /** JSON text of each appended message. */
  messages: string[];
  /** [field, JSON text of its new value]. */
  set: Array<[string, string]>;
  unset: string[];
}

export interface JournalRecord {
  seq: number;
  from: number;
  messages: unknown[];
  set: Record<string, unknown>;
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

/** The record line for save `seq`, newline included, as bytes ready to append. */
export function encodeRecord(seq: number, c: RecordChange): Buffer {
  let tail = `"from":${c.from}`;
  if (c.messages.length > 0) tail += `,"messages":[${c.messages.join(',')}]`;
  if (c.set.length > 0) tail += `,"set":{${c.set.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
  if (c.unset.length > 0) tail += `,"unset":${JSON.stringify(c.unset)}`;
  tail += '}';
  const body = Buffer.from(tail);
  const prefix = `{"seq":${seq},`;
  const crc = zlib.crc32(body, zlib.crc32(prefix));
  return Buffer.concat([Buffer.from(`${prefix}"crc":"${hex8(crc)}",`, 'latin1'), body, NEWLINE]);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

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
  if (!isObject(raw)) return { ok: false, intact: true, reason: 'it is not a JSON object' };
  const { from, messages = [], set = {}, unset = [] } = raw;
  if (typeof from !== 'number' || !Number.isSafeInteger(from) || from < 0) return { ok: false, intact: true, reason: '"from" is not a count' };
  if (!Array.isArray(messages)) return { ok: false, intact: true, reason: '"messages" is not an array' };
  if (!isObject(set) || Object.hasOwn(set, 'messages')) return { ok: false, intact: true, reason: '"set" is not an object of fields other than messages' };
  if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string' && k !== 'messages')) {
    return { ok: false, intact: true, reason: '"unset" is not a list of field names' };
  }
  return { ok: true, record: { seq: Number(head[1]), from, messages, set, unset: unset as string[] } };
}
