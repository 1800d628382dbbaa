/**
 * Which tracker a run files into, as the user names it: "embedded" (the default: this state
 * folder's own tracker), "github:OWNER/REPO" (its GitHub part: github/spec.ts), "mcp:SERVER"
 * (a server of the run's `--mcp` file whose `tracker` section says how to file and find issues
 * through its tools), or the URL of a tracker service (`triage tracker serve`).
 */
import { BadInputError } from '../core/errors';
import { GITHUB_SPEC_PREFIX, parseGithubRepo } from './github/spec';

export type TrackerSpec =
  { kind: 'embedded' } | { kind: 'github'; owner: string; repo: string } | { kind: 'mcp'; server: string } | { kind: 'http'; url: string };

/** How a tracker spec names an MCP server of the run's `--mcp` file: "mcp:SERVER". */
export const MCP_SPEC_PREFIX = 'mcp:';

/** A server's name as the `--mcp` file allows it (src/mcp/config.ts). */
const MCP_SERVER = /^[A-Za-z0-9_-]{1,32}$/;

/** The tracker `text` names (empty or missing: the embedded one); BadInputError for anything else. */
export function parseTrackerSpec(text: string | undefined): TrackerSpec {
  const t = (text ?? '').trim();
  if (t === '' || t === 'embedded') return { kind: 'embedded' };
  if (t.startsWith(GITHUB_SPEC_PREFIX)) return { kind: 'github', ...parseGithubRepo(t) };
  if (t.startsWith(MCP_SPEC_PREFIX)) {
    const server = t.slice(MCP_SPEC_PREFIX.length);
    if (!MCP_SERVER.test(server))
      throw new BadInputError(`The tracker "${t}" is not mcp:SERVER, where SERVER is a server of the --mcp file (1 to 32 letters, digits, "_" or "-").`);
    return { kind: 'mcp', server };
  }
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    throw new BadInputError(`The tracker "${t}" is neither "embedded", github:OWNER/REPO, mcp:SERVER, nor a tracker URL (http://HOST:PORT).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadInputError(`The tracker URL ${t} should be http:// or https://.`);
  return { kind: 'http', url: t };
}
