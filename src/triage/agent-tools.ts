/**
 * The operations Durable Triage offers other agents, named and described once: `triage mcp`'s MCP
 * tools and the editor's Language Model Tools (package.json's languageModelTools, checked against
 * this list by test/extension/contributes.test.ts). The hints are MCP's tool annotations, stated
 * truthfully: starting a run lets the agent change files in the workspace (recorded in its ledger,
 * undoable) and call a model; answering an approval lets the approved call happen; filing is
 * additive and, per idempotency key, done once.
 */
import { z } from 'zod';
import { FileIssueArgsShape } from './file-once';

export interface AgentToolSpec {
  title: string;
  description: string;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

export const AGENT_TOOLS = {
  triage_start: {
    title: 'Start or resume a Durable Triage run',
    description:
      "Starts a triage run of a task (or resumes the task's latest unfinished run, or a run by ID) in the background and returns its run ID at once. " +
      'The agent reads crash reports, fixes code in the workspace and files issues; calls that need approval pause the run until triage_answer.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
  triage_status: {
    title: 'Durable Triage run status',
    description: 'Every run of the store (or one): phase, turns, cost, restarts, the questions it waits on (answer them with triage_answer) and its issues.',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  triage_transcript: {
    title: 'Durable Triage run transcript',
    description: "A run's transcript: its conversation, tool calls and results, and durable history (restarts, the ladder's decisions, answers).",
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  triage_answer: {
    title: "Answer a Durable Triage run's question",
    description:
      'Answers the question a paused run waits on for one call: approve or deny an approval, or (the resolution ladder) rerun / done. ' +
      'The first answer wins; the run resumes in the background.',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  },
  triage_file_issue: {
    title: 'File an issue exactly once',
    description:
      'Files an issue in the tracker once per idempotency key: the caller\'s, in the request\'s _meta["io.durabletriage/idempotency-key"], ' +
      'or one derived from the tracker, workspace, cause, title and body. The same key returns the first filing and files nothing new.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
} as const satisfies Record<string, AgentToolSpec>;

export type AgentToolName = keyof typeof AGENT_TOOLS;

/** Each operation's arguments (zod shapes: MCP's inputSchema; package.json's languageModelTools state the same as JSON Schema). */
export const AGENT_TOOL_INPUTS = {
  triage_start: {
    task: z
      .string()
      .min(1)
      .optional()
      .describe('A task name (see `triage tasks`), or "crash-folder" for your own crash reports (with workspace); not needed with run'),
    workspace: z.string().min(1).optional().describe("The folder the agent works in; default: a fresh copy of the task's sample (the editor: the open folder)"),
    crashes: z.string().min(1).optional().describe('With crash-folder: the folder of crash reports, relative to the workspace'),
    tracker: z.string().min(1).optional().describe('embedded (default), github:OWNER/REPO, or a tracker service URL'),
    keys: z.boolean().optional().describe('Keyed tools send idempotency keys (default true)'),
    new: z.boolean().optional().describe('Start a new run even when the task has one (default: resume the latest)'),
    run: z.string().min(1).optional().describe('Resume this run by ID instead (the other fields are then ignored)'),
  },
  triage_status: { run: z.string().min(1).optional().describe('One run by ID (default: every run of the store)') },
  triage_transcript: {
    run: z.string().min(1).describe('The run ID'),
    json: z.boolean().optional().describe('The transcript as one JSON object instead of text'),
  },
  triage_answer: {
    run: z.string().min(1).describe('The run ID'),
    call: z.string().min(1).describe('The call the question is about (triage_status lists pending questions)'),
    answer: z.enum(['approve', 'deny', 'rerun', 'done']).describe("approve / deny an approval; rerun / done the ladder's question (did the call happen?)"),
    result: z.string().min(1).optional().describe("With done: what you found; it becomes the call's result"),
  },
  triage_file_issue: { ...FileIssueArgsShape, tracker: z.string().min(1).optional().describe('embedded (default), github:OWNER/REPO, or a tracker URL') },
} as const satisfies Record<AgentToolName, z.ZodRawShape>;

/** Each operation's arguments as one strict object (the Language Model Tools check their input with these). */
export const AGENT_TOOL_ARGS = {
  triage_start: z.strictObject(AGENT_TOOL_INPUTS.triage_start),
  triage_status: z.strictObject(AGENT_TOOL_INPUTS.triage_status),
  triage_transcript: z.strictObject(AGENT_TOOL_INPUTS.triage_transcript),
  triage_answer: z.strictObject(AGENT_TOOL_INPUTS.triage_answer),
  triage_file_issue: z.strictObject(AGENT_TOOL_INPUTS.triage_file_issue),
};
export type StartArgs = z.infer<typeof AGENT_TOOL_ARGS.triage_start>;
export type StatusArgs = z.infer<typeof AGENT_TOOL_ARGS.triage_status>;
export type TranscriptArgs = z.infer<typeof AGENT_TOOL_ARGS.triage_transcript>;
export type AnswerArgs = z.infer<typeof AGENT_TOOL_ARGS.triage_answer>;
export type FileArgs = z.infer<typeof AGENT_TOOL_ARGS.triage_file_issue>;
