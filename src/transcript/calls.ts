/**
 * A tool call rendered for a person: its title, its arguments (a patch as a diff, an issue as
 * its title and body, a file's new content), and its result (a test run as passed/failed with
 * the failures). Arguments that are not valid JSON are shown as the model wrote them.
 */
import type { ToolCall, ToolResult } from '../core/conversation';
import type { Block, CallView } from './model';

const CLIP = 20_000;

function clip(s: string, n = CLIP): string {
  return s.length > n ? `${s.slice(0, n)}\n… (${s.length - n} more characters)` : s;
}

function parse(args: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(args);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Title, path and argument blocks of a call. */
export function describeCall(call: ToolCall): Pick<CallView, 'title' | 'path' | 'args'> {
  const a = parse(call.args);
  if (!a) return { title: `${call.name} (arguments are not valid JSON)`, args: [{ kind: 'code', text: clip(call.args), label: 'arguments as the model wrote them' }] };
  const p = str(a.path);
  const withPath = <T extends Pick<CallView, 'title' | 'args'>>(v: T): T & { path?: string } => (p ? { ...v, path: p } : v);
  switch (call.name) {
    case 'code_patch':
      return withPath({ title: `Patch ${p ?? '?'}`, args: [{ kind: 'diff', path: p ?? '', text: clip(str(a.patch) ?? '') }] });
    case 'write_file':
      return withPath({ title: `Write ${p ?? '?'}`, args: [{ kind: 'code', text: clip(str(a.content) ?? ''), label: p ?? '' }] });
    case 'read_file':
      return withPath({ title: `Read ${p ?? '?'}`, args: [] });
    case 'list_files':
      return withPath({ title: `List files${p ? ` in ${p}` : ''}`, args: [] });
    case 'search_files': {
      const q = str(a.query) ?? str(a.pattern) ?? '';
      return { title: `Search for "${q}"${p ? ` in ${p}` : ''}`, args: [] };
    }
    case 'run_tests': {
      const files = Array.isArray(a.files) ? a.files.filter((f): f is string => typeof f === 'string') : [];
      return { title: files.length ? `Run tests: ${files.join(', ')}` : 'Run the tests', args: [] };
    }
    case 'issue_file': {
      const title = str(a.title) ?? '';
      const b: Block = { kind: 'issue', title, body: clip(str(a.body) ?? '') };
      const cause = str(a.cause);
      if (cause !== undefined) b.cause = cause;
      return { title: `File issue: ${title}`, args: [b] };
    }
    case 'issue_lookup': {
      const by = str(a.cause) ?? str(a.query) ?? (a.number !== undefined ? `#${String(a.number)}` : '');
      return { title: `Look up issues${by ? ` (${by})` : ''}`, args: [] };
    }
    default:
      return withPath({ title: call.name, args: [{ kind: 'code', text: clip(JSON.stringify(a, null, 2)), label: 'arguments' }] });
  }
}

const TESTS = /^tests: (\d+) passed, (\d+) failed/;

/** A call's result: a one-line summary and blocks to show under it. */
export function describeResult(call: ToolCall, r: ToolResult): NonNullable<CallView['result']> {
  const isError = r.isError === true;
  const first = (r.content.split('\n')[0] ?? '').trim();
  if (call.name === 'run_tests' && !isError) {
    const m = TESTS.exec(r.content);
    if (m) {
      const failures = r.content
        .split(/\n\nFAILED: /)
        .slice(1)
        .map((chunk) => {
          const [name, ...rest] = chunk.split('\n');
          return { name: name.trim(), detail: rest.map((l) => l.replace(/^ {2}/, '')).join('\n').trim() };
        });
      return { summary: `${m[1]} passed, ${m[2]} failed`, isError: Number(m[2]) > 0, blocks: [{ kind: 'tests', passed: Number(m[1]), failed: Number(m[2]), failures }] };
    }
  }
  const rest = r.content.slice(first.length).trim();
  const multi = rest !== '' || call.name === 'read_file' || call.name === 'list_files' || call.name === 'search_files';
  return { summary: first || '(no output)', isError, blocks: multi && r.content.trim() !== '' ? [{ kind: 'code', text: clip(r.content) }] : [] };
}

/** "filed issue #3: Title", maybe followed by "url: https://..." (issue_file's result) */
export function filedIssue(r: ToolResult): { number: number; title: string; url?: string } | undefined {
  if (r.isError) return undefined;
  const m = /^filed issue #(\d+): (.*)$(?:\nurl: (https?:\/\/\S+)$)?/m.exec(r.content);
  if (!m) return undefined;
  return m[3] ? { number: Number(m[1]), title: m[2], url: m[3] } : { number: Number(m[1]), title: m[2] };
}
