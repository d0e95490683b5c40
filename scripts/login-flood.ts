// Measures how much a burst of logins stalls the server (issue 11 finding 1): starts the reference server in its own
// process on a throw-away data dir, then, for several rounds, runs 30 simultaneous correct logins while an unrelated
// GET is sent back to back; prints the GET latency at rest and under the flood (median, p99, max).
// `npx tsx scripts/login-flood.ts [rounds=5] [logins=30]`
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import forge from 'node-forge'
import SparkMD5 from 'spark-md5'

const rounds = Number(process.argv[2] ?? 5)
const logins = Number(process.argv[3] ?? 30)
const PROBE = '/api/public/v1/system/config'
const headers = { 'Content-Type': 'application/json', client: '7', versionName: '5.9.2', merchantSign: 'SPW' }

const dataDir = mkdtempSync(join(tmpdir(), 'login-flood-'))
const child = spawn('npx', ['tsx', 'server/main.ts'], { env: { ...process.env, PORT: '0', DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] })
const base = await new Promise<string>((resolve, reject) => {
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    const m = /服务器已启动：(http:\/\/\S+)/.exec(out)
    if (m) resolve(m[1]!)
  })
  child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
})

const post = async (path: string, body: unknown): Promise<any> =>
  (await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) })).json()

const timedGet = async (): Promise<number> => {
  const started = performance.now()
  await (await fetch(base + PROBE, { headers })).text()
  return performance.now() - started
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN
}
const summary = (xs: number[]): string =>
  `n=${xs.length} median ${quantile(xs, 0.5).toFixed(1)} ms, p99 ${quantile(xs, 0.99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`

try {
  const pem = (await post('/api/user/v1/client/login/getPbKey', {})).data as string
  const key = forge.pki.publicKeyFromPem(pem)
  const cipher = () => forge.util.encode64(key.encrypt(SparkMD5.hash('Demo@2026'), 'RSAES-PKCS1-V1_5'))
  const phones = ['13800138000', '13700137000', '13600136000', '13500135000']

  for (let i = 0; i < 10; i++) await timedGet() // warm-up
  const rest: number[] = []
  for (let i = 0; i < 50; i++) rest.push(await timedGet())

  const flood: number[] = []
  for (let r = 0; r < rounds; r++) {
    const bodies = Array.from({ length: logins }, (_, i) => ({ phone: phones[i % phones.length], password: cipher(), client: 7, uuid: `flood-${r}-${i}` }))
    let running = true
    const burst = Promise.all(bodies.map((b) => post('/api/user/v1/client/login', b))).finally(() => {
      running = false
    }).then((results) => {
      const failed = results.filter((x) => x.status !== 0)
      if (failed.length > 0) throw new Error(`${failed.length} logins failed: ${JSON.stringify(failed[0])}`)
    })
    while (running) flood.push(await timedGet())
    await burst
  }
  console.log(`GET ${PROBE} at rest:          ${summary(rest)}`)
  console.log(`GET ${PROBE} during ${logins} logins: ${summary(flood)} (${rounds} rounds)`)
} finally {
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
}
