/**
 * The CLI's approver: `--approve yes` approves every call (and answers the ladder with
 * "rerun" only when told to), `no` denies, `ask` asks on the terminal. A terminal that is
 * not interactive answers "later": the run pauses with the question saved.
 */
import * as readline from 'node:readline/promises';
import type { Approver, ApprovalRequest, ApprovalAnswer, LadderQuestion, LadderAnswer } from '../agent/approver';

export type ApproveMode = 'ask' | 'yes' | 'no';

export class TerminalApprover implements Approver {
  asked = 0;
  constructor(
    private readonly mode: ApproveMode,
    private readonly io: { input: NodeJS.ReadableStream & { isTTY?: boolean }; output: NodeJS.WritableStream } = {
      input: process.stdin,
      output: process.stderr,
    },
  ) {}

  async approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    if (this.mode === 'yes') return 'approve';
    if (this.mode === 'no') return 'deny';
    const text = `\n${req.title}\n${indent(req.detail)}\nApprove ${req.tool} (call ${req.callId})? [y]es / [n]o / [l]ater: `;
    const a = await this.prompt(text, signal);
    if (a === undefined) return 'later';
    if (/^y(es)?$/i.test(a)) return 'approve';
    if (/^n(o)?$/i.test(a)) return 'deny';
    return 'later';
  }

  async resolve(q: LadderQuestion, signal: AbortSignal): Promise<LadderAnswer> {
    this.asked++;
    const text =
      `\nA call may or may not have happened: ${q.tool} (call ${q.callId}, started ${q.startedAt}).\n` +
      `${q.reason}\nArguments: ${q.args}\n` +
      `Did it happen? [d]one (it happened) / [r]erun (it did not) / [l]ater: `;
    const a = await this.prompt(text, signal);
    if (a === undefined || /^l/i.test(a)) return { answer: 'later' };
    if (/^r/i.test(a)) return { answer: 'rerun' };
    if (/^d/i.test(a)) {
      const note = await this.prompt("What did you find (this becomes the call's result)? ", signal);
      return { answer: 'done', result: note && note.trim() ? note.trim() : 'A person confirmed the call had already happened.' };
    }
    return { answer: 'later' };
  }

  answeredBy(): string {
    return this.mode === 'ask' ? 'you, on the terminal' : `the command line (--approve ${this.mode})`;
  }

  private async prompt(text: string, signal: AbortSignal): Promise<string | undefined> {
    if (!this.io.input.isTTY) return undefined;
    const rl = readline.createInterface({ input: this.io.input, output: this.io.output });
    try {
      return await rl.question(text, { signal });
    } catch {
      return undefined;
    } finally {
      rl.close();
    }
  }
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => '  ' + l)
    .join('\n');
}
