// The real-editor scenario of issue 22 item 1: a run started in the editor uses the tool of an MCP
// server nobody here wrote (@modelcontextprotocol/server-memory, from npm) configured in the user
// setting durableTriage.mcp.servers. The model is an OpenAI-compatible stand-in on 127.0.0.1 that
// calls memory__create_entities, then answers; approval.tools names the tool memory/create_entities,
// so the approval comes as our notification; the server holds the entity once; the Run panel
// shows the call by its server and tool. Then the workspace's .vscode/mcp.json: used only after the
// modal naming its server and command is answered, while a workspace value of the setting is ignored.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { E2eSuite, pickQuickItem, runCommand } from './harness';
import type { Page } from './playwright';
import { REPO_ROOT } from './paths';
import { clickDialogButton, panelEntries, waitForRunPanel } from './run-panel';
import { CMD_START, LOG_NAME, approveUntilDone } from './triage-ui';
import { waitFor } from './wait';

const SCENARIO_TIMEOUT_MS = 240_000;
const TASK = 'cart-unknown-coupon';
const MODEL = 'OpenAI-compatible';
const MEMORY_SERVER = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const ENTITY = { name: 'crash-e2e-unknown-coupon', entityType: 'crash', observations: ['seen in the editor'] };

/** An OpenAI-compatible chat completions stand-in: the first reply calls the MCP tool, every later one answers. */
async function modelStandIn(): Promise<{ url: string; bodies: unknown[]; close: () => Promise<void> }> {
  const bodies: unknown[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      const base = { id: `chatcmpl-${bodies.length}`, object: 'chat.completion.chunk', model: 'stand-in' };
      const delta =
        bodies.length === 1
          ? {
              role: 'assistant',
              tool_calls: [
                { index: 0, id: 'call_1', type: 'function', function: { name: 'memory__create_entities', arguments: JSON.stringify({ entities: [ENTITY] }) } },
              ],
            }
          : { role: 'assistant', content: 'Recorded the crash in the memory server.' };
      const frames = [
        { ...base, choices: [{ index: 0, delta, finish_reason: null }] },
        { ...base, choices: [{ index: 0, delta: {}, finish_reason: bodies.length === 1 ? 'tool_calls' : 'stop' }] },
        { ...base, choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } },
      ];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join('') + 'data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Start Triage on the task with the OpenAI-compatible model; the model is picked by keyboard (a hover over a row's long detail can cover the next row and swallow a click). */
async function startWithStandIn(page: Page): Promise<void> {
  await runCommand(page, CMD_START);
  await pickQuickItem(page, TASK);
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ visible: true });
  await rows.filter({ hasText: MODEL }).first().waitFor({ state: 'visible', timeout: 15_000 });
  await page.keyboard.type(MODEL);
  await waitFor(async () => ((await rows.count()) === 1 && (await rows.first().innerText()).includes(MODEL)) || undefined, {
    what: `the model pick to show only ${MODEL}`,
    timeoutMs: 15_000,
    intervalMs: 100,
  });
  await page.keyboard.press('Enter');
}

let suite: E2eSuite | undefined;
before(async () => {
  suite = await E2eSuite.start();
});
after(async () => {
  await suite?.close();
});

test(
  '11. an MCP server from the user setting: the model calls its tool, approved in our notification as server/tool, the server holds the entity once, the Run panel names the call',
  { timeout: SCENARIO_TIMEOUT_MS },
  async () => {
    const model = await modelStandIn();
    const memoryDir = fs.mkdtempSync(path.join(suite!.root, 'memory-'));
    const memoryFile = path.join(memoryDir, 'memory.jsonl');
    try {
      const workspace = path.join(REPO_ROOT, 'samples', TASK, 'workspace');
      const userSettings = {
        'durableTriage.model.baseUrl': model.url,
        'durableTriage.model.name': 'stand-in',
        'durableTriage.approval.tools': ['memory/create_entities'],
        'durableTriage.mcp.servers': {
          memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: memoryFile } },
        },
      };
      await suite!.run({ scenario: '11-mcp-server', workspace, userSettings, extensionLogName: LOG_NAME }, async (s) => {
        await startWithStandIn(s.page);
        const fin = await approveUntilDone(s.page);
        assert.equal(fin.approvals.length, 1, JSON.stringify(fin.approvals));
        assert.match(fin.approvals[0]!, /^Durable Triage: approve memory__create_entities\? memory\/create_entities \(MCP\)/);

        // The model was offered the server's tools, and got the tool's result back.
        const first = model.bodies[0] as { tools?: { function: { name: string } }[] };
        assert.ok(
          first.tools?.some((t) => t.function.name === 'memory__create_entities'),
          JSON.stringify(first.tools?.map((t) => t.function.name)),
        );
        const second = JSON.stringify(model.bodies[1]);
        assert.match(second, /"role":"tool"/);
        assert.match(second, /crash-e2e-unknown-coupon/);

        // The server holds the entity, once.
        const lines = fs
          .readFileSync(memoryFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes(ENTITY.name));
        assert.equal(lines.length, 1, lines.join('\n'));

        // The Run panel shows the call by its server and tool.
        await waitForRunPanel(s.page);
        const entries = await waitFor(
          async () => {
            const e = await panelEntries(s.page);
            return e.some((t) => t.includes('memory/create_entities (MCP)')) ? e : undefined;
          },
          { what: 'the Run panel to show the MCP call', timeoutMs: 30_000, intervalMs: 500 },
        );
        assert.ok(entries.some((t) => t.includes('memory/create_entities (MCP)')));
        await s.screenshot('11-mcp-server/panel');
      });
    } finally {
      await model.close();
    }
  },
);

test(
  "12. the workspace's .vscode/mcp.json is used once allowed in a modal naming its server and command; a workspace value of durableTriage.mcp.servers is ignored",
  { timeout: SCENARIO_TIMEOUT_MS },
  async () => {
    const model = await modelStandIn();
    const memoryDir = fs.mkdtempSync(path.join(suite!.root, 'memory-'));
    const memoryFile = path.join(memoryDir, 'memory.jsonl');
    const touched = path.join(memoryDir, 'workspace-setting-ran');
    try {
      const workspace = path.join(REPO_ROOT, 'samples', TASK, 'workspace');
      const userSettings = {
        'durableTriage.model.baseUrl': model.url,
        'durableTriage.model.name': 'stand-in',
        'durableTriage.approval.tools': ['memory/create_entities'],
      };
      const workspaceSettings = { 'durableTriage.mcp.servers': { sneaky: { command: 'touch', args: [touched] } } };
      await suite!.run({ scenario: '12-workspace-mcp-json', workspace, userSettings, workspaceSettings, extensionLogName: LOG_NAME }, async (s) => {
        // The setting is application-scoped: the editor itself does not apply a workspace value of it (and the extension would set it aside).
        fs.writeFileSync(
          path.join(s.workspace, '.vscode', 'mcp.json'),
          `{\n  // the team's servers\n  "servers": {\n    "memory": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(MEMORY_SERVER)}], "env": { "MEMORY_FILE_PATH": ${JSON.stringify(memoryFile)} } },\n  },\n}\n`,
        );
        await startWithStandIn(s.page);
        const asked = await clickDialogButton(s.page, /configures an MCP server/, 'Use These Servers', 60_000);
        assert.ok(asked.includes(`memory: runs ${process.execPath} ${MEMORY_SERVER} (environment: MEMORY_FILE_PATH)`), asked);
        const fin = await approveUntilDone(s.page);
        assert.equal(fin.approvals.length, 1, JSON.stringify(fin.approvals));
        const offered = (model.bodies[0] as { tools?: { function: { name: string } }[] }).tools?.map((t) => t.function.name) ?? [];
        assert.ok(offered.includes('memory__create_entities'), JSON.stringify(offered));
        assert.ok(!offered.some((n) => n.startsWith('sneaky__')), JSON.stringify(offered));
        assert.equal(fs.existsSync(touched), false, "the workspace setting's command never ran");
        assert.equal(
          fs
            .readFileSync(memoryFile, 'utf8')
            .split('\n')
            .filter((l) => l.includes(ENTITY.name)).length,
          1,
        );
      });
    } finally {
      await model.close();
    }
  },
);
