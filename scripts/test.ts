// `npm test`: every suite in order (typecheck, unit, unit on PostgreSQL, browser, build, end-to-end, end-to-end on PostgreSQL); non-zero exit on any failure.
// A committed `.only` fails every suite run from here, CI or not (the steps are in scripts/test-steps.ts).
// A failed suite's failure lines are repeated at the end (scripts/test-failures.ts); a suite in which Vite reloaded a
// test page fails too.
import { spawn } from 'node:child_process'
import { failureLines, reloadedTestPage } from './test-failures.ts'
import { steps } from './test-steps.ts'

/** Runs a step with its output passed through as it comes, and kept to pick its failure lines from. */
const runStep = (cmd: string, args: ReadonlyArray<string>, env: Record<string, string> | undefined) =>
  new Promise<{ ok: boolean; exit: string; output: string }>((resolve) => {
    const child = spawn(cmd, args, { stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0', ...env } })
    const chunks: Array<string> = []
    child.stdout.on('data', (c: Buffer) => {
      process.stdout.write(c)
      chunks.push(c.toString())
    })
    child.stderr.on('data', (c: Buffer) => {
      process.stderr.write(c)
      chunks.push(c.toString())
    })
    child.on('error', (error) => resolve({ ok: false, exit: error.message, output: chunks.join('') }))
    child.on('close', (code, signal) => resolve({ ok: code === 0, exit: String(code ?? signal), output: chunks.join('') }))
  })

const only = process.argv.slice(2)
const failed: Array<{ name: string; lines: Array<string> }> = []
for (const [name, cmd, args, env] of steps) {
  if (only.length > 0 && !only.includes(name)) continue
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`)
  const started = Date.now()
  const run = await runStep(cmd, args, env)
  const result = reloadedTestPage(run.output) ? { ...run, ok: false, exit: 'Vite reloaded a test page mid-run' } : run
  console.log(`=== ${name}: ${result.ok ? 'ok' : `FAILED (exit ${result.exit})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (!result.ok) failed.push({ name, lines: failureLines(result.output) })
}
for (const { name, lines } of failed) console.log(`\n--- what failed in ${name}:\n${lines.join('\n') || '(no failure line found; see its output above)'}`)
console.log(failed.length === 0 ? '\nall suites passed' : `\nfailed suites: ${failed.map((f) => f.name).join(', ')}`)
process.exit(failed.length === 0 ? 0 : 1)
