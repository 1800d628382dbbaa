/**
 * The MCP sweep (src/sweep/mcp-sweep.ts) compared with its saved table test/data/sweep-mcp.txt:
 * a change in any count fails. After an intended change, regenerate it with
 * `node bin/triage.js sweep --mcp > test/data/sweep-mcp.txt` (and say why in the commit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mcpSweepRows } from '../../src/sweep/mcp-sweep';
import { formatMcpTable, mcpSweepNotes } from '../../src/sweep/mcp-table';

const SAVED = path.resolve(__dirname, '..', '..', '..', 'test', 'data', 'sweep-mcp.txt');

test('the MCP crash sweep matches the saved table', { timeout: 3_600_000 }, async () => {
  const rows = await mcpSweepRows();
  const notes = mcpSweepNotes(rows);
  assert.equal(formatMcpTable(rows), fs.readFileSync(SAVED, 'utf8'), notes);
  // What the sweep exists to show, whatever the saved copy says.
  for (const r of rows) {
    const row = `${r.lookup ? 'lookup' : 'no lookup'} ${r.kind} keys ${r.keys ? 'on' : 'off'} (${r.crashes})`;
    for (const k of ['duplicates', 'twice', 'unasked', 'unfinished', 'blocked', 'failing'] as const) assert.equal(r[k], 0, `${row}: ${k}\n${notes}`);
    assert.ok(r.pending > 0, `${row}: no crash landed between the call and its saved result`);
    // Each restart that finds the call begun and unfinished asks once (a second crash may land before it asks).
    const asked = r.lookup ? r.lookups : r.questions;
    if (r.crashes === 1) assert.equal(asked, r.pending, `${row}: asked once per crash between the call and its saved result`);
    else assert.ok(asked <= r.pending && asked > 0, `${row}: asked ${asked} times for ${r.pending} restarts with the call pending`);
    assert.equal(r.lookup ? r.questions : r.lookups, 0, r.lookup ? `${row}: with a lookup nobody is asked` : `${row}: no lookup configured`);
  }
});
