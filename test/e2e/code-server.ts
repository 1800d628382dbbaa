// A code-server of its own for one test: fresh user-data and config folders, the .vsix
// installed, bound to a free 127.0.0.1 port, ready when /healthz answers.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { CODE_SERVER_ENTRY } from './paths';
import { waitFor, WaitAbortedError } from './wait';
import { descendants } from './proc';

const execFileP = promisify(execFile);

/**
 * Pids of the extension hosts code-server launched, in order, from its output; with from,
 * only those launched after the first line matching from (so after a window's reload).
 */
export function launchedExtensionHosts(output: string, from?: RegExp): number[] {
  let text = output;
  if (from) {
    const m = from.exec(text);
    if (!m) return [];
    text = text.slice(m.index);
  }
  return [...text.matchAll(/<(\d+)> Launched Extension Host Process/g)].map((m) => Number(m[1]));
}

/** What code-server logs when a window goes away on reload or close. */
export const CLIENT_DISCONNECTED = /\[ManagementConnection\] The client has disconnected gracefully/;

/** User settings that pre-trust workspaces and silence first-run UI. */
export const QUIET_USER_SETTINGS: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'security.workspace.trust.startupPrompt': 'never',
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.commandCenter.enabled': false,
  'chat.disableAIFeatures': true,
  'github.copilot.enable': { '*': false },
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'git.enabled': false,
  'window.commandCenter': true,
  'files.hotExit': 'off',
};

export interface CodeServerOptions {
  /** Folder for this server's data (user-data, config, XDG homes); created if missing. */
  baseDir: string;
  /** Extensions folder; may be shared between servers once the .vsix is installed there. */
  extensionsDir: string;
  /** Merged over QUIET_USER_SETTINGS into User/settings.json. */
  userSettings?: Record<string, unknown>;
  /** Added to the server's environment (its extension hosts inherit it). */
  env?: Record<string, string>;
  /** More code-server arguments, e.g. ["--disable-extension", "vscode.github-authentication"]. */
  extraArgs?: string[];
  startTimeoutMs?: number;
}

export interface CodeServer {
  url: string;
  port: number;
  /** The code-server process; extension hosts are among its descendants. */
  pid: number;
  userDataDir: string;
  extensionsDir: string;
  /** Everything code-server printed so far. */
  output(): string;
  /** Kills code-server and everything under it; waits until it has exited. */
  stop(): Promise<void>;
}

/** The environment for code-server: its own XDG homes, and no link to an enclosing VS Code. */
function isolatedEnv(baseDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) {
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE' || k === 'PORT' || k === 'PASSWORD') delete env[k];
  }
  env.XDG_CONFIG_HOME = path.join(baseDir, 'xdg-config');
  env.XDG_DATA_HOME = path.join(baseDir, 'xdg-data');
  env.XDG_CACHE_HOME = path.join(baseDir, 'xdg-cache');
  return env;
}

function commonArgs(baseDir: string, extensionsDir: string): string[] {
  return ['--config', path.join(baseDir, 'config.yaml'), '--user-data-dir', path.join(baseDir, 'user-data'), '--extensions-dir', extensionsDir];
}

/** Installs a .vsix into extensionsDir with code-server's CLI. */
export async function installExtension(vsix: string, baseDir: string, extensionsDir: string): Promise<void> {
  if (!fs.existsSync(vsix)) throw new Error(`no .vsix at ${vsix}; run "npm run package" first`);
  fs.mkdirSync(baseDir, { recursive: true });
  fs.writeFileSync(path.join(baseDir, 'config.yaml'), 'auth: none\n');
  const args = [CODE_SERVER_ENTRY, ...commonArgs(baseDir, extensionsDir), '--force', '--install-extension', vsix];
  try {
    await execFileP(process.execPath, args, { env: isolatedEnv(baseDir), timeout: 120_000 });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`code-server --install-extension ${vsix} failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
}

export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  const { baseDir, extensionsDir } = opts;
  const userDataDir = path.join(baseDir, 'user-data');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(baseDir, 'config.yaml'), 'auth: none\n');
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...QUIET_USER_SETTINGS, ...opts.userSettings }, null, 2));
  const args = [
    CODE_SERVER_ENTRY,
    ...commonArgs(baseDir, extensionsDir),
    '--bind-addr',
    '127.0.0.1:0',
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--disable-proxy',
    '--ignore-last-opened',
    ...(opts.extraArgs ?? []),
  ];
  // detached: a process group of its own, so stop() can kill the whole tree at once.
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...isolatedEnv(baseDir), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let exited: string | undefined;
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  const exitedP = new Promise<void>((resolve) =>
    child.once('exit', (code, sig) => {
      exited = `exited (${code ?? sig})`;
      resolve();
    }),
  );

  const stop = async (): Promise<void> => {
    if (exited) return;
    const tree = descendants(child.pid!).map((p) => p.pid);
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
    for (const pid of tree) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await exitedP;
  };

  try {
    const port = await waitFor(
      () => {
        if (exited) throw new WaitAbortedError(`code-server ${exited}:\n${out}`);
        const m = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        return m ? Number(m[1]) : undefined;
      },
      { what: 'code-server to print its port', timeoutMs: opts.startTimeoutMs ?? 60_000 },
    );
    const url = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => {
        if (exited) throw new WaitAbortedError(`code-server ${exited}:\n${out}`);
        const r = await fetch(`${url}/healthz`);
        return r.ok;
      },
      { what: `code-server at ${url} to answer /healthz`, timeoutMs: opts.startTimeoutMs ?? 60_000 },
    );
    return { url, port, pid: child.pid!, userDataDir, extensionsDir, output: () => out, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
