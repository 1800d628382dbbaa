// `triage tool NAME --workspace DIR --args JSON` (issue 20 item 7): one tool, run as the agent runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { triage } from './support';
import { tempDir } from '../support/temp-dir';
import { parseToolArgs } from '../../src/agent/tool-args';
import { readFileTool } from '../../src/tools/read-file';
import { EXIT } from '../../src/cli/exitcodes';

function workspace(t: Parameters<typeof tempDir>[0]): string {
  const ws = tempDir(t);
  fs.mkdirSync(path.join(ws, 'src'));
  fs.writeFileSync(path.join(ws, 'src', 'a.js'), 'function divide(a, b) {\n  return a / b;\n}\n');
  fs.writeFileSync(path.join(ws, '.gitignore'), 'dist/\n');
  fs.mkdirSync(path.join(ws, 'dist'));
  fs.writeFileSync(path.join(ws, 'dist', 'a.js'), 'function divide() {}\n');
  return ws;
}

test('triage tool prints the result the model would see', (t) => {
  const ws = workspace(t);
  const r = triage(['tool', 'search_files', '--workspace', ws, '--args', '{"query":"divide"}']);
  assert.equal(r.status, EXIT.done, r.stderr);
  assert.equal(r.stdout, '1 matching line in 1 file for the text "divide" in .: all shown\nsrc/a.js\n  1: function divide(a, b) {\n');
  const read = triage(['tool', 'read_file', '--workspace', ws, '--args', '{"path":"src/a.js","start_line":2,"line_count":1}']);
  assert.equal(read.stdout, 'src/a.js: lines 2-2 of 3; not shown: lines 1, 3\n2\t  return a / b;\n');
});

test("triage tool: bad arguments get the model's error text and exit 2; a writing tool is refused (exit 15) and writes nothing", (t) => {
  const ws = workspace(t);
  for (const raw of ['{"path":3}', '{bad', '[]']) {
    const r = triage(['tool', 'read_file', '--workspace', ws, '--args', raw]);
    assert.equal(r.status, EXIT.badInput, raw);
    const expected = parseToolArgs(readFileTool(), raw);
    assert.equal(expected.ok, false);
    assert.equal(r.stdout, `${expected.ok ? '' : expected.error}\n`);
  }
  const w = triage(['tool', 'write_file', '--workspace', ws, '--args', '{"path":"new.txt","content":"x"}']);
  assert.equal(w.status, EXIT.writesNotAllowed);
  assert.match(w.stderr, /write_file changes something \(it is not read-only\); it runs only with --allow-writes/);
  assert.equal(fs.existsSync(path.join(ws, 'new.txt')), false);
  const allowed = triage(['tool', 'write_file', '--workspace', ws, '--allow-writes', '--args', '{"path":"new.txt","content":"x"}']);
  assert.equal(allowed.status, EXIT.done, allowed.stderr);
  assert.equal(fs.readFileSync(path.join(ws, 'new.txt'), 'utf8'), 'x');
  const unknown = triage(['tool', 'nope', '--workspace', ws]);
  assert.equal(unknown.status, EXIT.badInput);
  assert.match(unknown.stderr, /there is no tool "nope"/);
  const toolErr = triage(['tool', 'read_file', '--workspace', ws, '--args', '{"path":"../x"}']);
  assert.equal(toolErr.status, EXIT.badInput);
  assert.match(toolErr.stdout, /^read_file: path "\.\.\/x" is outside the workspace/);
});
