// What a failed (or a showing) scenario leaves behind in test-artifacts/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from './playwright';
import { ARTIFACTS_DIR } from './paths';

/** Saves a PNG of page as ARTIFACTS_DIR/<name>.png (name may contain a sub-folder). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(ARTIFACTS_DIR, name.endsWith('.png') ? name : `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.mouse.move(1, 1).catch(() => undefined); // no hover tooltip where the pointer was left
  await page.screenshot({ path: file, timeout: 15_000 });
  return file;
}

/** Every file under dir whose name matches test, recursively. */
export function findFiles(dir: string, test: (name: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...findFiles(p, test));
    else if (test(e.name)) out.push(p);
  }
  return out;
}

export interface FailureEvidence {
  scenario: string;
  error: unknown;
  pages: { name: string; page: Page; console: string[] }[];
  userDataDir: string;
  serverOutput: string;
  /** The log file name to surface at the top level, e.g. "Durable Triage". */
  extensionLogName: string;
}

/**
 * Writes test-artifacts/<scenario>/: error.txt, a screenshot and console log per page,
 * the extension's log file(s), the editor's logs folder, and code-server's output.
 */
export async function saveFailureArtifacts(ev: FailureEvidence): Promise<string> {
  const dir = path.join(ARTIFACTS_DIR, ev.scenario);
  fs.mkdirSync(dir, { recursive: true });
  const err = ev.error instanceof Error ? `${ev.error.stack ?? ev.error.message}` : String(ev.error);
  fs.writeFileSync(path.join(dir, 'error.txt'), err + '\n');
  for (const p of ev.pages) {
    if (p.page.isClosed()) continue;
    await screenshot(p.page, path.join(ev.scenario, `${p.name}.png`)).catch(() => undefined);
    fs.writeFileSync(path.join(dir, `${p.name}-console.txt`), p.console.join('\n') + '\n');
  }
  const logs = path.join(ev.userDataDir, 'logs');
  for (const f of findFiles(logs, (n) => n.includes(ev.extensionLogName) && n.endsWith('.log'))) {
    const rel = path.relative(logs, f).split(path.sep).join('_');
    fs.copyFileSync(f, path.join(dir, rel));
  }
  if (fs.existsSync(logs)) fs.cpSync(logs, path.join(dir, 'editor-logs'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'code-server-output.txt'), ev.serverOutput);
  return dir;
}
