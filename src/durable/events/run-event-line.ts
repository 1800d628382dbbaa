/**
 * The local file format of the event record: one JSON object per line ("\n"-terminated), each
 * a RunEvent with a `v` version. Decoding checks the shape by hand and answers undefined for a
 * line it cannot read (the reader skips it), so an unknown or damaged line never stops a run.
 */
import type { RunEvent } from './run-event';

export const EVENT_LINE_VERSION = 1;

export function encodeEventLine(e: RunEvent): string {
  return `${JSON.stringify({ v: EVENT_LINE_VERSION, ...e })}\n`;
}

type Obj = Record<string, unknown>;
const isStr = (v: unknown): v is string => typeof v === 'string';
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isStrs = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
const optStr = (v: unknown): boolean => v === undefined || isStr(v);

function usageOk(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const u = v as Obj;
  return isNum(u.inputTokens) && isNum(u.outputTokens) && isNum(u.dollars) && (u.cacheReadTokens === undefined || isNum(u.cacheReadTokens)) && (u.cacheWriteTokens === undefined || isNum(u.cacheWriteTokens));
}

function valid(o: Obj): boolean {
  switch (o.type) {
    case 'opened':
      return isBool(o.resumed) && isBool(o.reask) && isNum(o.restarts) && isStr(o.phase) && isNum(o.turn) && optStr(o.nextCall);
    case 'workspace-checked':
      return isNum(o.files) && (o.after === 'restart' || o.after === 'question');
    case 'reply':
      return isNum(o.turn) && usageOk(o.usage) && isNum(o.calls);
    case 'ladder':
      return isStr(o.callId) && isStr(o.tool) && (o.rung === 'rerun' || o.rung === 'lookup' || o.rung === 'person') && isStr(o.outcome) && optStr(o.by);
    case 'answer':
      return isStr(o.callId) && isStr(o.tool) && (o.answer === 'approve' || o.answer === 'deny') && optStr(o.by);
    case 'stopped':
      return ['done', 'paused', 'cancelled', 'error'].includes(o.how as string) && optStr(o.code) && optStr(o.message) && (o.files === undefined || isStrs(o.files));
    case 'workspace-restored':
    case 'workspace-accepted':
      return isStrs(o.files);
    case 'undone':
      return isStrs(o.restored) && isStrs(o.deleted);
    case 'checks':
      return (
        isNum(o.passed) &&
        isNum(o.total) &&
        Array.isArray(o.failed) &&
        o.failed.every((f) => typeof f === 'object' && f !== null && isStr((f as Obj).name) && isStr((f as Obj).detail))
      );
    default:
      return false;
  }
}

/** The event on a line (without its "\n"), or undefined when the line is not one this version can read. */
export function decodeEventLine(line: string): RunEvent | undefined {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return undefined;
  const rec = o as Obj;
  if (rec.v !== EVENT_LINE_VERSION || !isStr(rec.at) || !valid(rec)) return undefined;
  const { v: _v, ...event } = rec;
  return event as unknown as RunEvent;
}
