/**
 * The `--mcp` file of a queued run (`triage enqueue --mcp FILE`): its text travels with the run
 * in the store (the run's option MCP_CONFIG_TEXT_OPTION), as written, so the worker that takes
 * the run resolves `${env:NAME}` from its own environment: secrets written that way are never
 * saved. The text is checked at enqueue (without resolving anything), and a credential header
 * (Authorization, a key, a token, a cookie) written literally is refused, since the text is saved as it is.
 */
import { BadInputError } from '../core/errors';
import { mcpConfigFromText, type McpConfig } from './config';

/** The run option that holds a queued run's MCP configuration text. */
export const MCP_CONFIG_TEXT_OPTION = 'mcpConfigText';

/** Headers that carry credentials (Authorization, X-Api-Key, Cookie...): written literally, they are refused. */
const SECRET_HEADER = /auth|token|key|secret|cookie|passw/i;

/** Checks the text a queued run will carry; returns the configuration as written (`${env:NAME}` unresolved). */
export function checkQueuedMcpConfig(text: string, file: string): McpConfig {
  const config = mcpConfigFromText(text, file, null);
  for (const [name, server] of Object.entries(config.servers))
    if ('url' in server)
      for (const [header, value] of Object.entries(server.headers ?? {}))
        if (SECRET_HEADER.test(header) && !value.includes('${env:'))
          throw new BadInputError(
            `The MCP configuration ${file}: server "${name}" header "${header}" is written as it is; a queued run saves its configuration in the store, so write it as \${env:NAME} and set NAME where the workers run.`,
          );
  return config;
}

/** What messages call a configuration a run carries. */
export function savedConfigName(runId: string): string {
  return `saved with run ${runId}`;
}
