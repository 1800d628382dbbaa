/**
 * `triage enqueue --mcp` and `triage worker` on a real PostgreSQL server: the MCP configuration
 * travels with the queued run as written (`${env:NAME}` unresolved in the store), a worker
 * resolves it from its own environment, lists the servers' tools, saves them with the run and
 * runs it with the MCP tracker (@modelcontextprotocol/server-memory, from npm); a worker without
 * the variable holds the run with a clear error; a credential header written literally is refused
 * at enqueue, and so is a tracker the file cannot serve; a worker refuses an --mcp file it cannot read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findTask } from '../../src/triage/tasks/catalog';
import { copyTreeDurable } from '../../src/disk/durable-copy';
import { openStore } from '../../src/store/open-store';
import { MCP_CONFIG_TEXT_OPTION } from '../../src/mcp/queued';
import { BIN, lastJson, triage } from '../cli/support';
import { MEMORY_SERVER } from '../mcp/support';
import { freshDatabase } from './support';

const TASK = 'cart-unknown-coupon';
const VAR = 'TRIAGE_TEST_MEMORY_FILE';
type WorkerRuns = { runs: { runId: string; ended: string; error?: string }[] };

const TRACKER = {
  file: { tool: 'create_entities', args: { entities: [{ name: '{cause}: {title}', entityType: 'issue', observations: ['{title}', '{body}'] }] } },
  list: { tool: 'search_nodes', args: { query: 'durable-triage' }, items: 'entities', title: 'observations.0', text: 'observations' },
};

function worker(url: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, 'worker', '--store', url, '--exit-when-idle', '--approve', 'yes', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', ...env },
    });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (err += d.toString()));
    c.on('close', (code) => resolve({ code, out, err }));
  });
}

async function setup(): Promise<{ dir: string; ws: string; mcp: string; memory: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-mcp-'));
  const ws = path.join(dir, 'ws');
  await copyTreeDurable(findTask(TASK).sample, ws);
  const mcp = path.join(dir, 'mcp.json');
  const servers = { memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: `\${env:${VAR}}` }, tracker: TRACKER } };
  fs.writeFileSync(mcp, JSON.stringify({ servers }));
  return { dir, ws, mcp, memory: path.join(dir, 'memory.jsonl') };
}

const issuesIn = (file: string): { name: string }[] =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string; entityType?: string; name: string })
        .filter((l) => l.type === 'entity' && l.entityType === 'issue')
    : [];

test(
  'a queued run carries its MCP configuration unresolved; the worker resolves it, saves the tools and files through the MCP tracker',
  { timeout: 180_000 },
  async () => {
    const url = await freshDatabase();
    const { ws, mcp, memory } = await setup();
    const enqueue = (w: string): string => {
      const r = triage(['enqueue', '--store', url, '--task', TASK, '--workspace', w, '--tracker', 'mcp:memory', '--mcp', mcp, '--json']);
      assert.equal(r.status, 0, r.stderr);
      return lastJson<{ runId: string }>(r.stdout).runId;
    };

    // A worker without the variable: the run is held with a clear error, nothing filed.
    const held = enqueue(ws);
    const without = await worker(url, {});
    assert.equal(without.code, 0, without.err);
    const r0 = lastJson<WorkerRuns>(without.out).runs;
    assert.deepEqual(
      r0.map((r) => [r.runId, r.ended]),
      [[held, 'held']],
    );
    assert.match(r0[0].error ?? '', new RegExp(`saved with run ${held}: server "memory" env.MEMORY_FILE_PATH uses \\$\\{env:${VAR}\\}, which is not set`));
    assert.deepEqual(issuesIn(memory), []);

    // A worker with it: the run is done, its issue filed once in the memory server.
    const ws2 = path.join(path.dirname(ws), 'ws2');
    await copyTreeDurable(findTask(TASK).sample, ws2);
    const runId = enqueue(ws2);
    const store = openStore(url);
    try {
      const queued = await store.readRun(runId);
      const text = queued.config.options?.[MCP_CONFIG_TEXT_OPTION] ?? '';
      assert.ok(text.includes(`\${env:${VAR}}`), 'saved as written');
      assert.ok(!text.includes(memory), 'the value is not in the store');
      assert.equal(queued.config.mcp, undefined, 'tools are listed by the worker');

      const withIt = await worker(url, { [VAR]: memory });
      assert.equal(withIt.code, 0, withIt.err);
      assert.deepEqual(
        lastJson<WorkerRuns>(withIt.out).runs.map((r) => [r.runId, r.ended, r.error]),
        [[runId, 'done', undefined]],
      );
      const done = await store.readRun(runId);
      assert.equal(done.phase, 'done');
      assert.ok(
        done.config.mcp?.[0].tools.some((x) => x.name === 'create_entities'),
        'the tools saved with the run',
      );
      assert.equal(done.config.options?.[MCP_CONFIG_TEXT_OPTION], text, 'still as written');
      const filed = issuesIn(memory);
      assert.equal(filed.length, 1, JSON.stringify(filed));
    } finally {
      await store.close();
    }
  },
);

test(
  'enqueue refuses a credential header written literally, and a tracker the file cannot serve (nothing is queued); a worker an --mcp file it cannot read',
  { timeout: 60_000 },
  async () => {
    const url = await freshDatabase();
    const { dir, ws, mcp } = await setup();
    const literal = path.join(dir, 'literal.json');
    fs.writeFileSync(
      literal,
      JSON.stringify({ servers: { jira: { type: 'http', url: 'https://jira.example/mcp', headers: { Authorization: 'Bearer s3cret' } } } }),
    );
    const a = triage(['enqueue', '--store', url, '--task', TASK, '--workspace', ws, '--mcp', literal]);
    assert.equal(a.status, 2, a.stderr);
    assert.match(a.stderr, /server "jira" header "Authorization" is written as it is; .*write it as \$\{env:NAME\}/);
    const b = triage(['enqueue', '--store', url, '--task', TASK, '--workspace', ws, '--mcp', mcp, '--tracker', 'mcp:jira']);
    assert.equal(b.status, 2, b.stderr);
    assert.match(b.stderr, /The tracker mcp:jira is not a server of the MCP configuration/);
    const c = triage(['enqueue', '--store', url, '--task', TASK, '--workspace', ws, '--tracker', 'mcp:memory']);
    assert.equal(c.status, 2, c.stderr);
    assert.match(c.stderr, /give --mcp FILE/);
    const w = triage(['worker', '--store', url, '--exit-when-idle', '--mcp', path.join(dir, 'missing.json')]);
    assert.equal(w.status, 2, w.stderr);
    assert.match(w.stderr, /The MCP configuration .*missing\.json cannot be read/);
    const status = lastJson<{ runs: unknown[] }>(triage(['status', '--store', url, '--json']).stdout);
    assert.deepEqual(status.runs, [], 'nothing queued');
  },
);
