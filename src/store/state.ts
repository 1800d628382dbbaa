/**
 * The run state: everything a later process needs to carry a run on. One zod schema is the
 * format (the TypeScript types are inferred from it); the conversation inside it (messages,
 * calls, usage, the last reply) is src/core/conversation.ts.
 *
 * Serialization rules (see encodeState / decodeState):
 * - unset optional fields are omitted, and load back as unset (never as "" or [] or {});
 * - raw JSON written by the model (tool-call arguments) is kept as a string, so invalid
 *   arguments never stop a save;
 * - a version field; decoding validates every field and names the file and the field on failure;
 * - map keys (file paths, call IDs) are kept whatever they are, "__proto__" included.
 */
import { z } from 'zod';
import { CorruptCheckpointError } from '../core/errors';
import { ContextSummarySchema, MessageSchema, ModelReplySchema, ToolResultSchema, UsageSchema, zeroUsage } from '../core/conversation';
import type { Message, Usage } from '../core/conversation';
import { keyedRecord, parseSchema, SchemaError } from '../core/schema';
import { SavedMcpServerSchema } from './saved-mcp';

export const STATE_VERSION = 1;

export const PHASES = ['model', 'tools', 'paused', 'done'] as const;
export type Phase = (typeof PHASES)[number];

/** FileRecord.before of a file the run created. */
export const ABSENT = 'absent';

const SHA256_HEX = /^[0-9a-f]{64}$/;
const Sha256Schema = z.string().regex(SHA256_HEX, { error: 'should be 64 hex digits' });
/** A file's earlier version: a SHA-256 in the content store, or "absent". */
const BeforeRefSchema = z.string().refine((v) => v === ABSENT || SHA256_HEX.test(v), { error: `should be 64 hex digits or "${ABSENT}"` });

/** Marker saved (save point 3) just before a call that can change something. */
export const AttemptMarkerSchema = z.object({
  callId: z.string(),
  tool: z.string(),
  /** ISO time the attempt started: with the service's key retention, tells whether the key is still kept. */
  startedAt: z.string(),
  /** The idempotency key sent with the call, when the tool is keyed. */
  key: z.string().optional(),
  /**
   * How long the tool's service keeps keys, as it said before the call (ms). Saved with the
   * marker so a later process, which has learnt nothing yet, never assumes a default.
   */
  retentionMs: z.number().optional(),
  /**
   * The files the call will write that the run had not written yet, as they were just before
   * it: the SHA-256 of their bytes (kept in the content store) or "absent". Saved with the
   * marker, before the call acts, so the files' first versions survive a crash in the call.
   */
  before: keyedRecord(BeforeRefSchema).optional(),
});
export type AttemptMarker = z.infer<typeof AttemptMarkerSchema>;

/** A call waiting on a person: an approval, or the ladder's last question. */
export const PendingQuestionSchema = z.object({
  kind: z.enum(['approval', 'ladder']),
  callId: z.string(),
  tool: z.string(),
  /** Raw arguments, as the model wrote them. */
  args: z.string(),
  askedAt: z.string(),
});
export type PendingQuestion = z.infer<typeof PendingQuestionSchema>;

/**
 * Where a write in a cause's own worktree (--pull-requests) was made: the cause, the workspace's
 * folder inside that worktree (absolute) and the file's path relative to it (forward slashes).
 */
export const WorktreeRefSchema = z.object({
  cause: z.string(),
  dir: z.string(),
  path: z.string(),
});
export type WorktreeRef = z.infer<typeof WorktreeRefSchema>;

/** The folder a write was made in, when it is not the workspace: a cause's worktree. */
export type WriteRoot = Omit<WorktreeRef, 'path'>;

/**
 * The SHA-256 of a file the run wrote; its bytes are in the content store under this hash.
 * Keyed by the workspace-relative path; a file written in a cause's worktree is keyed by its
 * absolute path (never a workspace key) and says so in `worktree` (absent: the workspace, as
 * in every checkpoint saved before worktrees).
 */
export const FileRecordSchema = z.object({
  sha256: Sha256Schema,
  size: z.number(),
  callId: z.string(),
  writtenAt: z.string(),
  /**
   * The file as it was before the run first wrote it: the SHA-256 of those bytes (in the
   * content store), or "absent" when the run created it. Unset for a write the run could not
   * see coming (a tool that does not declare the paths it writes), or one recorded by an older version.
   */
  before: BeforeRefSchema.optional(),
  /** Written in a cause's worktree (see WorktreeRefSchema); absent: in the workspace. */
  worktree: WorktreeRefSchema.optional(),
});
export type FileRecord = z.infer<typeof FileRecordSchema>;

/** A stack frame placed in the workspace. */
export const SentryFrameRefSchema = z.object({ file: z.string(), fn: z.string(), line: z.number().optional() });
export type SentryFrameRef = z.infer<typeof SentryFrameRefSchema>;

/** A Sentry issue as a run saw it at its start (never the token). */
export const SentryIssueRefSchema = z.object({
  id: z.string(),
  shortId: z.string().optional(),
  title: z.string(),
  culprit: z.string().optional(),
  count: z.number(),
  userCount: z.number(),
  firstSeen: z.string().optional(),
  lastSeen: z.string().optional(),
  permalink: z.string().optional(),
  /** The latest event's ID when the run started. */
  eventId: z.string().optional(),
});
export type SentryIssueRef = z.infer<typeof SentryIssueRefSchema>;

/** A crash group as the run first saw it (the crash-folder task's grouping of raw reports). */
export const SavedCrashGroupSchema = z.object({
  cause: z.string(),
  /** Error type and where it happened, e.g. "TypeError @ parseDuration (src/duration.ts)". */
  signature: z.string(),
  /** Workspace-relative report paths. */
  reports: z.array(z.string()),
  /** The group's own folder, when the reports came sorted one folder per cause. */
  folder: z.string().optional(),
  /** The crash's message (a Sentry group: its latest event's). */
  message: z.string().optional(),
  /** Where it happened in the workspace, innermost first (a Sentry group: its latest event's in-app frames). */
  frames: z.array(SentryFrameRefSchema).optional(),
  /** The Sentry issue the group is (`--crashes sentry:ORG/PROJECT`), as it was when the run started. */
  sentry: SentryIssueRefSchema.optional(),
});
export type SavedCrashGroup = z.infer<typeof SavedCrashGroupSchema>;

/** What the run was started with, so any later process can resume it the same way. */
export const RunConfigSchema = z.object({
  /** Absolute path of the workspace the run works in. */
  workspace: z.string(),
  /** Model provider and model name, e.g. "recorded" / "claude-sonnet-4-5". */
  provider: z.string(),
  model: z.string(),
  /** Whether keyed tools send idempotency keys (the sweep runs with both). */
  keys: z.boolean(),
  /** Free-form options of the task/front end (tracker URL, crash folder...). */
  options: keyedRecord(z.string()).optional(),
  /** The crash groups the run works on, saved at its start so a resumed run sees the same groups. */
  crashGroups: z.array(SavedCrashGroupSchema).optional(),
  /** The MCP servers' tools as the run listed them at its start (`--mcp`), so a resumed run offers the same tools. */
  mcp: z.array(SavedMcpServerSchema).optional(),
});
export type RunConfig = z.infer<typeof RunConfigSchema>;

export const RunStateSchema = z.object({
  version: z.literal(STATE_VERSION),
  runId: z.string(),
  task: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  config: RunConfigSchema,
  phase: z.enum(PHASES),
  /** The system prompt sent with every model call. */
  system: z.string(),
  messages: z.array(MessageSchema),
  usage: UsageSchema,
  /** Model replies received and saved, over the whole life of the run. */
  turns: z.number(),
  restarts: z.number(),
  summary: ContextSummarySchema.optional(),
  pending: z.array(PendingQuestionSchema).optional(),
  lastReply: ModelReplySchema.optional(),
  /** Results of lastReply's calls, by call ID (cleared when the next reply arrives). */
  results: keyedRecord(ToolResultSchema).optional(),
  /** Attempt markers of lastReply's calls, by call ID. */
  attempts: keyedRecord(AttemptMarkerSchema).optional(),
  /** Files the run wrote, by workspace-relative path. */
  files: keyedRecord(FileRecordSchema).optional(),
  /** Notes for the model, sent as a user message before the next model call (e.g. what changed). */
  inbox: z.array(z.string()).optional(),
  /** How many replies in a row the model's output token limit cut (unset when the last one was whole). */
  cutReplies: z.number().optional(),
  answer: z.string().optional(),
});
export type RunState = z.infer<typeof RunStateSchema>;

/** What a finished (or stopped) run hands back to its front end. */
export interface RunResult {
  runId: string;
  task: string;
  phase: Phase;
  answer?: string;
  messages: Message[];
  usage: Usage;
  turns: number;
  restarts: number;
  pending?: PendingQuestion[];
  files?: Record<string, FileRecord>;
  createdAt: string;
  updatedAt: string;
}

export function resultOf(s: RunState): RunResult {
  const r: RunResult = {
    runId: s.runId,
    task: s.task,
    phase: s.phase,
    messages: s.messages,
    usage: s.usage,
    turns: s.turns,
    restarts: s.restarts,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
  if (s.answer !== undefined) r.answer = s.answer;
  if (s.pending !== undefined) r.pending = s.pending;
  if (s.files !== undefined) r.files = s.files;
  return r;
}

export function newState(init: { runId: string; task: string; config: RunConfig; system: string; prompt: string; now?: Date }): RunState {
  const t = (init.now ?? new Date()).toISOString();
  return {
    version: STATE_VERSION,
    runId: init.runId,
    task: init.task,
    createdAt: t,
    updatedAt: t,
    config: init.config,
    phase: 'model',
    system: init.system,
    messages: [{ role: 'user', content: init.prompt }],
    usage: zeroUsage(),
    turns: 0,
    restarts: 0,
  };
}

// ---------------------------------------------------------------------------
// Encoding

/** JSON text of the state: unset fields omitted (JSON.stringify drops undefined). */
export function encodeState(s: RunState): string {
  return JSON.stringify(s);
}

/** JSON.parse for a checkpoint file's text; an empty or cut file is a CorruptCheckpointError naming it. */
export function parseCheckpointJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const detail = text.length === 0 ? 'the file is empty' : `not valid JSON (${(e as Error).message}); it may be truncated`;
    throw new CorruptCheckpointError(file, detail);
  }
}

/** Parses and validates checkpoint text; any problem is a CorruptCheckpointError naming `file`. */
export function decodeState(text: string, file: string): RunState {
  const raw = parseCheckpointJson(text, file);
  try {
    return validateState(raw);
  } catch (e) {
    if (e instanceof SchemaError) throw new CorruptCheckpointError(file, e.message);
    throw e;
  }
}

/** Checks parsed JSON is a RunState; a SchemaError names the first bad field ("$.turns"...). */
export function validateState(raw: unknown): RunState {
  return parseSchema(RunStateSchema, raw);
}
