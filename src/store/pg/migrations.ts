/**
 * The PostgreSQL schema, as numbered migrations run on first use (database.ts): each runs once,
 * in order, in one transaction with the version it brings, under an advisory lock so that two
 * processes starting together do not both run it. A database already at the latest version is
 * left as it is; one at a NEWER version than this program knows is refused (an older program
 * must not write a schema it does not understand).
 *
 *   triage_migrations  version, applied_at
 *   triage_runs        one row per run: the snapshot (the whole state as of snapshot_seq), the
 *                      last save's number, the lease (token, owner, expiry by the database's
 *                      clock), and what a worker picks runs by (phase, started, waiting, hold)
 *   triage_run_records one row per save since the snapshot: the same checksummed record line a
 *                      journal file holds
 *   triage_blobs       the content store: bytes by SHA-256
 *   triage_issues      the embedded tracker's issues, shared by every run of the database
 *   triage_answers     a person's answers to a paused run's questions, left for the worker that continues it
 *   triage_run_events  (2) the runs' event records: one row per event, in order (store/run-event.ts)
 *
 * (3) makes a save's update of the run's row a HOT update (heap-only: no new index entries). A
 * partial index whose predicate names a column makes every update that changes that column a
 * non-HOT one, and the workers' index named `phase`, which changes on nearly every save (model,
 * tools, model, ...). The index now names `done`, a stored generated column (phase = 'done')
 * that changes once in a run's life; `phase` is in no index.
 */
export interface Migration {
  version: number;
  what: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    what: 'runs, their records, leases, blobs, tracker issues, answers',
    sql: `
CREATE TABLE triage_runs (
  run_id        text PRIMARY KEY,
  task          text NOT NULL,
  workspace     text NOT NULL,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
  phase         text NOT NULL,
  started       boolean NOT NULL,
  waiting       text[] NOT NULL DEFAULT '{}',
  hold          text,
  snapshot      bytea NOT NULL,
  snapshot_seq  bigint NOT NULL,
  seq           bigint NOT NULL,
  lease_token   uuid,
  lease_owner   jsonb,
  lease_expires timestamptz
);
CREATE INDEX triage_runs_runnable ON triage_runs (created_at) WHERE phase <> 'done';
CREATE TABLE triage_run_records (
  run_id  text NOT NULL REFERENCES triage_runs (run_id) ON DELETE CASCADE,
  seq     bigint NOT NULL,
  record  bytea NOT NULL,
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE triage_blobs (
  sha256  text PRIMARY KEY,
  content bytea NOT NULL
);
CREATE TABLE triage_issues (
  number     integer PRIMARY KEY,
  title      text NOT NULL,
  body       text NOT NULL,
  cause      text NOT NULL,
  run_id     text,
  workspace  text,
  key        text,
  created_at timestamptz NOT NULL
);
CREATE INDEX triage_issues_key ON triage_issues (key) WHERE key IS NOT NULL;
CREATE TABLE triage_answers (
  run_id      text NOT NULL REFERENCES triage_runs (run_id) ON DELETE CASCADE,
  call_id     text NOT NULL,
  kind        text NOT NULL,
  answer      text NOT NULL,
  result      text,
  answered_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  answered_by text,
  PRIMARY KEY (run_id, kind, call_id)
);
`,
  },
  {
    version: 2,
    what: "the runs' event records (issue 13)",
    sql: `
CREATE TABLE triage_run_events (
  run_id  text NOT NULL,
  n       bigserial,
  line    text NOT NULL,
  PRIMARY KEY (run_id, n)
);
`,
  },
  {
    version: 3,
    what: 'saves update the run\'s row in place (HOT): the runnable index on a generated "done" column instead of phase (issue 19)',
    sql: `
ALTER TABLE triage_runs ADD COLUMN IF NOT EXISTS done boolean GENERATED ALWAYS AS (phase = 'done') STORED;
CREATE INDEX IF NOT EXISTS triage_runs_open ON triage_runs (created_at) WHERE NOT done;
DROP INDEX IF EXISTS triage_runs_runnable;
`,
  },
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
