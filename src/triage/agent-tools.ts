/**
 * The operations Durable Triage offers other agents, named and described once: `triage mcp`'s MCP
 * tools and the editor's Language Model Tools (package.json's languageModelTools, checked against
 * this list by test/extension/contributes.test.ts). The hints are MCP's tool annotations, stated
 * truthfully: starting a run lets the agent change files in the workspace (recorded in its ledger,
 * undoable) and call a model; answering an approval lets the approved call happen; filing is
 * additive and, per idempotency key, done once.
 */
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
    description: "Every run of the store (or one): phase, turns, cost, restarts, the questions it waits on (answer them with triage_answer) and its issues.",
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
