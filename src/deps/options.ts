/**
 * What the user lets a cause's worktree do to get the repository's tests their dependencies,
 * chosen when a run starts and saved with it (the run's options), so a resumed run does what it
 * started with:
 *   - mode `install` (default): installed from the lock file in the worktree; `copy`: the user's
 *     checkout's installed node_modules copied in as hard links, `reuse`: linked in, read-only
 *     (both only where the lock files are the same; else installed); `off`: nothing (the
 *     worktree as git made it).
 *   - scripts: the packages' lifecycle scripts (postinstall, native builds) run; off by default.
 *   - network `cache-first` (default): installs take what the package manager's cache or store
 *     holds and download only what is missing, Go tests download nothing; `offline`: nothing is
 *     downloaded at all; `allowed`: Go tests may download modules too.
 */
import { z } from 'zod';
import { BadInputError } from '../core/errors';

export const DEPS_MODES = ['install', 'copy', 'reuse', 'off'] as const;
export const DEPS_NETWORK = ['cache-first', 'offline', 'allowed'] as const;

export const DepsOptions = z.strictObject({
  mode: z.enum(DEPS_MODES),
  scripts: z.boolean(),
  network: z.enum(DEPS_NETWORK),
});
export type DepsOptions = z.infer<typeof DepsOptions>;

export const DEFAULT_DEPS: DepsOptions = { mode: 'install', scripts: false, network: 'cache-first' };

/** The run's saved options (strings) for these choices. */
export function depsRunOptions(o: DepsOptions): Record<string, string> {
  return { depsMode: o.mode, depsScripts: o.scripts ? 'on' : 'off', depsNetwork: o.network };
}

/** The choices a run saved; a run saved before they existed gets the defaults. */
export function depsOptionsOf(saved: Record<string, string> | undefined): DepsOptions {
  const s = saved ?? {};
  const r = DepsOptions.safeParse({
    mode: s.depsMode ?? DEFAULT_DEPS.mode,
    scripts: (s.depsScripts ?? 'off') === 'on',
    network: s.depsNetwork ?? DEFAULT_DEPS.network,
  });
  return r.success ? r.data : DEFAULT_DEPS;
}

/** The user's words (flags or settings) checked: each bad one named with what it may be. */
export function parseDepsChoice(c: { mode?: string; scripts?: boolean; network?: string }): DepsOptions {
  const mode = c.mode ?? DEFAULT_DEPS.mode;
  const network = c.network ?? DEFAULT_DEPS.network;
  if (!(DEPS_MODES as readonly string[]).includes(mode))
    throw new BadInputError(`--deps "${mode}" is not one of ${DEPS_MODES.join(', ')} (how a cause's worktree gets the tests' dependencies).`);
  if (!(DEPS_NETWORK as readonly string[]).includes(network)) throw new BadInputError(`--deps-network "${network}" is not one of ${DEPS_NETWORK.join(', ')}.`);
  return { mode: mode as DepsOptions['mode'], scripts: c.scripts === true, network: network as DepsOptions['network'] };
}
