// The environment of a process a test or the bench starts (a reference server, the operator CLI, PostgreSQL): what a
// process needs to run at all, taken from ours by name, plus the settings the caller states. Nothing else of the shell
// reaches it, so a DATABASE_URL, OPS_TOKEN, MAX_PUSH_SOCKETS_PER_USER or DEMO_PAY_GATEWAY exported in the developer's
// shell (or the CI machine's) cannot change what a test runs against.

/** Variables passed through from our environment: where programs and the home/temp folders are, the locale, the browser. */
export const INHERITED_ENV: ReadonlyArray<string> = [
  'PATH', 'HOME', 'USER', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'CHROMIUM_PATH', 'PG_BIN',
  // Windows needs these to start node at all
  'SystemRoot', 'COMSPEC', 'PATHEXT',
]

/**
 * The allow-listed variables of `from` (our environment by default) and `settings` over them; a setting left
 * undefined is not set (and removes an inherited variable of that name).
 */
export const childEnv = (
  settings: Readonly<Record<string, string | undefined>> = {},
  from: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const name of INHERITED_ENV) {
    const value = from[name]
    if (value !== undefined) env[name] = value
  }
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  return env
}
