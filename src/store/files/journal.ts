/**
 * Reading a run's journal: the JSON-lines file of records appended since the snapshot (see
 * journal-record.ts for one record). Pure: bytes in, records or a verdict out.
 *
 * A record counts only once its newline is written. One append is in flight at a time and
 * each is synced before the next starts, so a crash can damage at most the LAST record:
 * - a torn tail (bytes after the last good record that hold no more than one line, i.e. a
 *   prefix of one record, or one damaged final line) is the crash landing mid-append: it is
 *   dropped and the previous save stands;
 * - a damaged record with a good one after it, two damaged lines, a record that was
 *   checksummed but does not read, or records out of sequence can only be real damage:
 *   CorruptCheckpointError naming the file.
 */
import { CorruptCheckpointError } from '../../core/errors';
import { verifyLine, type JournalRecord } from './journal-record';

export interface JournalScan {
  records: JournalRecord[];
  /** Bytes up to the end of the last good record: where a torn tail is cut. */
  goodBytes: number;
  /** Bytes after goodBytes (a torn tail, dropped). */
  tornBytes: number;
}

const NL = 0x0a;

function where(index: number, start: number): string {
  return `record ${index + 1} (at byte ${start})`;
}

/** Splits, verifies and sequence-checks a journal's bytes. Throws CorruptCheckpointError(file) on real damage. */
export function scanJournal(buf: Buffer, file: string): JournalScan {
  const records: JournalRecord[] = [];
  let goodBytes = 0;
  let pos = 0;
  let index = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(NL, pos);
    const end = nl === -1 ? buf.length : nl;
    const v = nl === -1 ? undefined : verifyLine(buf.subarray(pos, end));
    if (v?.ok) {
      const prev = records[records.length - 1];
      if (prev && v.record.seq !== prev.seq + 1) {
        throw new CorruptCheckpointError(file, `${where(index, pos)} is save ${v.record.seq}, but save ${prev.seq} comes before it`);
      }
      records.push(v.record);
      goodBytes = end + 1;
    } else if (v && !v.ok && v.intact) {
      throw new CorruptCheckpointError(file, `${where(index, pos)} has a good checksum but ${v.reason}`);
    } else if (nl !== -1 && nl + 1 < buf.length) {
      // A damaged line with more bytes after it: not a torn last append.
      const reason = v && !v.ok ? v.reason : 'it is damaged';
      throw new CorruptCheckpointError(file, `${where(index, pos)} is damaged (${reason}) and more records follow it`);
    } else {
      break; // the torn tail: the rest of the file is this one line
    }
    pos = end + 1;
    index++;
  }
  return { records, goodBytes, tornBytes: buf.length - goodBytes };
}
