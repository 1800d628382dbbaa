import { DEFAULT_LIMITS, DEFAULT_MAX_RESTARTS } from '../agent/budget';

/** The CLI's usage text. */
export const USAGE = `triage: a durable LLM triage agent, headless

  triage run --task NAME --state DIR [--workspace DIR] [--approve ask|yes|no]
             [--crashes FOLDER|sentry:ORG/PROJECT (with --task crash-folder)]
             [--sentry-url URL] [--sentry-query Q] [--sentry-limit N] [--approve-tools a,b|*]
             [--die-after TOOL] [--keys on|off] [--model recorded|anthropic|openai]
             [--model-name NAME] [--base-url URL] [--tracker embedded|github:OWNER/REPO|mcp:SERVER|URL]
             [--test-command CMD] [--record FILE [--force]] [--mcp CONFIG.json]
             [--pull-requests [--base BRANCH] [--remote NAME] [--draft on|off]
                [--deps install|copy|reuse|off] [--deps-scripts on|off]
                [--deps-network cache-first|offline|allowed]]
             [--max-turns N] [--max-dollars D] [--max-tokens N] [--max-restarts N] [--new] [--json]
             (--record refuses a FILE that exists unless --force: a resumed run recording to
              its own FILE continues it; any other file is replaced. --base-url is an http(s)
              URL without user:password@: keys go in ANTHROPIC_API_KEY / OPENAI_API_KEY;
              --mcp: MCP servers whose tools the run may use, in VS Code's mcp.json shape;
              approve one with --approve-tools server/tool; --tracker mcp:SERVER files issues
              through the "tracker" section of that server in the --mcp file)
  triage group --crashes FOLDER|sentry:ORG/PROJECT [--workspace DIR] [--sentry-url URL]
               [--sentry-query Q] [--sentry-limit N] [--json]
  triage status --state DIR [--json]
  triage worktrees --state DIR [--prune] [--json]
  triage show --state DIR --run ID [--transcript] [--json]
  triage tasks [--json]
  triage tracker list --state DIR [--run ID] [--json]
  (run, status, show, worktrees and tracker list take --store postgres://... instead of --state DIR)
  triage worker --store URL [--concurrency N] [--approve ask|yes|no] [--exit-when-idle]
                [--lease-ms MS] [--poll-ms MS] [--max-turns N] [--max-dollars D] [--max-tokens N]
                [--max-restarts N] [--mcp CONFIG.json] [--json]
  triage enqueue --store URL --task NAME [--workspace DIR] [--workspaces DIR] [--keys on|off]
                 [--model ...] [--tracker SPEC] [--mcp CONFIG.json] [--json]
                 (--mcp: the file travels with the run as written; workers resolve \${env:NAME})
  triage answer --store URL --run ID --call CALL (--approve | --deny | --done TEXT | --rerun)
  triage tracker serve --dir DIR [--port N] [--retention-hours H]
  triage mcp --state DIR|--store URL [--model ...] [--tracker SPEC] [--approve-tools a,b|*]
             [--max-turns N] [--max-dollars D] [--max-tokens N] [--max-restarts N]
             (an MCP server on stdio: triage_start, triage_status, triage_transcript,
              triage_answer, triage_file_issue; idempotency key in
              _meta["io.durabletriage/idempotency-key"])
  triage sweep [--kill] [--power-loss] [--json]
  triage sweep --mcp [--json]   (the MCP client's crash sweep: test/data/sweep-mcp.txt)
  triage demo [--state DIR]
  triage tool NAME --workspace DIR [--args JSON] [--allow-writes]
             (runs one tool as the agent would and prints its result; exit 2 when the result is an error)

Limits (run and worker): a run stops before the model call past them (exit 7) and resumes
once raised. Default --max-turns ${DEFAULT_LIMITS.maxTurns} and --max-dollars ${DEFAULT_LIMITS.maxDollars} over the run's whole life;
--max-tokens none and --max-restarts ${DEFAULT_MAX_RESTARTS} by default; "none" lifts a limit.

Exit status: 0 done, 2 bad input, 3 paused for a person, 4 locked by another process,
5 workspace changed, 6 restart limit reached, 7 budget exhausted, 8 corrupt checkpoint,
9 lock lost, 10 model error, 11 tracker (GitHub: no token, no access, rate limited, down),
12 run store unavailable (PostgreSQL),
13 tracker issue file corrupt (<state>/tracker/issues.json or the served --dir's),
14 git (--pull-requests: not a repository, a branch taken, a push refused), 15 triage tool refused a tool that writes (no --allow-writes),
16 Sentry token missing or refused (401/403), 17 Sentry organization or project not found (404),
18 Sentry unreachable (no answer, 5xx, still rate limited), 19 MCP server (will not start, gone, timed out,
or its tools changed since the run started), 130 cancelled.
GitHub: GITHUB_TOKEN, GITHUB_API_URL (default https://api.github.com).
Sentry (--crashes sentry:ORG/PROJECT; also self-hosted Sentry and GlitchTip): SENTRY_AUTH_TOKEN,
--sentry-url or SENTRY_URL (default https://sentry.io), --sentry-query (default is:unresolved),
--sentry-limit (default 10, at most 100); the issues are fetched once, at a new run's start.`;
