// `npm test`: every suite in order (typecheck, unit, unit on PostgreSQL, browser, build, end-to-end, end-to-end on PostgreSQL); non-zero exit on any failure.
import { spawnSync } from 'node:child_process'

type Step = readonly [name: string, cmd: string, args: ReadonlyArray<string>, env?: Record<string, string>]

const steps: ReadonlyArray<Step> = [
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['unit', 'npx', ['vitest', 'run', '--project', 'unit']],
  // the server suite again on a real PostgreSQL (a throwaway cluster the project's global setup starts)
  ['unit-postgres', 'npx', ['vitest', 'run', '--project', 'unit-postgres']],
  ['browser', 'npx', ['vitest', 'run', '--project', 'browser']],
  ['build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ['e2e', 'npx', ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts']],
  // the same server on PostgreSQL: login and device list (01), every push type (02), purchases paid (06)
  ['e2e-postgres', 'npx', ['playwright', 'test', '-c', 'tests/e2e/playwright.config.ts', '--output', 'test-results/e2e-postgres', '01-skeleton', '02-push', '06-pay'], { E2E_DATABASE: 'postgres' }],
]

const only = process.argv.slice(2)
const failed: string[] = []
for (const [name, cmd, args, env] of steps) {
  if (only.length > 0 && !only.includes(name)) continue
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`)
  const started = Date.now()
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0', ...env } })
  const ok = result.status === 0
  console.log(`=== ${name}: ${ok ? 'ok' : `FAILED (exit ${result.status ?? result.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (!ok) failed.push(name)
}
console.log(failed.length === 0 ? '\nall suites passed' : `\nfailed suites: ${failed.join(', ')}`)
process.exit(failed.length === 0 ? 0 : 1)
