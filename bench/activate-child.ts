/**
 * One activation of the bundled extension in a fresh process, for the extension benchmark:
 *   node activate-child.js <bundle> <stateDir> <workspace> <runId> <extensionRoot>
 * With `vscode` faked (vscode-fake.ts, installed through Module._load), it times requiring the
 * bundle, activate() returning, and the startup scan offering to resume the interrupted run
 * (the notification naming it). Prints one JSON line: {requireMs, activateMs, offerMs, shown, logs}.
 */
import Module from 'node:module';
import { performance } from 'node:perf_hooks';
import { fakeContext, fakeVscode, type Shown } from './vscode-fake';

const OFFER_TIMEOUT_MS = 20_000;

async function main(bundle: string, stateDir: string, workspace: string, runId: string, root: string): Promise<void> {
  const shown: Shown[] = [];
  const logs: string[] = [];
  let offered: (at: number) => void = () => undefined;
  const offer = new Promise<number>((resolve) => (offered = resolve));
  // The state directory through the extension's own setting, so where it keeps runs by default does not matter here.
  const vscode = fakeVscode(
    workspace,
    { stateDirectory: stateDir },
    shown,
    (s) => {
      if (s.message.includes(runId)) offered(s.at);
    },
    logs,
  );
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  const t0 = performance.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ext = require(bundle) as { activate(c: unknown): unknown; deactivate?(): unknown };
  const t1 = performance.now();
  await ext.activate(fakeContext(stateDir, root));
  const t2 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const at = await Promise.race([offer, new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), OFFER_TIMEOUT_MS)))]);
  clearTimeout(timer);
  process.stdout.write(
    JSON.stringify({
      requireMs: t1 - t0,
      activateMs: t2 - t1,
      offerMs: at === undefined ? null : at - t0,
      shown: shown.map((s) => `${s.kind}: ${s.message}`),
      logs,
    }) + '\n',
  );
  await ext.deactivate?.();
}

const args = process.argv.slice(2);
if (args.length === 5) {
  const [bundle, stateDir, workspace, runId, root] = args;
  main(bundle, stateDir, workspace, runId, root).then(
    () => process.exit(0),
    (e) => {
      process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
      process.exit(1);
    },
  );
}
