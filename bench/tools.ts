/**
 * The agent's read tools on a generated repository (issue 20): search_files against plain
 * `rg` on the same tree of more than 5,000 files, 3,000 of them build output under a
 * `target/` that .gitignore names (the ratio of medians, and how many results came from
 * target/: none), and read_file of one 40-line function of a 58 KB file (bytes returned over
 * the function's bytes).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Report } from './report';
import { median, rotated, timed } from './measure';
import { searchFilesTool } from '../src/tools/search-files';
import { readFileTool } from '../src/tools/read-file';
import { findRipgrep } from '../src/tools/search/find-ripgrep';
import type { ToolContext } from '../src/agent/tool';

const SOURCE_FILES = 2_400;
const TARGET_FILES = 3_000;
const ROUNDS = 9;
/** Lines before and after the function, so the file is about 58 KB. */
const FILLER = 500;

export async function tools(report: Report): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-bench-tools-'));
  try {
    generate(root);
    await search(report, root);
    await read(report, root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function generate(root: string): void {
  const write = (rel: string, text: string): void => {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
  };
  write('.gitignore', 'target/\n');
  for (let i = 0; i < SOURCE_FILES; i++) {
    const body = Array.from({ length: 30 }, (_, j) => `    let v${j} = compute_${i}_${j}(input);`).join('\n');
    const uses = i % 40 === 0 ? '    let cfg = parse_config(&path)?;\n' : '';
    write(`crates/c${i % 24}/src/m${i}.rs`, `// module ${i}\npub fn run_${i}(input: &str) -> usize {\n${uses}${body}\n    0\n}\n`);
  }
  for (let i = 0; i < TARGET_FILES; i++) write(`target/debug/deps/g${i}.rs`, `// generated ${i}\nfn parse_config() {}\nconst X: u32 = ${i};\n`);
}

function ctx(workspace: string): ToolContext {
  return { runId: 'bench', callId: 'bench', workspace, signal: new AbortController().signal, recordWrite: async () => {} };
}

async function search(report: Report, root: string): Promise<void> {
  const rg = findRipgrep();
  if (!rg) {
    report.add({ bench: 'tools', name: 'search_files / rg', value: null, unit: 'x', note: 'no ripgrep here (install ripgrep or set DURABLE_TRIAGE_RG)' });
    return;
  }
  const tool = searchFilesTool();
  let content = '';
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await rotated(round, [
      async () => void ours.push(await timed(async () => (content = (await tool.run({ query: 'parse_config' }, ctx(root))).content))),
      async () => void theirs.push(await timed(() => runRg(rg, root))),
    ]);
  }
  const files = SOURCE_FILES + TARGET_FILES + 1;
  const ratio = median(ours) / median(theirs);
  report.atMost(
    {
      bench: 'tools',
      name: 'search_files / rg (same tree)',
      value: round2(ratio),
      unit: 'x',
      note: `${files} files, ${TARGET_FILES} ignored under target/; medians ${median(ours).toFixed(0)} ms vs ${median(theirs).toFixed(0)} ms over ${ROUNDS} rounds`,
    },
    1.5,
  );
  const fromTarget = content.split('\n').filter((l) => l.startsWith('target/')).length;
  report.atMost({ bench: 'tools', name: 'search results from ignored paths', value: fromTarget, unit: 'files', note: content.split('\n')[0] }, 0);
}

function runRg(rg: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ['parse_config'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

async function read(report: Report, root: string): Promise<void> {
  const before = Array.from({ length: FILLER }, (_, i) => `    let before_${i} = helper(${i}); // filler line ${i}`).join('\n');
  const fn = [
    'fn divide_all(xs: &[i64], d: i64) -> Vec<i64> {',
    ...Array.from({ length: 38 }, (_, i) => `    let step_${i} = xs.iter().map(|x| x / d + ${i}).sum::<i64>();`),
    '}',
  ];
  const after = Array.from({ length: FILLER }, (_, i) => `    let after_${i} = helper(${i}); // filler line ${i}`).join('\n');
  const text = `fn head() {\n${before}\n}\n${fn.join('\n')}\nfn tail() {\n${after}\n}\n`;
  const scaled = text.length > 58_000 ? text : text + '// pad\n'.repeat(Math.ceil((58_000 - text.length) / 7));
  fs.writeFileSync(path.join(root, 'big.rs'), scaled);
  const start = 1 + FILLER + 1 + 1; // head's line, its filler lines, its "}", then the function
  const out = await readFileTool().run({ path: 'big.rs', start_line: start, line_count: fn.length }, ctx(root));
  if (out.content.split('\n')[1] !== `${start}\t${fn[0]}`) throw new Error(`read_file did not return the function: ${out.content.slice(0, 200)}`);
  const fnBytes = Buffer.byteLength(`${fn.join('\n')}\n`);
  const got = Buffer.byteLength(out.content);
  report.atMost(
    {
      bench: 'tools',
      name: 'read_file of a 40-line function / its bytes',
      value: round2(got / fnBytes),
      unit: 'x',
      note: `${got} bytes returned for a ${fnBytes}-byte function of a ${Buffer.byteLength(scaled)}-byte file (the whole file before issue 20)`,
    },
    2,
  );
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
