/**
 * The local file format of the event record: one JSON object per line ("\n"-terminated), each
 * a RunEvent (RunEventSchema) with a `v` version. A line that does not parse or match answers
 * undefined (the reader skips it), so an unknown or damaged line never stops a run.
 */
import { z } from 'zod';
import { RunEventSchema, type RunEvent } from './run-event';

export const EVENT_LINE_VERSION = 1;

const VersionSchema = z.object({ v: z.literal(EVENT_LINE_VERSION) });

export function encodeEventLine(e: RunEvent): string {
  return `${JSON.stringify({ v: EVENT_LINE_VERSION, ...e })}\n`;
}

/** The event on a line (without its "\n"), or undefined when the line is not one this version can read. */
export function decodeEventLine(line: string): RunEvent | undefined {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!VersionSchema.safeParse(o).success) return undefined;
  const r = RunEventSchema.safeParse(o);
  return r.success ? r.data : undefined;
}
