/**
 * `triage worktrees`: the cause worktrees of runs with pull requests, by run, with what made each
 * ready; `--prune` removes those of runs that are done or deleted (branches kept).
 */
import { flags } from '../flags';
import { STORE_FLAGS, storeFromFlags, usingStore } from '../store-flag';
import { listWorktrees, pruneWorktrees } from '../../triage/worktrees';
import { EXIT } from '../exitcodes';

export async function cmdWorktrees(args: string[]): Promise<number> {
  const { values: v } = flags(args, { ...STORE_FLAGS, prune: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } });
  const store = storeFromFlags(v, 'triage worktrees');
  if (v.prune) {
    const pruned = await usingStore(store, (s) => pruneWorktrees(s));
    const removed = pruned.reduce((n, r) => n + r.worktrees.length, 0);
    if (v.json) process.stdout.write(JSON.stringify({ pruned }) + '\n');
    else {
      for (const r of pruned) process.stdout.write(`${r.runId} (${r.phase}): removed ${r.worktrees.length} worktree${r.worktrees.length === 1 ? '' : 's'}\n`);
      process.stdout.write(`${removed} worktree${removed === 1 ? '' : 's'} removed (branches kept)\n`);
    }
    return EXIT.done;
  }
  const runs = await usingStore(store, (s) => listWorktrees(s));
  if (v.json) {
    process.stdout.write(JSON.stringify({ runs }) + '\n');
    return EXIT.done;
  }
  if (runs.length === 0) process.stdout.write(`no cause worktrees in ${store.where}\n`);
  for (const r of runs) {
    process.stdout.write(`${r.runId}  ${r.phase}${r.phase === 'done' || r.phase === 'deleted' ? '  (--prune removes these)' : ''}\n`);
    for (const w of r.worktrees) {
      process.stdout.write(`    ${w}\n`);
      for (const step of r.ready[w] ?? []) process.stdout.write(`        ${step}\n`);
    }
  }
  return EXIT.done;
}
