/** The environment variable that names the MCP sweep tap's log (mcp-tap.ts): set in the server's environment by the sweep's `--mcp` file. */
export const TAP_LOG_ENV = 'TRIAGE_SWEEP_TAP_LOG';
