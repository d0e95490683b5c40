// Issue 21 item 4: servers under test get an explicit environment. childEnv passes through only what a process needs
// to run (PATH, HOME, the locale, CHROMIUM_PATH...) plus the settings the caller states; a DATABASE_URL or
// MAX_PUSH_SOCKETS_PER_USER exported in the shell reaches no server a test starts.
import { rmSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { childEnv, INHERITED_ENV } from '../../support/child-env.ts'
import { startServerProcess, type ServerProcess } from '../../support/server-process.ts'
import { testDataDir } from '../../support/test-database.ts'

vi.setConfig({ testTimeout: 240_000 })

const shell = {
  PATH: '/usr/bin:/bin', HOME: '/home/dev', LANG: 'zh_CN.UTF-8', TMPDIR: '/tmp/dev', CHROMIUM_PATH: '/opt/chromium',
  DATABASE_URL: 'postgres://prod.example/app', OPS_TOKEN: 'secret', MAX_PUSH_SOCKETS_PER_USER: 'Infinity',
  DEMO_PAY_GATEWAY: 'off', PUBLIC_ORIGIN: 'https://shop.example', NODE_OPTIONS: '--require /evil.js', CI: 'true',
}

describe('childEnv', () => {
  it('passes the allow-listed variables through and nothing else of the shell', () => {
    expect(childEnv({}, shell)).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/dev', LANG: 'zh_CN.UTF-8', TMPDIR: '/tmp/dev', CHROMIUM_PATH: '/opt/chromium' })
    for (const name of Object.keys(childEnv({}, shell))) expect(INHERITED_ENV).toContain(name)
  })

  it('adds the stated settings, over an inherited variable of the same name; undefined leaves a setting out', () => {
    const env = childEnv({ DATA_DIR: '/tmp/x', DATABASE_URL: undefined, PORT: '0', LANG: 'C.UTF-8' }, shell)
    expect(env).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/dev', LANG: 'C.UTF-8', TMPDIR: '/tmp/dev', CHROMIUM_PATH: '/opt/chromium', DATA_DIR: '/tmp/x', PORT: '0' })
    expect(childEnv({ PATH: undefined }, shell)).not.toHaveProperty('PATH')
  })

  it('reads our own environment by default', () => {
    expect(childEnv().PATH).toBe(process.env.PATH)
  })
})

describe('a server a test starts', () => {
  let server: ServerProcess | null = null
  let dataDir: string | null = null
  afterEach(async () => {
    vi.unstubAllEnvs()
    await server?.stop('SIGKILL')
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    server = null
    dataDir = null
  })

  it('does not see a DATABASE_URL (or any other setting) exported in the shell', async () => {
    // a database that does not exist: a server that took it would fail to start
    vi.stubEnv('DATABASE_URL', 'postgres://nobody@127.0.0.1:1/none')
    vi.stubEnv('OPS_TOKEN', 'from-the-shell')
    dataDir = testDataDir('child-env-')
    server = await startServerProcess({ DATA_DIR: dataDir })
    await server.printed('演示账号')
    expect(server.output()).toContain(`数据库：PGlite（${dataDir}）`)
    const refused = await fetch(`${server.url}/__ops/connections`, { headers: { 'X-Ops-Token': 'from-the-shell' } })
    expect(refused.status).toBe(401)
  })
})
