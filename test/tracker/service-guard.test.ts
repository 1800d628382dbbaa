/**
 * The tracker service refuses what a web page could send it: a Host that is not this server
 * (DNS rebinding), an Origin of another site, a POST that is not JSON (a cross-site form). Each
 * refusal is 403/415 with a JSON error and files nothing; the project's own client still works.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { startTracker, type TrackerService } from '../../src/tracker/service';
import { TrackerClient } from '../../src/tracker/client';

const ISSUE = { title: 'divide by zero', body: 'see crashes/dz/c1.txt', cause: 'dz' };

async function served(t: TestContext): Promise<TrackerService & { port: number }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'triage-tracker-guard-'));
  const svc = await startTracker({ dir, port: 0, host: '127.0.0.1' });
  t.after(async () => {
    await svc.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  return { ...svc, port: Number(new URL(svc.url).port) };
}

/** A raw request with exactly these headers (Host and Origin included), as a browser or a rebinding page would send. */
function raw(
  port: number,
  method: string,
  where: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; type: string; json: { error?: string } }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: where, headers, setHost: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), json: (text ? JSON.parse(text) : {}) as { error?: string } }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'content-type': 'application/json' };

test('a Host that is not this server is refused with 403 and a JSON error, and nothing is filed', async (t) => {
  const svc = await served(t);
  for (const host of [
    `evil.example:${svc.port}`,
    'evil.example',
    `127.0.0.1:${svc.port + 1}`,
    `localhost.evil.example:${svc.port}`,
    `127.0.0.1@evil.example:${svc.port}`,
  ]) {
    const r = await raw(svc.port, 'POST', '/issues', { host, ...json }, JSON.stringify(ISSUE));
    assert.equal(r.status, 403, host);
    assert.match(r.type, /^application\/json/);
    assert.match(r.json.error ?? '', /is not this tracker/, host);
    assert.equal((await raw(svc.port, 'GET', '/issues', { host })).status, 403, `GET with Host ${host}`);
  }
  assert.ok([400, 403].includes((await raw(svc.port, 'GET', '/meta', {})).status), 'no Host at all (Node itself answers 400)');
  assert.deepEqual(await svc.store.list(), []);
  for (const host of [`127.0.0.1:${svc.port}`, `localhost:${svc.port}`, `LOCALHOST:${svc.port}`, `[::1]:${svc.port}`]) {
    assert.equal((await raw(svc.port, 'GET', '/meta', { host })).status, 200, host);
  }
});

test('an Origin other than the tracker itself is refused with 403; its own origin is accepted', async (t) => {
  const svc = await served(t);
  const host = `127.0.0.1:${svc.port}`;
  for (const origin of [
    'https://evil.example',
    'null',
    `http://evil.example:${svc.port}`,
    `https://127.0.0.1:${svc.port}`,
    `http://127.0.0.1:${svc.port + 1}`,
  ]) {
    const r = await raw(svc.port, 'POST', '/issues', { host, origin, ...json }, JSON.stringify(ISSUE));
    assert.equal(r.status, 403, origin);
    assert.match(r.json.error ?? '', /origin/, origin);
  }
  assert.deepEqual(await svc.store.list(), []);
  const own = await raw(svc.port, 'POST', '/issues', { host, origin: `http://localhost:${svc.port}`, ...json }, JSON.stringify(ISSUE));
  assert.equal(own.status, 201);
});

test('a POST that is not Content-Type: application/json is refused with 415; with a charset it is accepted', async (t) => {
  const svc = await served(t);
  const host = `127.0.0.1:${svc.port}`;
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
    const r = await raw(svc.port, 'POST', '/issues', { host, ...(type ? { 'content-type': type } : {}) }, JSON.stringify(ISSUE));
    assert.equal(r.status, 415, String(type));
    assert.match(r.json.error ?? '', /application\/json/);
  }
  assert.deepEqual(await svc.store.list(), []);
  assert.equal((await raw(svc.port, 'POST', '/issues', { host, 'content-type': 'Application/JSON; charset=utf-8' }, JSON.stringify(ISSUE))).status, 201);
});

test("the project's own client still files, finds and reads issues", async (t) => {
  const svc = await served(t);
  const client = new TrackerClient(svc.url);
  assert.ok((await client.meta()).retentionMs > 0);
  const filed = await client.fileIssue(ISSUE, { key: 'k-1', runId: 'run-1', workspace: '/ws' });
  assert.equal(filed.issue.number, 1);
  assert.equal((await client.fileIssue(ISSUE, { key: 'k-1', runId: 'run-1', workspace: '/ws' })).replayed, true);
  assert.equal((await client.byKey('k-1'))?.number, 1);
  assert.deepEqual(
    (await client.search({ cause: 'dz' })).map((i) => i.number),
    [1],
  );
  assert.equal((await client.get(1))?.title, ISSUE.title);
  const byName = new TrackerClient(`http://localhost:${svc.port}`);
  assert.equal((await byName.get(1))?.title, ISSUE.title, 'by the name localhost too');
});
