// Which tier each test file is in (scripts/test-tier.mjs runs them; scripts/test-timings.mjs and
// the benchmarks report by it): the first rule whose prefix the file's path (relative to
// out/test/) starts with; a file no rule names is a unit test.
/** Tier -> path prefixes (relative to test/, compiled names), in the order they are matched. */
export const RULES = [
  // A real PostgreSQL server (scripts/setup-test-deps.sh installs it).
  ['pg', ['pg/', 'sweep/pg-sweep.test.js']],
  // The crash sweeps: every crash point of every task (and of the agent loop), minutes of work.
  ['sweep', ['sweep/', 'agent/crash.test.js']],
  // Many child processes or whole recorded runs: the CLI end to end, the real test runners
  // (vitest, jest, mocha, pytest, go test) on the fixture repositories, the tasks' samples and
  // their tests, whole jobs, lock holders in other processes, and the fsync-heavy journal tests.
  [
    'slow',
    [
      'cli/',
      'runners/',
      // Real installs (npm, pnpm, yarn through corepack), venvs and Go's module cache in worktrees.
      'deps/real/',
      'triage/tasks/',
      'triage/job/history.test.js',
      'triage/job/record.test.js',
      'bench/tool-bytes.test.js',
      'tools/run-tests.test.js',
      'durable/lock.test.js',
      'durable/journal.test.js',
      'durable/compaction.test.js',
      'extension/contributes.test.js',
      // Real MCP servers (from npm, and our stand-in) in child processes.
      'mcp/crash-memory.test.js',
      'mcp/meta-key.test.js',
      'mcp/bad-servers.test.js',
      'mcp/editor-servers.test.js',
      'mcp/tracker-memory.test.js',
      'mcp/http-live.test.js',
      // ESLint, type-aware, over the real config (the layer rules).
      'lint/',
    ],
  ],
];
export const TIERS = ['unit', ...RULES.map(([t]) => t)];

/**
 * The files that take minutes, longest first (a clean run's figures: npm run test:timings): they
 * start first, so two slots end together instead of one running a sweep alone at the end.
 */
export const LONG_FIRST = ['sweep/pg-sweep.test.js', 'sweep/sweep.test.js', 'sweep/mcp-sweep.test.js', 'sweep/effects.test.js', 'agent/crash.test.js'];

/** `files` (paths relative to out/test/) in the order to start them: LONG_FIRST's first, the rest as given. */
export function startOrder(files) {
  const rank = (f) => {
    const i = LONG_FIRST.indexOf(f);
    return i < 0 ? LONG_FIRST.length : i;
  };
  return [...files].sort((a, b) => rank(a) - rank(b));
}

export function tierOf(rel) {
  for (const [tier, prefixes] of RULES) if (prefixes.some((p) => rel.startsWith(p))) return tier;
  return 'unit';
}
