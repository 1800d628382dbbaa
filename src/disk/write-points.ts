/**
 * The named crash points inside a file write: where a test (or the crash sweep) can kill the
 * process while the atomic writer (atomic-write.ts) or the file backend's journal
 * (src/store/files/journal-file.ts) writes. The same words appear in log lines and in the crash
 * sweep's table; the other crash points and the hook are src/store/crash-points.ts's.
 */

/**
 * Points inside one checkpoint write where a test (or the sweep) can crash the process. A save
 * appends a journal record (JournalTorn, JournalAppended); a compaction, and a run's first
 * write, replace the snapshot (TempSynced, Renamed). Either way a save passes two points.
 */
export enum WritePoint {
  /** The temp file is written and fsynced; the old checkpoint is still in place. */
  TempSynced = 'write:temp-synced',
  /** The temp file was renamed over the checkpoint; the directory is not yet fsynced. */
  Renamed = 'write:renamed',
  /** Half of a journal record is appended, unsynced: a crash here leaves a torn tail, cut on the next open. */
  JournalTorn = 'write:journal-torn',
  /** A journal record is appended and synced: the save is durable. */
  JournalAppended = 'write:journal-appended',
}
