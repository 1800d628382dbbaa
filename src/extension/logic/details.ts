/**
 * What "Show Details" shows for a call waiting on a person: the patch as a diff, anything
 * else (an issue's title and body, the ladder's question) as a read-only markdown document.
 * Every piece of the model's text in that document is fenced (a block) or escaped (a line), so
 * the model cannot write a heading, a fake section or an HTML comment that hides the real one.
 */
import type { ApprovalRequest, LadderQuestion } from '../../agent/approver';
import { describeCall } from '../../transcript/calls';
import type { Block } from '../../core/transcript';

export type DetailsView = { kind: 'diff'; path: string; before: string; after: string; title: string } | { kind: 'document'; name: string; content: string };

/** The model's raw arguments, pretty-printed when they are valid JSON, as written when not. */
export function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

/**
 * Model text as a fenced code block: its fence longer than any run of backticks in it, so
 * nothing in it can close the block and start a heading, an HTML comment or any other markdown.
 */
export function fence(text: string, lang = ''): string {
  let ticks = '```';
  while (text.includes(ticks)) ticks += '`';
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/**
 * Model text on one line of markdown (a heading, a label): line breaks made spaces (a new line
 * could start a heading or an HTML block) and every character markdown gives a meaning to
 * backslash-escaped, so it reads as written and makes no link, emphasis, code span or HTML.
 */
export function inline(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()#+\-.!<>|~&$^]/g, '\\$&');
}

/** A file name safe for a virtual document's path. */
function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'call';
}

export function approvalDetails(req: ApprovalRequest): DetailsView {
  if (req.diff) {
    return { kind: 'diff', path: req.diff.path, before: req.diff.before, after: req.diff.after, title: `${req.tool}: ${req.diff.path} (proposed change)` };
  }
  const content = [
    `# ${inline(req.title || req.tool)}`,
    '',
    fence(req.detail),
    '',
    '---',
    '',
    `Tool ${inline(req.tool)}, call ${inline(req.callId)} of run ${inline(req.runId)}. The model's arguments:`,
    '',
    fence(prettyArgs(req.args), 'json'),
    '',
  ].join('\n');
  return { kind: 'document', name: `${safeName(req.title || req.tool)}.md`, content };
}

function blockMarkdown(b: Block): string[] {
  switch (b.kind) {
    case 'text':
      return [fence(b.text)];
    case 'code':
      return [...(b.label ? [`${inline(b.label)}:`, ''] : []), fence(b.text)];
    case 'diff':
      return [`${inline(b.path)}:`, '', fence(b.text, 'diff')];
    case 'tests':
      return [`${b.passed} passed, ${b.failed} failed`];
    case 'issue':
      return [`**Title:** ${inline(b.title)}`, '', ...(b.cause ? [`**Cause:** ${inline(b.cause)}`, ''] : []), fence(b.body)];
    case 'links':
      // As code, not markdown links: a details document never makes a link of a saved value.
      return b.links.map((l) => `${inline(l.label)}: ${inline(l.url)}`);
  }
}

/**
 * Show Details for an approval a run paused in a shared store waits on: made from its saved
 * question alone (the window does not run it), as the call renders in the transcript (an issue's
 * title and body, a patch as its diff), then the model's arguments.
 */
export function storedApprovalDetails(q: { runId: string; callId: string; tool: string; args: string }): DetailsView {
  const call = describeCall({ id: q.callId, name: q.tool, args: q.args });
  const content = [
    `# ${inline(call.title)}`,
    '',
    ...call.args.flatMap((b) => [...blockMarkdown(b), '']),
    '---',
    '',
    `Tool ${inline(q.tool)}, call ${inline(q.callId)} of run ${inline(q.runId)}, paused in the shared store for a worker. The model's arguments:`,
    '',
    fence(prettyArgs(q.args), 'json'),
    '',
  ].join('\n');
  return { kind: 'document', name: `${safeName(call.title)}.md`, content };
}

export function ladderDetails(q: LadderQuestion): DetailsView {
  const content = [
    `# Did ${inline(q.tool)} already happen?`,
    '',
    `The run was interrupted after call ${inline(q.callId)} of ${inline(q.tool)} started (${inline(q.startedAt)}) and before its result was saved.`,
    '',
    `Why it could not be decided automatically: ${inline(q.reason)}`,
    '',
    '- **It Happened**: the call is not run again; your note becomes its result.',
    '- **Run It Again**: the call runs again (choose this only if you are sure it did not happen).',
    '',
    "The model's arguments:",
    '',
    fence(prettyArgs(q.args), 'json'),
    '',
  ].join('\n');
  return { kind: 'document', name: `Did ${safeName(`${q.tool} ${callTitle(q.args)}`)} happen.md`, content };
}

/**
 * A short name for the thing a call acts on, for the ladder's question: the issue's title,
 * or the file's path, from the model's arguments; empty when they have neither.
 */
export function callTitle(args: string): string {
  let v: unknown;
  try {
    v = JSON.parse(args);
  } catch {
    return '';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return '';
  const o = v as Record<string, unknown>;
  const clip = (s: string): string => (s.length > 80 ? `${s.slice(0, 77)}...` : s);
  if (typeof o.title === 'string' && o.title.trim()) return `"${clip(o.title.trim())}"`;
  for (const k of ['path', 'file', 'filePath']) if (typeof o[k] === 'string' && (o[k] as string).trim()) return clip((o[k] as string).trim());
  return '';
}
