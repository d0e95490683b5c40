// `npm test`: every suite in order (typecheck, unit, unit on PostgreSQL, browser, build, end-to-end, end-to-end on PostgreSQL); non-zero exit on any failure.
// A committed `.only` fails every suite run from here, CI or not (the steps are in scripts/test-steps.ts).
import { spawnSync } from 'node:child_process'
import { steps } from './test-steps.ts'

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
