/**
 * What `@triage` does with one chat request (pure, no vscode): help, status with the open
 * questions as buttons, or start / resume a run and stream it (progress, each question's buttons
 * once, the result with an Open Run Panel button) until it ends or the request is cancelled (the
 * run goes on). agent-surfaces.ts wires it to the editor's chat, the run manager and the store.
 */
import { CHAT_HELP, chatIntent, openRunButton, questionButtons, questionMarkdown, type ChatButton, type ChatQuestion } from './chat';
import type { QuestionInfo } from './questions';

/** The part of vscode.ChatResponseStream the handler uses. */
export interface ChatStream {
  progress(value: string): void;
  markdown(value: string): void;
  button(b: ChatButton): void;
}

export interface ChatCancellation {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): unknown;
}

type Sub = { dispose(): void };

/** A run kicked off: its ID once open here (undefined: it ended or was cancelled first), and its end. */
export interface Followed {
  runId?: string;
  done: Promise<void>;
}

export interface ChatHandlerDeps {
  /** The runs as markdown (triage_status), of one run when given. */
  status(runId?: string): Promise<string>;
  /** Starts the task, or, without one, the palette's Start (which asks which). */
  start(task?: string): Promise<Followed>;
  /** Resumes the run, or, without one, the palette's Resume (which asks which). */
  resume(runId?: string): Promise<Followed>;
  questions: { list(runId?: string): QuestionInfo[]; onDidChange(listener: () => void): Sub };
  /** What a run is doing now, and when that changes (the run manager). */
  activity(runId: string): string | undefined;
  onDidChangeRun(listener: (runId: string | undefined) => void): Sub;
  /** The ended run's result as markdown (resultMarkdown over the store and its tracker). */
  result(runId: string): Promise<string>;
}

function showQuestion(stream: ChatStream, q: ChatQuestion): void {
  stream.markdown(`\n\n${questionMarkdown(q)}\n\n`);
  for (const b of questionButtons(q)) stream.button(b);
}

export async function handleChatRequest(
  request: { command?: string; prompt: string },
  stream: ChatStream,
  token: ChatCancellation,
  d: ChatHandlerDeps,
): Promise<void> {
  const intent = chatIntent(request.command, request.prompt);
  if (intent.kind === 'help') {
    stream.markdown(CHAT_HELP);
    return;
  }
  if (intent.kind === 'status') {
    stream.markdown(await d.status(intent.runId));
    for (const q of d.questions.list(intent.runId)) showQuestion(stream, q);
    return;
  }
  stream.progress(intent.kind === 'start' ? 'Starting the run…' : 'Resuming the run…');
  const r = intent.kind === 'start' ? await d.start(intent.task) : await d.resume(intent.runId);
  if (!r.runId) {
    stream.markdown('Nothing is running: the run was already open here, finished, or the start was cancelled. `/status` shows the runs.');
    return;
  }
  await watch(d, r.runId, r.done, stream, token);
}

/** Streams a run's progress and questions (as buttons) until it ends (or the request is cancelled: the run goes on), then its result. */
async function watch(d: ChatHandlerDeps, runId: string, done: Promise<void>, stream: ChatStream, token: ChatCancellation): Promise<void> {
  stream.markdown(`Run \`${runId}\` is running.\n\n`);
  stream.button(openRunButton(runId));
  const shown = new Set<string>();
  const questions = (): void => {
    for (const q of d.questions.list(runId)) {
      if (shown.has(q.callId)) continue;
      shown.add(q.callId);
      showQuestion(stream, q);
    }
  };
  const subs = [
    d.onDidChangeRun((id) => {
      if (id !== runId) return;
      const doing = d.activity(runId);
      if (doing) stream.progress(doing);
    }),
    d.questions.onDidChange(questions),
  ];
  questions();
  try {
    await Promise.race([done, new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()))]);
  } finally {
    for (const s of subs) s.dispose();
  }
  if (token.isCancellationRequested) return;
  stream.markdown('\n\n' + (await d.result(runId)));
  stream.button(openRunButton(runId));
}
