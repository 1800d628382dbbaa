// Bundles with esbuild (CommonJS, Node 20):
//   src/extension/extension.ts -> dist/extension.js   (external: vscode, which the editor provides)
//   src/cli/main.ts            -> dist/cli.js         (bin/triage.js loads it when present)
//   src/sweep/cli.ts           -> dist/sweep.js       (`triage sweep`: bin/triage.js loads it instead of dist/cli.js)
//   src/sweep/child.ts  -> dist/sweep-child.js (the crash sweep's --kill child, found beside dist/sweep.js)
//   src/sweep/mcp-child.ts, mcp-tap.ts -> dist/sweep-mcp-child.js, dist/sweep-mcp-tap.js (`triage sweep --mcp`'s
//                                 SIGKILL child and the tap loaded into the MCP server, found beside dist/sweep.js)
//   src/model/sdk-clients.ts   -> dist/sdk-clients.js (the vendors' model SDKs: the bundles above load it on their
//                                 first live model call, so starting the editor or the CLI does not parse ~650 KB)
//   src/tracker/github/octokit-client.ts -> dist/octokit-client.js (GitHub's REST client, ~1 MB: loaded on
//                                 the first GitHub call)
//   src/webview/panel.ts       -> dist/panel.js       (the Run panel's script, in the webview: browser, IIFE)
// and copies @vscode/codicons' style sheet and font to dist/codicons/: the Run panel shows the
// editor's icons, which a webview does not get from the workbench, and the .vsix has no node_modules.
// Everything else (proper-lockfile, diff, pg, the core) is inside the bundles, so the .vsix needs no node_modules.
// pg's optional native binding (pg-native, only loaded when asked for) and its Cloudflare Workers socket
// (pg-cloudflare, only loaded inside a Worker) stay out: neither is ever loaded on Node.
//   node scripts/bundle.mjs [--watch] [--minify]
import { build, context } from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  minify,
  logLevel: 'info',
  legalComments: 'none',
  external: ['pg-native', 'pg-cloudflare'],
};

// src/model/sdk.ts requires './sdk-clients' and github-tracker.ts './octokit-client' on first use: in a bundle each
// is the file beside it in dist/.
const apart = [
  ['sdk-clients', path.join(root, 'src', 'model', 'sdk.ts')],
  ['octokit-client', path.join(root, 'src', 'tracker', 'github', 'github-tracker.ts')],
];
const sdkClientsApart = {
  name: 'sdk-clients-apart',
  setup(b) {
    for (const [name, importer] of apart) {
      b.onResolve({ filter: new RegExp(`^\\./${name}$`) }, (args) => (args.importer === importer ? { path: `./${name}.js`, external: true } : undefined));
    }
  },
};

const bundles = [
  {
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode', 'pg-native', 'pg-cloudflare'],
    plugins: [sdkClientsApart],
  },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', plugins: [sdkClientsApart] },
  { ...common, entryPoints: ['src/sweep/cli.ts'], outfile: 'dist/sweep.js', plugins: [sdkClientsApart] },
  { ...common, entryPoints: ['src/sweep/child.ts'], outfile: 'dist/sweep-child.js', plugins: [sdkClientsApart] },
  { ...common, entryPoints: ['src/sweep/mcp-child.ts'], outfile: 'dist/sweep-mcp-child.js', plugins: [sdkClientsApart] },
  { ...common, entryPoints: ['src/sweep/mcp-tap.ts'], outfile: 'dist/sweep-mcp-tap.js' },
  { ...common, entryPoints: ['src/model/sdk-clients.ts'], outfile: 'dist/sdk-clients.js' },
  { ...common, entryPoints: ['src/tracker/github/octokit-client.ts'], outfile: 'dist/octokit-client.js' },
  { ...common, entryPoints: ['src/webview/panel.ts'], outfile: 'dist/panel.js', platform: 'browser', format: 'iife', target: 'chrome120', sourcemap: false },
];

const codicons = path.join(root, 'node_modules', '@vscode', 'codicons', 'dist');
fs.mkdirSync(path.join(root, 'dist', 'codicons'), { recursive: true });
for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(codicons, f), path.join(root, 'dist', 'codicons', f));

for (const b of bundles) {
  const entry = path.join(root, b.entryPoints[0]);
  if (!fs.existsSync(entry)) {
    console.error(`bundle: ${b.entryPoints[0]} does not exist`);
    process.exit(1);
  }
}

if (watch) {
  for (const b of bundles) await (await context(b)).watch();
  console.log('bundle: watching for changes (Ctrl+C to stop)');
} else {
  await Promise.all(bundles.map((b) => build(b)));
}
