/**
 * The environment a test child gets: the process's own, less its secrets. run_tests runs
 * model-written code without asking, and whatever a test prints (`process.env` included) goes
 * into the tool result, the checkpoint and the next request to the model; so no key, token or
 * password of this process may reach a test. Pure: a variable is dropped by its name or by its
 * value, never looked up anywhere else.
 */

/** The secrets Durable Triage itself reads from the environment, and common ones of the tools around it. Always dropped. */
export const SECRET_VARIABLES: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'OPENAI_ADMIN_KEY',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'PGPASSWORD',
  'SENTRY_AUTH_TOKEN',
  'NPM_TOKEN',
  'NODE_AUTH_TOKEN',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
];

/**
 * Names read as secrets whatever else they say (case-insensitive): a name with one of the words
 * TOKEN, KEY, SECRET(S), CREDENTIAL(S), PASS or PAT between underscores (GITHUB_TOKEN,
 * AWS_ACCESS_KEY_ID, DB_PASS), or holding PASSWORD, PASSWD, PASSPHRASE, APIKEY or AUTHTOKEN
 * anywhere (MYSQL_ROOT_PASSWORD, npm_config__authToken).
 */
export const SECRET_NAME_PATTERNS: readonly RegExp[] = [
  /(^|_)(TOKEN|KEY|SECRETS?|CREDENTIALS?|PASS|PAT)(_|$)/i,
  /PASSWORD|PASSWD|PASSPHRASE|APIKEY|AUTHTOKEN/i,
];

/** A value that is a URL with a password in it (postgres://user:pw@host/db, https://user:pw@proxy): dropped whatever the name. */
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/?#@\s:]*:[^/?#@\s]+@/i;

const NAMED: ReadonlySet<string> = new Set(SECRET_VARIABLES.map((n) => n.toUpperCase()));

/** Whether `name=value` is a secret a test child must not see. */
export function isSecretVariable(name: string, value: string | undefined): boolean {
  if (NAMED.has(name.toUpperCase())) return true;
  if (SECRET_NAME_PATTERNS.some((p) => p.test(name))) return true;
  return value !== undefined && URL_WITH_PASSWORD.test(value);
}

/** A copy of `env` without its secrets (isSecretVariable). */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!isSecretVariable(name, value)) out[name] = value;
  return out;
}

/**
 * The environment of a runner's child: no secrets, no colours, and none of a parent `node --test`'s
 * protocol variables; then `extra`, the tests' environment in a cause's worktree (its virtual
 * environment, Go's cache settings: src/deps/prepare.ts), which holds no secret.
 */
export function runnerEnv(base: NodeJS.ProcessEnv, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...withoutSecrets(base), NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  return { ...env, ...extra };
}
