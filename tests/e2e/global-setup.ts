// Starts the reference server with the built app on a free port and a fresh database; tests read E2E_* env vars.
// E2E_DATABASE=postgres runs it on a throwaway PostgreSQL cluster instead of PGlite (scripts/test.ts does both).
// Its output goes to test-results/e2e-server-<database>.log as it comes (E2E_SERVER_LOG): the tests' fixture
// (fixtures.ts) fails a test during which the server logged an unexpected error (server-log.ts says which lines are).
import { spawn } from 'node:child_process'
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { childEnv } from '../support/child-env.ts'
import { startPostgres } from '../support/postgres.ts'
import { unexpectedServerErrors } from './server-log.ts'

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cloud-phone-e2e-'))
  const postgres = process.env.E2E_DATABASE === 'postgres' ? await startPostgres() : null
  const databaseEnv = postgres ? { DATABASE_URL: await postgres.createDatabase('e2e') } : {}
  mkdirSync('test-results', { recursive: true })
  const logFile = resolve('test-results', `e2e-server-${postgres ? 'postgres' : 'pglite'}.log`)
  writeFileSync(logFile, '')
  // node itself with the tsx loader (not npx): one process, so stopping it stops the server.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--serve-app'], {
    // Device busy windows shortened for tests only (the product defaults are 20 s and 5 s); the flows pay through the
    // simulated gateway, so its demo mode is on explicitly (off by default on PostgreSQL). Nothing else of the shell's
    // environment (a DATABASE_URL, say) reaches the server: childEnv.
    env: childEnv({ PORT: '0', DATA_DIR: dataDir, DEVICE_BUSY_MS: '4000', DEVICE_REBOOT_MS: '3000', DEMO_PAY_GATEWAY: 'on', ...databaseEnv }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  // the address is looked for until it is found; the rest of the run's output is only kept
  let started = false
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 120 s:\n${output}`)), 120_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      appendFileSync(logFile, chunk)
      if (started) return
      const m = output.match(/http:\/\/(?:127\.0\.0\.1|localhost):(\d+)/)
      if (m && Number(m[1]) > 0) { started = true; clearTimeout(timer); resolve(`http://127.0.0.1:${m[1]}`) }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${output}`)) })
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL')
    await postgres?.stop()
    throw error
  })
  process.env.E2E_BASE_URL = baseUrl
  process.env.E2E_APP_URL = `${baseUrl}/cloud/phone/web/`
  process.env.E2E_DATA_DIR = dataDir
  process.env.E2E_SERVER_LOG = logFile
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else child.once('exit', () => resolve())
  })
  return async () => {
    child.kill('SIGTERM')
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(killer)
    await postgres?.stop()
    rmSync(dataDir, { recursive: true, force: true })
    // what the server printed stays in logFile, beside the failures' screenshots; each test has failed on those logged
    // while it ran unless it allowed them (fixtures.ts), this is the whole run's count
    const errors = unexpectedServerErrors(output)
    if (errors.length > 0) console.log(`the e2e server logged ${errors.length} unexpected errors (${logFile}):\n${errors.slice(0, 20).join('\n')}`)
  }
}
