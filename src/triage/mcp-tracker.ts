/**
 * An MCP server as the run's tracker (`--tracker mcp:SERVER`): issues are filed through the tool
 * its `tracker` section names (src/mcp/tracker-config.ts) and found again through its read-only
 * list tool. Like GitHub, such a server keeps no idempotency keys we can rely on (unless the
 * server's entry sets `keyRetentionMs`), so a filing carries the call's key, cause and run in the
 * hidden marker at the end of its body (tracker/github/marker.ts), and the key also travels in
 * the call's `_meta`; the refile guard and the ladder's lookup read the marker back from the list.
 *
 * A server that stops or hangs is the run's McpServerError (the run stops, saved); a tool's error
 * result is a TrackerError the model reads (McpTrackerToolError); a result that is not what the
 * section says is a BadInputError naming the field to fix (the run stops, saved).
 */
import { BadInputError } from '../core/errors';
import type { McpConnection } from '../mcp/connection';
import type { McpSession } from '../mcp/session';
import type { McpConfig, ServerConfig } from '../mcp/config';
import { fill, valueAt } from '../mcp/lookup';
import { IDEMPOTENCY_META_KEY, qualifiedName } from '../mcp/names';
import { jsonOf, outputOf } from '../mcp/result';
import type { McpTrackerConfig } from '../mcp/tracker-config';
import type { FileOptions, IssueFilter, NewIssue, TrackerIssue } from '../store/issues';
import { TrackerError } from '../tracker/errors';
import { readMarker, withMarker } from '../tracker/github/marker';
import { MCP_SPEC_PREFIX } from '../tracker/spec';
import type { Filed, Tracker } from '../tracker/tracker';

/**
 * A tracker tool answered with an error result: the filing tool (`status` 400: it said it filed
 * nothing) or the list tool (502: whether an issue is filed cannot be told).
 */
export class McpTrackerToolError extends TrackerError {
  constructor(where: string, status: 400 | 502, detail: string) {
    super(where, status, detail);
    this.message = `The tracker tool ${where} answered with an error: ${detail.replace(/[\s.]+$/, '')}`;
  }
}

export class McpTracker implements Tracker {
  readonly name: string;
  readonly honoursKeys: boolean;
  private readonly t: McpTrackerConfig;

  constructor(
    private readonly server: string,
    private readonly conn: McpConnection,
    private readonly config: ServerConfig,
    private readonly file: string,
  ) {
    if (!config.tracker)
      throw new BadInputError(
        `The tracker ${MCP_SPEC_PREFIX}${server} needs a "tracker" section in server "${server}" of the MCP configuration ${file}: which tool files an issue, and which read-only tool lists them.`,
      );
    this.t = config.tracker;
    this.name = `${MCP_SPEC_PREFIX}${server}`;
    this.honoursKeys = config.keyRetentionMs !== undefined;
  }

  keyRetention(): Promise<number> {
    if (this.config.keyRetentionMs === undefined) return Promise.reject(new Error(`MCP server "${this.server}" keeps no idempotency keys (keyRetentionMs)`));
    return Promise.resolve(this.config.keyRetentionMs);
  }

  async fileIssue(input: NewIssue, o: FileOptions & { signal?: AbortSignal } = {}): Promise<Filed> {
    const body = withMarker(input.body, {
      cause: input.cause,
      ...(o.key !== undefined ? { key: o.key } : {}),
      ...(o.runId !== undefined ? { runId: o.runId } : {}),
    });
    const f = this.t.file;
    const where = qualifiedName(this.server, f.tool);
    let args: Record<string, unknown>;
    try {
      args = fill(f.args, { title: input.title, body, cause: input.cause, run: o.runId ?? '' }, o.key) as Record<string, unknown>;
    } catch (e) {
      throw new BadInputError(`The MCP configuration ${this.file}: server "${this.server}" "tracker.file.args" cannot be filled: ${(e as Error).message}.`);
    }
    const signal = o.signal ?? new AbortController().signal;
    const r = await this.conn.call(f.tool, args, o.key !== undefined ? { [IDEMPOTENCY_META_KEY]: o.key } : undefined, signal);
    const out = outputOf(r);
    if (out.isError) throw new McpTrackerToolError(where, 400, out.content);
    if (f.number !== undefined) {
      const json = jsonOf(r);
      const number = numberOf(valueAt(json, f.number));
      if (number === undefined)
        throw new BadInputError(
          `${where} filed the issue, but its result has no issue number at "${f.number}" (tracker.file.number in ${this.file}): ${out.content.slice(0, 300)}. It may be filed; the run stopped and was saved.`,
        );
      const issue: TrackerIssue = { number, title: input.title, body: input.body, cause: input.cause, createdAt: new Date().toISOString(), state: 'open' };
      const url = f.url !== undefined ? valueAt(json, f.url) : undefined;
      if (typeof url === 'string') issue.url = url;
      if (o.key !== undefined) issue.key = o.key;
      if (o.runId !== undefined) issue.runId = o.runId;
      return { issue, replayed: false };
    }
    const all = await this.ours(signal);
    const mine = all.filter((i) => (o.key !== undefined ? i.key === o.key : i.cause === input.cause && i.runId === o.runId));
    const issue = mine[mine.length - 1];
    if (!issue)
      throw new BadInputError(
        `${where} answered, but ${this.t.list.tool} does not list the filing (no item with its marker): check that tracker.file.args sends {body} where tracker.list.text reads it (${this.file}). It may be filed; the run stopped and was saved.`,
      );
    return { issue, replayed: false };
  }

  async byKey(key: string, signal?: AbortSignal): Promise<TrackerIssue | undefined> {
    return (await this.ours(signal)).find((i) => i.key === key);
  }

  /** Our filings by cause and run; the tracker is the scope (as on GitHub), so the workspace is not asked. */
  async search(f: IssueFilter, signal?: AbortSignal): Promise<TrackerIssue[]> {
    return (await this.ours(signal)).filter((i) => (f.cause === undefined || i.cause === f.cause) && (f.runId === undefined || i.runId === f.runId));
  }

  async get(n: number, signal?: AbortSignal): Promise<TrackerIssue | undefined> {
    return (await this.ours(signal)).find((i) => i.number === n);
  }

  /** Every item of the list that carries our marker, in the order listed. */
  private async ours(signal?: AbortSignal): Promise<TrackerIssue[]> {
    const l = this.t.list;
    const r = await this.conn.call(l.tool, l.args, undefined, signal ?? new AbortController().signal);
    const out = outputOf(r);
    if (out.isError) throw new McpTrackerToolError(qualifiedName(this.server, l.tool), 502, out.content);
    const json = jsonOf(r);
    const items = l.items === undefined ? json : valueAt(json, l.items);
    if (!Array.isArray(items))
      throw new BadInputError(
        `The MCP configuration ${this.file}: ${qualifiedName(this.server, l.tool)} answered without an array of issues at "${l.items ?? '(the result)'}" (tracker.list.items): ${out.content.slice(0, 300)}.`,
      );
    const issues: TrackerIssue[] = [];
    for (const item of items) {
      const read = markedText(valueAt(item, l.text));
      if (!read) continue;
      const title = valueAt(item, l.title);
      const issue: TrackerIssue = {
        number: (l.number !== undefined ? numberOf(valueAt(item, l.number)) : undefined) ?? issues.length + 1,
        title: typeof title === 'string' ? title : '',
        body: read.body,
        cause: read.marker.cause,
        createdAt: timeOf(l.createdAt !== undefined ? valueAt(item, l.createdAt) : undefined),
      };
      if (read.marker.key !== undefined) issue.key = read.marker.key;
      if (read.marker.runId !== undefined) issue.runId = read.marker.runId;
      const state = l.state !== undefined ? valueAt(item, l.state) : undefined;
      issue.state = typeof state === 'string' && state.toLowerCase() === 'closed' ? 'closed' : 'open';
      const url = l.url !== undefined ? valueAt(item, l.url) : undefined;
      if (typeof url === 'string') issue.url = url;
      issues.push(issue);
    }
    return issues;
  }
}

/** The body with our marker: the string, or the first string of an array that has one. */
function markedText(v: unknown): ReturnType<typeof readMarker> {
  if (typeof v === 'string') return readMarker(v);
  if (Array.isArray(v)) for (const s of v) if (typeof s === 'string' && readMarker(s)) return readMarker(s);
  return undefined;
}

function numberOf(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The item's time, or (none given) the time it was read. */
function timeOf(v: unknown): string {
  return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : new Date().toISOString();
}

/** The run's tracker `mcp:SERVER`: a server of its MCP session with a tracker section; BadInputError when there is none. */
export function mcpTrackerOf(server: string, session: McpSession | undefined, runId: string): McpTracker {
  const s = session?.server(server);
  if (!s)
    throw new BadInputError(
      session
        ? `Run ${runId} files into ${MCP_SPEC_PREFIX}${server}, which is not a server of its MCP configuration; add it (with a "tracker" section) to the --mcp file.`
        : `Run ${runId} files into ${MCP_SPEC_PREFIX}${server}: give --mcp with the configuration file that has server "${server}" and its "tracker" section.`,
    );
  return new McpTracker(server, s.connection, s.config, s.file);
}

/** Before a run that files into `mcp:SERVER` is saved: the configuration has the server, with a tracker section. */
export function assertMcpTracker(server: string, config: McpConfig): void {
  const s = config.servers[server];
  if (!s)
    throw new BadInputError(
      `The tracker ${MCP_SPEC_PREFIX}${server} is not a server of the MCP configuration ${config.file} (it has ${Object.keys(config.servers).join(', ') || 'none'}).`,
    );
  if (!s.tracker)
    throw new BadInputError(
      `The tracker ${MCP_SPEC_PREFIX}${server} needs a "tracker" section in server "${server}" of the MCP configuration ${config.file}: which tool files an issue, and which read-only tool lists them.`,
    );
}
