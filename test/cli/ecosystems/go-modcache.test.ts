/**
 * go test on a module that depends on another module (example.com/units) from the module cache:
 * the user's set-up fills the cache (`go mod download`, from a proxy in a folder, as
 * proxy.golang.org cannot be reached here), and each cause's worktree tests with that cache and no
 * download (GOPROXY=off, -mod=readonly); the crash a panic on a plan with no limit.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ecosystemFlowTest, type Ecosystem } from './flow';
import { writeGoProxy } from './go-proxy';

const DEPS = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'ecosystem-deps');
let proxy: string | undefined;

function goModDownload(dir: string): void {
  if (!proxy) {
    proxy = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-goproxy-'));
    process.once('exit', () => fs.rmSync(proxy!, { recursive: true, force: true }));
    writeGoProxy(proxy, 'example.com/units', 'v1.2.0', path.join(DEPS, 'go-units'));
  }
  const r = spawnSync('go', ['mod', 'download'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GOPROXY: `file://${proxy}`, GOSUMDB: 'off', GOFLAGS: '' },
  });
  if (r.status !== 0) throw new Error(`go mod download in ${dir}: ${r.stderr}`);
}

export const GO_MODCACHE: Ecosystem = {
  name: 'go-modcache',
  appRoot: '/srv/quota',
  install: goModDownload,
  suite: ['go', 'test', './...'],
  causes: [
    {
      cause: 'left-panic',
      crash: { command: ['go', 'run', './cmd/quota', 'pro'], language: 'go' },
      events: 97,
      test: {
        file: 'quota/unknown_plan_test.go',
        content: `package quota

import "testing"

func TestLeftOfAPlanWithNoLimit(t *testing.T) {
	if got := Left(Plans, "pro", 0); got != 0 {
		t.Fatalf("Left = %d, want 0", got)
	}
}
`,
      },
      fix: {
        file: 'quota/quota.go',
        what: 'a plan with no limit',
        content: `// Package quota tells how much of a plan's storage is left.
package quota

import "example.com/units"

// Plans maps a plan's name to its limit.
var Plans = map[string]string{"free": "512MB", "team": "10GB"}

// Left is the bytes left on the plan after used bytes; none for a plan with no limit.
func Left(plans map[string]string, plan string, used int64) int64 {
	size, ok := plans[plan]
	if !ok {
		return 0
	}
	limit, err := units.Parse(size)
	if err != nil {
		panic(err)
	}
	return limit - used
}
`,
      },
    },
  ],
};

ecosystemFlowTest(GO_MODCACHE);
