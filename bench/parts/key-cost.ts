// Part 13 (issue 40): the cost of the idempotency key on the write path. The same write (an order for the demo
// member's month package) sent to the reference server with and without an Idempotency-Key, the two interleaved in one
// run so the machine's noise falls on both alike: with a key the server claims it, runs the write in one transaction
// with it and stores the envelope (server/http/idempotency.ts). Reports each one's latency and the ratio of p50s.
import forge from 'node-forge'
import SparkMD5 from 'spark-md5'
import { catalogue } from '../../worker/protocol/catalogue.ts'
import { API_PREFIX } from '../../worker/protocol/constants.ts'
import { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey } from '../../worker/protocol/idempotency.ts'
import type { BenchContext } from '../lib/context.ts'
import type { PartOutput } from '../lib/result.ts'
import { round, summarize } from '../lib/stats.ts'

const MEMBER = { phone: '13500135000', password: 'Demo@2026' }
const HEADERS = { client: '7', versionName: '5.9.2', merchantSign: 'SPW', 'Content-Type': 'application/json' }

interface Envelope<A> { readonly status: number; readonly msg?: string; readonly data: A }

const post = async <A>(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Envelope<A>> => {
  const r = await fetch(base + API_PREFIX + path, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) })
  return (await r.json()) as Envelope<A>
}

const signIn = async (base: string): Promise<string> => {
  const pem = (await post<string>(base, catalogue.getPbKey.path, {})).data
  const key = forge.pki.publicKeyFromPem(pem)
  const password = forge.util.encode64(key.encrypt(SparkMD5.hash(MEMBER.password), 'RSAES-PKCS1-V1_5'))
  const r = await post<{ token: string }>(base, catalogue.login.path, { phone: MEMBER.phone, password, client: 7, uuid: 'bench-key-cost' })
  if (r.status !== 0) throw new Error(`login failed: ${r.msg}`)
  return r.data.token
}

export const runKeyCost = async (ctx: BenchContext): Promise<PartOutput> => {
  if (ctx.server === null) return { tables: [], errors: [`no reference server: ${ctx.serverError}`] }
  const base = ctx.server.url
  const token = await signIn(base)
  const meals = await fetch(`${base}${API_PREFIX}${catalogue.getMealList.path}?phoneType=PERFORMANCE`, { headers: { ...HEADERS, Authorization: token } })
  const meal = ((await meals.json()) as Envelope<{ mealList: Array<{ id: number; day: number }> }>).data.mealList.find((m) => m.day === 30)!
  const order = { buyType: 1, id: meal.id, phoneType: 'PERFORMANCE', quantity: 1 }
  const pairs = ctx.quick ? 60 : 300
  const plain: number[] = []
  const keyed: number[] = []
  const errors: string[] = []
  const once = async (withKey: boolean): Promise<void> => {
    const started = performance.now()
    const r = await post(base, catalogue.orderCreate.path, order, { Authorization: token, ...(withKey ? { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } : {}) })
    const ms = performance.now() - started
    if (r.status !== 0) errors.push(`orderCreate ${withKey ? 'with' : 'without'} a key answered ${r.status} ${r.msg ?? ''}`)
    ;(withKey ? keyed : plain).push(ms)
  }
  // warm both paths first (the first of each plans its statements)
  for (let i = 0; i < 5; i++) { await once(false); await once(true) }
  plain.length = 0
  keyed.length = 0
  for (let i = 0; i < pairs; i++) {
    // alternate which goes first, so neither always follows the other's work
    if (i % 2 === 0) { await once(false); await once(true) } else { await once(true); await once(false) }
  }
  const a = summarize(plain)
  const b = summarize(keyed)
  ctx.log(`key cost: p50 ${round(a.p50, 2)} ms without a key, ${round(b.p50, 2)} ms with one (${pairs} pairs)`)
  return {
    tables: [{
      title: `An order written with and without an idempotency key (${pairs} interleaved pairs, reference server on PGlite)`,
      columns: ['write', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
      rows: [
        ['without a key', round(a.p50, 2), round(a.p95, 2), round(a.p99, 2), round(a.max, 2)],
        ['with a key', round(b.p50, 2), round(b.p95, 2), round(b.p99, 2), round(b.max, 2)],
        ['ratio (with / without)', round(b.p50 / a.p50, 2), round(b.p95 / a.p95, 2), round(b.p99 / a.p99, 2), null],
      ],
    }],
    errors: errors.slice(0, 5),
    data: { pairs, without: a, with: b },
  }
}
