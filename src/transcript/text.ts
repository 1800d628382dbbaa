/**
 * A transcript as plain text, for the terminal (`triage show --transcript`). Long blocks are
 * shortened (the editor's Run panel shows them whole).
 */
import type { Block, Entry, Transcript } from '../core/transcript';
import { dollars, tokens } from './words';
import { causeRowText } from './causes';

const MAX_LINES = 12;

function indent(text: string, by: string): string[] {
  const lines = text.replace(/\s+$/, '').split('\n');
  const shown = lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `… (${lines.length - MAX_LINES} more lines)`] : lines;
  return shown.map((l) => `${by}${l}`);
}

function block(b: Block, by: string): string[] {
  switch (b.kind) {
    case 'text':
    case 'code':
      return indent(b.text, by);
    case 'diff':
      return indent(b.text, by);
    case 'tests': {
      const out = [`${by}tests: ${b.passed} passed, ${b.failed} failed`];
      for (const f of b.failures) out.push(`${by}  FAILED ${f.name}`, ...indent(f.detail, `${by}    `).slice(0, 4));
      return out;
    }
    case 'issue':
      return [`${by}title: ${b.title}`, ...(b.cause ? [`${by}cause: ${b.cause}`] : []), ...indent(b.body, `${by}| `)];
    case 'links':
      return b.links.map((l) => `${by}${l.label}: ${l.url}`);
  }
}

const MARK: Record<string, string> = { done: '✓', error: '✗', denied: '✗', waiting: '?', unresolved: '~', 'not-run': '·' };

function entry(e: Entry): string[] {
  switch (e.kind) {
    case 'prompt':
      return ['Task given to the model:', ...indent(e.text, '  ')];
    case 'message':
      return ['Told the model:', ...indent(e.text, '  ')];
    case 'turn': {
      const u = e.usage ? ` (${tokens(e.usage.inputTokens)} in, ${tokens(e.usage.outputTokens)} out, ${dollars(e.usage.dollars)})` : '';
      return [`Turn ${e.turn}${u}`, ...(e.text ? indent(e.text, '  ') : [])];
    }
    case 'call': {
      const c = e.call;
      const out = [`  ${MARK[c.status] ?? ' '} ${c.title}  [${c.tool} ${c.callId}]`];
      for (const b of c.args) if (b.kind === 'issue' || b.kind === 'diff' || b.kind === 'links') out.push(...block(b, '      '));
      for (const n of c.notes) out.push(`      » ${n.text}`);
      if (c.result)
        out.push(
          `      → ${c.result.summary}${c.result.bytes !== undefined ? `  (${c.result.bytes} bytes)` : ''}`,
          ...c.result.blocks.filter((b) => b.kind === 'tests' || b.kind === 'links').flatMap((b) => block(b, '        ')),
        );
      else if (c.status === 'waiting') out.push('      → waiting for a person');
      else if (c.status === 'unresolved') out.push('      → started, result not saved: decided when the run resumes');
      return out;
    }
    case 'history':
      return [`==> ${e.title}`, ...e.lines.map((l) => `    ${l}`)];
    case 'answer':
      return ['Final answer:', ...indent(e.text || '(empty)', '  ')];
  }
}

export function transcriptText(t: Transcript): string {
  const out: string[] = [
    `Run ${t.runId} (${t.task}): ${t.status}`,
    `model ${t.provider}/${t.model} · ${t.turns} turns · ${t.restarts} restarts · ${tokens(t.usage.inputTokens)} in, ${tokens(t.usage.outputTokens)} out · ${dollars(t.usage.dollars)}`,
    `workspace ${t.workspace}`,
    '',
  ];
  for (const e of t.entries) out.push(...entry(e));
  if (t.pending.length)
    out.push('', 'Waiting for you:', ...t.pending.map((p) => `  ${p.kind === 'approval' ? 'approve' : 'did it happen?'} ${p.title} [${p.callId}]`));
  if (t.files.length) out.push('', 'Files written:', ...t.files.map((f) => `  ${f.change.padEnd(8)} ${f.label ?? f.path}`));
  if (t.issues.length) out.push('', 'Issues filed:', ...t.issues.map((i) => `  #${i.number} ${i.title}${i.url ? `  ${i.url}` : ''}`));
  if (t.causes?.length) out.push('', 'Per cause:', ...t.causes.flatMap(causeRowText));
  if (t.checks) out.push('', `Checks: ${t.checks.passed}/${t.checks.total} passed`, ...t.checks.failed.map((f) => `  FAIL ${f.name}: ${f.detail}`));
  if (t.notes.length) out.push('', ...t.notes.map((n) => `Note: ${n}`));
  return out.join('\n') + '\n';
}
