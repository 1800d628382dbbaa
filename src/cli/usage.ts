import { DEFAULT_LIMITS, DEFAULT_MAX_RESTARTS } from '../agent/budget';

/** The CLI's usage text. */
export const USAGE = `triage: a durable LLM triage agent, headless

  triage run --task NAME --state DIR [--workspace DIR] [--approve ask|yes|no]
             [--crashes FOLDER (with --task crash-folder)] [--approve-tools a,b|*]
             [--die-after TOOL] [--keys on|off] [--model recorded|anthropic|openai]
             [--model-name NAME] [--base-url URL] [--tracker embedded|github:OWNER/REPO|URL]
             [--test-command CMD] [--record FILE [--force]] [--mcp CONFIG.json]
             [--max-turns N] [--max-dollars D] [--max-tokens N] [--max-restarts N] [--new] [--json]
             (--record refuses a FILE that exists unless --force: a resumed run recording to
              its own FILE continues it; any other file is replaced. --base-url is an http(s)
              URL without user:password@: keys go in ANTHROPIC_API_KEY / OPENAI_API_KEY;
              --mcp: MCP servers whose tools the run may use, in VS Code's mcp.json shape;
              approve one with --approve-tools server/tool)
  triage group --crashes FOLDER [--workspace DIR] [--json]
  triage status --state DIR [--json]
  triage show --state DIR --run ID [--transcript] [--json]
  triage tasks [--json]
  triage tracker list --state DIR [--run ID] [--json]
  (run, status, show and tracker list take --store postgres://... instead of --state DIR)
  triage worker --store URL [--concurrency N] [--approve ask|yes|no] [--exit-when-idle]
                [--lease-ms MS] [--poll-ms MS] [--max-turns N] [--max-dollars D] [--max-tokens N]
                [--max-restarts N] [--json]
  triage enqueue --store URL --task NAME [--workspace DIR] [--workspaces DIR] [--keys on|off]
                 [--model ...] [--json]
  triage answer --store URL --run ID --call CALL (--approve | --deny | --done TEXT | --rerun)
  triage tracker serve --dir DIR [--port N] [--retention-hours H]
  triage sweep [--kill] [--power-loss] [--json]
  triage demo [--state DIR]

Limits (run and worker): a run stops before the model call past them (exit 7) and resumes
once raised. Default --max-turns ${DEFAULT_LIMITS.maxTurns} and --max-dollars ${DEFAULT_LIMITS.maxDollars} over the run's whole life;
--max-tokens none and --max-restarts ${DEFAULT_MAX_RESTARTS} by default; "none" lifts a limit.

Exit status: 0 done, 2 bad input, 3 paused for a person, 4 locked by another process,
5 workspace changed, 6 restart limit reached, 7 budget exhausted, 8 corrupt checkpoint,
9 lock lost, 10 model error, 11 tracker (GitHub: no token, no access, rate limited, down),
12 run store unavailable (PostgreSQL),
13 tracker issue file corrupt (<state>/tracker/issues.json or the served --dir's), 130 cancelled. GitHub: GITHUB_TOKEN, GITHUB_API_URL (default https://api.github.com).`;
