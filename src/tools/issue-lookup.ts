/** issue_lookup {number?, cause?}: shows one tracker issue, or the issues filed for a cause. */
import type { Tool } from '../agent/tool';
import { ToolInputError } from '../workspace/paths';
import { TrackerError } from '../tracker/errors';
import type { Tracker } from '../tracker/tracker';
import type { TrackerIssue } from '../tracker/store';
import { z } from 'zod';
import { errorResult, guarded, text } from './guarded';
import { str, type ToolView } from './view';

/** "Look up issues (<cause, query or #number>)". */
export const issueLookupView: ToolView = {
  icon: 'search',
  call(a) {
    const by = str(a.cause) ?? str(a.query) ?? (a.number !== undefined ? `#${String(a.number)}` : '');
    return { title: `Look up issues${by ? ` (${by})` : ''}`, args: [] };
  },
};

const LOOKUP_ARGS = z.strictObject({
  number: z.number().int().positive().describe('An issue number').nullish(),
  cause: text('A cause slug: lists the issues filed for it').nullish(),
});

export function issueLookupTool(o: { tracker: Tracker }): Tool<{ number?: number | null; cause?: string | null }> {
  return {
    name: 'issue_lookup',
    description: 'Looks issues up in the tracker: one issue by its number, or every issue filed for a cause (with which run filed it).',
    args: LOOKUP_ARGS,
    readOnly: true,
    run: (args, ctx) =>
      guarded('issue_lookup', ctx.workspace, async () => {
        const n = args.number ?? undefined;
        const cause = args.cause ?? undefined;
        if (n === undefined && cause === undefined) throw new ToolInputError('give an issue "number" or a "cause"');
        try {
          if (n !== undefined) {
            const i = await o.tracker.get(n, ctx.signal);
            if (!i) return { content: `no issue #${n}` };
            if (cause !== undefined && i.cause !== cause) return { content: `issue #${n} has cause ${i.cause}, not ${cause}\n\n${full(i, ctx.runId)}` };
            return { content: full(i, ctx.runId) };
          }
          const list = await o.tracker.search({ cause }, ctx.signal);
          if (list.length === 0) return { content: `no issues with cause ${cause}` };
          return { content: list.map((i) => line(i, ctx.runId)).join('\n') };
        } catch (e) {
          if (e instanceof TrackerError) return errorResult(`issue_lookup: ${e.message}`);
          throw e;
        }
      }),
  };
}

function line(i: TrackerIssue, runId: string): string {
  const by = i.runId === undefined ? '' : i.runId === runId ? ' (filed by this run)' : ` (filed by run ${i.runId})`;
  return `#${i.number} [${i.cause}] ${i.title}${by}${i.state === 'closed' ? ' (closed)' : ''}`;
}

function full(i: TrackerIssue, runId: string): string {
  return `${line(i, runId)}\n\n${i.body}`;
}
