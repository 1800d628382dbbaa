/**
 * One PostgreSQL database used as a run store: a connection pool (node-postgres), the schema
 * brought up to date on first use (migrations.ts), and errors that say what is wrong. TLS and
 * every other connection option come from the URL as libpq spells them (sslmode, sslrootcert,
 * sslcert, sslkey, ...), passed through to node-postgres; the password from the URL, the
 * `password` option (the editor's SecretStorage), or PGPASSWORD.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { Pool, type PoolClient, type QueryResult, type QueryResultRow } from 'pg';
import { StoreUnavailableError } from '../../core/errors';
import { LATEST_VERSION, MIGRATIONS } from './migrations';
import { redactUrl } from '../store-url';

export interface PgOptions {
  /** The password when the URL has none (else PGPASSWORD). */
  password?: string;
  /** Most connections at once; default 10. */
  maxConnections?: number;
  /** A query that has not answered after this long fails (its outcome unknown); default 30 s. */
  queryTimeoutMs?: number;
}

/** Any key; pg_advisory_xact_lock's 64-bit number for "migrating the triage schema". */
const MIGRATION_LOCK = 7_041_991_001;

/** Errors that mean the server cannot be reached or will not let us in. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'ECONNRESET',
  'EAI_AGAIN',
  '28P01',
  '28000',
  '3D000',
  '57P03',
]);

export class PgDatabase {
  readonly where: string;
  private readonly pool: Pool;
  private migrated: Promise<void> | undefined;
  private closed = false;

  constructor(
    readonly url: string,
    o: PgOptions = {},
  ) {
    this.where = redactUrl(url);
    this.pool = new Pool({
      connectionString: url,
      ...(o.password !== undefined ? { password: o.password } : {}),
      max: o.maxConnections ?? 10,
      query_timeout: o.queryTimeoutMs ?? 30_000,
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
      application_name: `durable-triage ${os.hostname()} ${process.pid} ${path.basename(process.argv[1] ?? 'node')}`,
    });
    // An idle connection the server dropped must not become an uncaught error.
    this.pool.on('error', () => undefined);
  }

  /** A StoreUnavailableError for errors that mean the server is out of reach; others unchanged. */
  explain(e: unknown): unknown {
    const code = (e as { code?: string })?.code;
    const msg = (e as Error)?.message ?? String(e);
    if ((code !== undefined && UNREACHABLE.has(code)) || /timeout exceeded when trying to connect|Connection terminated/i.test(msg)) {
      return new StoreUnavailableError(this.where, msg);
    }
    return e;
  }

  /** Brings the schema up to date once per process (idempotent across processes). */
  ready(): Promise<void> {
    this.migrated ??= this.migrate().catch((e: unknown) => {
      this.migrated = undefined;
      throw this.explain(e);
    });
    return this.migrated;
  }

  private async migrate(): Promise<void> {
    await this.inTransaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await c.query('CREATE TABLE IF NOT EXISTS triage_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())');
      const r = await c.query<{ v: number | null }>('SELECT max(version) AS v FROM triage_migrations');
      const at = r.rows[0].v ?? 0;
      if (at > LATEST_VERSION) {
        throw new StoreUnavailableError(this.where, `its schema is at version ${at}, newer than this program's ${LATEST_VERSION}; update Durable Triage`);
      }
      for (const m of MIGRATIONS) {
        if (m.version <= at) continue;
        await c.query(m.sql);
        await c.query('INSERT INTO triage_migrations (version) VALUES ($1)', [m.version]);
      }
    });
  }

  /**
   * One statement (its own transaction), after the schema is ready. With a `name`, the statement
   * is prepared once per connection under that name and later calls only bind and execute it
   * (no parsing or planning): for the statements sent on every save. A name stands for one SQL
   * text for the life of the process.
   */
  async query<R extends QueryResultRow = QueryResultRow>(sql: string, params: unknown[] = [], name?: string): Promise<QueryResult<R>> {
    await this.ready();
    try {
      return await this.pool.query<R>(name === undefined ? { text: sql, values: params } : { name, text: sql, values: params });
    } catch (e) {
      throw this.explain(e);
    }
  }

  /** Runs `work` in one transaction on one connection (BEGIN, COMMIT; ROLLBACK on a throw), after the schema is ready. */
  async transaction<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
    await this.ready();
    return this.inTransaction(work);
  }

  private async inTransaction<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
    let c: PoolClient;
    try {
      c = await this.pool.connect();
    } catch (e) {
      throw this.explain(e);
    }
    let broken = false;
    try {
      await c.query('BEGIN');
      const out = await work(c);
      await c.query('COMMIT');
      return out;
    } catch (e) {
      try {
        await c.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw this.explain(e);
    } finally {
      c.release(broken);
    }
  }

  /** Closes the pool (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
