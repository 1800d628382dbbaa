/**
 * `triage tracker list | serve`.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { flags } from '../flags';
import { BadInputError } from '../../core/errors';
import { startTracker } from '../../tracker/service';
import { TrackerStore, type TrackerIssue } from '../../tracker/store';
import { EXIT } from '../exitcodes';
import { trackerDir } from '../../tracker/embedded';
import { STORE_FLAGS, storeFromFlags, usingStore } from '../store-flag';

export async function cmdTracker(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'list') return list(rest);
  if (sub === 'serve') return serve(rest);
  throw new BadInputError('triage tracker needs "list" or "serve".');
}

/**
 * The embedded tracker's issues: with --store postgres://..., the database's; with a state
 * folder, its shared store (<state>/tracker), then the own stores of runs created before it was
 * shared (<state>/tracker/<runId>), read without taking any lock. --run keeps the issues that run filed.
 */
async function list(args: string[]): Promise<number> {
  const { values: v } = flags(args, { ...STORE_FLAGS, run: { type: 'string' }, json: { type: 'boolean', default: false } });
  const issues = await usingStore(storeFromFlags(v, 'triage tracker list'), async (store) => {
    if (store.issues) return (await store.issues().list()).map((i) => ({ ...i, store: 'shared' }));
    if (store.stateFolder === undefined) throw new TypeError(`no embedded tracker for a ${store.kind} store`);
    return folderIssues(store.stateFolder);
  });
  const shown = v.run ? issues.filter((i) => i.runId === v.run) : issues;
  if (v.json) process.stdout.write(JSON.stringify({ issues: shown }) + '\n');
  else {
    if (shown.length === 0) process.stdout.write('no issues\n');
    for (const i of shown) {
      const store = i.store === 'shared' ? '' : `, own store of run ${i.store}`;
      process.stdout.write(`#${i.number} [${i.cause}] ${i.title}  (run ${i.runId ?? '-'}, key ${i.key ?? '-'}${store})\n`);
    }
  }
  return EXIT.done;
}

async function folderIssues(stateDir: string): Promise<(TrackerIssue & { store: string })[]> {
  const root = trackerDir(stateDir);
  const issues: (TrackerIssue & { store: string })[] = [];
  for (const i of await TrackerStore.readOnly(root)) issues.push({ ...i, store: 'shared' });
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  for (const d of entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    for (const i of await TrackerStore.readOnly(path.join(root, d))) issues.push({ ...i, store: d });
  }
  return issues;
}

async function serve(args: string[]): Promise<number> {
  const { values: v } = flags(args, { dir: { type: 'string' }, port: { type: 'string', default: '0' }, 'retention-hours': { type: 'string' } });
  if (!v.dir) throw new BadInputError('triage tracker serve needs --dir DIR (where its issues are stored).');
  const port = Number(v.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new BadInputError(`--port must be a port number, not "${v.port}".`);
  const hours = v['retention-hours'] === undefined ? undefined : Number(v['retention-hours']);
  if (hours !== undefined && !(hours > 0)) throw new BadInputError(`--retention-hours must be a positive number.`);
  const svc = await startTracker({ dir: path.resolve(v.dir as string), port, host: '127.0.0.1', ...(hours ? { retentionMs: hours * 3_600_000 } : {}) });
  process.stdout.write(`tracker listening on ${svc.url} (store ${path.resolve(v.dir as string)}); Ctrl-C to stop\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await svc.close();
  return EXIT.done;
}
