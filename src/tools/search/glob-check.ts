/**
 * After a search with a glob found nothing: does the glob match any file searched at all? (A
 * glob that matches nothing is the model's mistake, and its error says so.)
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { compileGlob } from '../../workspace/glob';
import { walkIgnoring } from '../../workspace/walk-ignoring';
import { ripgrepArgs } from './ripgrep';
import type { SearchQuery } from './types';

export async function anyFileMatches(workspace: string, q: SearchQuery, rg: string | undefined): Promise<boolean> {
  if (rg) {
    const args = ripgrepArgs(q).filter(
      (a) =>
        a !== '--json' && !a.startsWith('--regexp=') && !a.startsWith('--context=') && !/^--(smart-case|ignore-case|case-sensitive|fixed-strings)$/.test(a),
    );
    args.splice(args.indexOf('--'), 0, '--files');
    return new Promise((resolve, reject) => {
      const child = spawn(rg, args, { cwd: workspace, stdio: ['ignore', 'pipe', 'ignore'] });
      let any = false;
      child.stdout.once('data', () => {
        any = true;
        child.kill();
      });
      child.on('error', reject);
      child.on('close', () => resolve(any));
    });
  }
  const glob = compileGlob(q.glob ?? '*');
  let any = false;
  await walkIgnoring(workspace, path.join(workspace, ...q.startRel.split('/')), {
    hidden: q.hidden,
    onEntry: (e) => {
      if (e.kind === 'file' && glob.matches(e.rel, q.startRel)) {
        any = true;
        return false;
      }
      return true;
    },
  });
  return any;
}
