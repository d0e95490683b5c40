// Part 12: chaos, measured (issue 40 item 6). A scripted customer in 3 tabs of one core writes (star-coin orders: a
// purchase and its payment, renewals and theirs, coupon codes redeemed) while seeded random faults hit one at a time:
// the SharedWorker killed, the push socket dropped, the server restarted, a write's answer cut after the server
// applied it, a tab closed and another opened, a tab frozen. Then the server's own records are read from its database
// and each write checked (applied once, twice, lost), and each tab's view against the server's devices.
// The part runs its own reference server (bench/lib/chaos-world.ts): it restarts it, and the tabs' core talks to it
// through the test proxy, push socket included. `--chaos-seed=N` replays a run.
import type { BrowserContext } from 'playwright-core'
import type { BenchContext } from '../lib/context.ts'
import { applyFault, FAULTS, openChaosTab, viewOf, type FaultDeps, type FaultKind, type FaultSample } from '../lib/chaos-faults.ts'
import { appliedCounts, disagreement, doubledSpends, expiryMismatches, tally } from '../lib/chaos-reconcile.ts'
import { between, newSlot, runScript, seeded, type Plan, type Rng } from '../lib/chaos-script.ts'
import { DEMO_USER_SQL, readRecords, startChaosWorld, type ChaosWorld, type ServerRecords } from '../lib/chaos-world.ts'
import { check, type PartOutput } from '../lib/result.ts'
import { round, summarize } from '../lib/stats.ts'
import { control, openTab } from '../lib/tabs.ts'
import { waitFor } from '../lib/product-tabs.ts'
import { MAX_DEVICES_PER_ACCOUNT } from '../../worker/protocol/constants.ts'
import { ACTIVATION_CODE_LENGTH } from '../../worker/protocol/validators.ts'

const TABS = 3
/** one at a time, each healed before the next; cut answers run beside them (runCuts). */
const PLAIN_FAULTS: ReadonlyArray<FaultKind> = ['kill', 'drop', 'reopen', 'freeze']
/** a write in flight at the end may take the core's whole write window (60 s) and its settling to answer. */
const DRAIN_MS = 100_000
const CONVERGE_MS = 30_000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Seeded { readonly plan: Plan; readonly expiryBefore: Map<number, number> }

/** Star coins enough for the run, coupon codes to redeem, and what the script buys and renews. */
const seedAccount = async (world: ChaosWorld, seed: number, codes: number): Promise<Seeded> => {
  await world.query(`insert into account_star_coin_records (user_id, kind, amount, description) values (${DEMO_USER_SQL}, 1, 100000000, 'bench chaos')`)
  const stem = `CX${seed.toString(36).toUpperCase()}`
  const list = Array.from({ length: codes }, (_, i) => `${stem}${String(i).padStart(ACTIVATION_CODE_LENGTH - stem.length, '0')}`)
  // coupon_name = the code: a redemption's answer names it, so a cut answer's resend is told from another's
  await world.query(`insert into account_activation_codes (code, code_type, coupon_name, coupon_type, coupon_value, deduction_price, coupon_valid_days, expires_at)
    values ${list.map((c) => `('${c}', 3, '${c}', 1, 5, 0, 30, now() + interval '30 days')`).join(',')}`)
  const devices = await world.query<{ user_card_id: number; phone_type: string; expires_ms: string }>(`select d.user_card_id, d.phone_type,
    extract(epoch from d.expires_at) * 1000 as expires_ms from devices d where d.owner_id = ${DEMO_USER_SQL}
    and d.expires_at > now() + interval '1 day' and not exists (select 1 from device_auths a where a.device_id = d.id) order by d.user_card_id`)
  const meals = await world.query<{ id: number; phone_type: string }>('select id, phone_type from meals where support order by day, id')
  const meal = meals.find((m) => devices.some((d) => d.phone_type === m.phone_type))
  if (!meal) throw new Error('no meal of the phone type of a demo device with a day left')
  const renew = devices.filter((d) => d.phone_type === meal.phone_type)
  const owned = (await world.query<{ n: string }>(`select count(*) as n from devices where owner_id = ${DEMO_USER_SQL}`))[0]!.n
  return {
    plan: {
      meal: { id: meal.id, phoneType: meal.phone_type }, renewDevices: renew.map((d) => Number(d.user_card_id)), codes: list,
      buysLeft: Math.max(0, MAX_DEVICES_PER_ACCOUNT - Number(owned) - 1), tag: `c${(seed % 46656).toString(36)}`,
    },
    expiryBefore: new Map(renew.map((d) => [Number(d.user_card_id), Number(d.expires_ms)])),
  }
}

const shuffled = <T,>(xs: ReadonlyArray<T>, rng: Rng): T[] => {
  const out = [...xs]
  for (let i = out.length - 1; i > 0; i--) {
    const j = between(rng, 0, i)
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** A restart every `restartEveryMs` (the first half-way through a quick run), other faults picked at random between. */
const runFaults = async (deps: FaultDeps, rng: Rng, untilMs: number, restartEveryMs: number, log: (m: string) => void): Promise<FaultSample[]> => {
  const samples: FaultSample[] = []
  let nextRestart = Date.now() + restartEveryMs
  // the plain kinds in rounds, each round shuffled: every kind hits even in a quick run
  const queue: FaultKind[] = []
  while (Date.now() < untilMs) {
    await sleep(between(rng, 1_500, 4_000))
    if (Date.now() >= untilMs) break
    // a drop heals only after the core's reconnect pause (RECONNECT_INTERVAL_MS, 20 s): last in its round (the queue
    // is taken from its end), so a quick run meets every other kind first
    if (queue.length === 0) queue.push('drop', ...shuffled(PLAIN_FAULTS.filter((k) => k !== 'drop'), rng))
    const kind: FaultKind = Date.now() >= nextRestart ? 'restart' : queue.pop()!
    if (kind === 'restart') nextRestart = Date.now() + restartEveryMs
    const s = await applyFault(kind, deps)
    log(`chaos: ${kind} healed in ${s.healMs ?? '-'} ms${s.note ? ` (${s.note})` : ''}`)
    samples.push(s)
  }
  return samples
}

/**
 * Answers cut one after another beside the other faults: a cut touches neither the push socket nor the tabs, so it
 * does not blur their heal times, and it is the fault keyed writes exist for.
 */
const runCuts = async (deps: FaultDeps, rng: Rng, untilMs: number): Promise<FaultSample[]> => {
  const samples: FaultSample[] = []
  while (Date.now() < untilMs) {
    await sleep(between(rng, 1_000, 3_000))
    if (Date.now() < untilMs) samples.push(await applyFault('cut', deps))
  }
  return samples
}

const converge = async (world: ChaosWorld, context: BrowserContext, since: Date): Promise<{ records: ServerRecords; agreeing: number; tabs: number; ms: number; differences: string[] }> => {
  const t = Date.now()
  for (;;) {
    const records = await readRecords(world, since)
    const pages = context.pages()
    const views = await Promise.all(pages.map((p) => viewOf(p).catch(() => null)))
    const differences = views.flatMap((v, i) => { const d = disagreement(v, records); return d === null ? [] : [`tab ${i + 1}: ${d}`] })
    const agreeing = pages.length - differences.length
    if (agreeing === pages.length || Date.now() - t > CONVERGE_MS) return { records, agreeing, tabs: pages.length, ms: Date.now() - t, differences }
    await sleep(250)
  }
}

export const runChaos = async (ctx: BenchContext): Promise<PartOutput> => {
  const seedArg = process.argv.find((a) => a.startsWith('--chaos-seed='))?.slice('--chaos-seed='.length)
  const seed = seedArg ? Number(seedArg) : Math.floor(Math.random() * 2 ** 31)
  const windowMs = ctx.quick ? 60_000 : 600_000
  ctx.log(`chaos: seed ${seed} (--chaos-seed=${seed} replays it), ${windowMs / 1000} s of faults`)
  const world = await startChaosWorld(ctx.pages.outDir)
  let context: BrowserContext | null = null
  try {
    const { plan, expiryBefore } = await seedAccount(world, seed, ctx.quick ? 80 : 800)
    const since = new Date(Date.now() - 1_000)
    context = await ctx.browser.newContext({ locale: 'zh-CN' })
    const tabUrl = `${world.proxy.origin}${ctx.pages.base}bench/pages/dispatch.html?mode=product&worker=bench-chaos&chaos=1`
    const first = await openTab(context, tabUrl)
    const login = (await control(first, 'login')) as { ok: boolean; msg?: string }
    if (!login.ok) throw new Error(`login failed: ${login.msg}`)
    await waitFor('the first chaos tab\'s push socket', async () => (await viewOf(first))?.push === 'open', 60_000)
    const slots = [newSlot(first)]
    while (slots.length < TABS) slots.push(newSlot(await openChaosTab(context, tabUrl)))
    ctx.log(`chaos: ${TABS} tabs up; meal ${plan.meal.id} (${plan.meal.phoneType}), renewing ${plan.renewDevices.join(', ')}, ${plan.buysLeft} buys allowed`)

    const started = Date.now()
    // a stream of the seed per writer and per fault lane: what each chooses does not depend on how they interleave
    const script = runScript(slots, plan, (i) => seeded(seed + 10 + i), { lo: 200, hi: 900 })
    const deps = { world, context, slots, tabUrl }
    const [plain, cuts] = await Promise.all([
      runFaults({ ...deps, rng: seeded(seed + 3) }, seeded(seed + 4), started + windowMs, ctx.quick ? windowMs / 2 : 120_000, ctx.log),
      runCuts({ ...deps, rng: seeded(seed + 1) }, seeded(seed + 2), started + windowMs),
    ])
    const faults = [...plain, ...cuts]
    ctx.log(`chaos: ${cuts.filter((c) => c.healMs !== null).length} answers cut, the same answer delivered again after p50 ${round(summarize(cuts.flatMap((c) => (c.healMs === null ? [] : [c.healMs]))).p50, 0)} ms`)
    script.stop()
    ctx.log(`chaos: faults over after ${Date.now() - started} ms; waiting for the writes in flight`)
    await Promise.race([script.done, sleep(DRAIN_MS)])
    const { records, agreeing, tabs, ms: convergeMs, differences } = await converge(world, context, since)
    const verdicts = appliedCounts(script.writes, records)
    const t = tally(verdicts)
    const doubledCharges = doubledSpends(records)
    const expiry = expiryMismatches(expiryBefore, records)
    const kinds = [...new Set(faults.map((f) => f.kind))]
    const heal = (kind: FaultKind) => summarize(faults.filter((f) => f.kind === kind && f.healMs !== null).map((f) => f.healMs!))
    // a cut armed when no write came (or the server was away) is not a fault that failed to heal
    const unhealed = faults.filter((f) => f.healMs === null && f.missed !== true)
    const bad = verdicts.filter((v) => v.applied > 1 || (v.write.told === 'ok' && v.applied === 0) || ['unknown', 'failed', 'noAnswer'].includes(v.write.told))
    const failures = [
      ...(t.appliedTwice > 0 ? [`chaos: ${t.appliedTwice} writes applied twice`] : []),
      ...(t.lost > 0 ? [`chaos: ${t.lost} writes lost (told ok and missing, or told nothing)`] : []),
      ...(t.toldNotButApplied > 0 ? [`chaos: ${t.toldNotButApplied} writes told not applied yet applied`] : []),
      ...(doubledCharges > 0 ? [`chaos: ${doubledCharges} star coin charges beyond the orders paid`] : []),
      ...(expiry.length > 0 ? [`chaos: devices ${expiry.join(', ')} renewed by other than their paid renewals`] : []),
      ...(agreeing < tabs ? [`chaos: ${tabs - agreeing} of ${tabs} tabs did not converge on the server's devices within ${CONVERGE_MS / 1000} s: ${differences.join(' | ')}`] : []),
      ...unhealed.map((f) => `chaos: a ${f.kind} fault did not heal within 45 s`),
      ...bad.slice(0, 10).map((v) => `chaos: write ${v.write.n} ${v.write.kind} ${v.write.ref} told ${v.write.told}${v.write.msg ? ` (${v.write.status} ${v.write.msg})` : ''}, applied ${v.applied}`),
    ]
    const byKind = (k: string) => verdicts.filter((v) => v.write.kind === k)
    return {
      product: 'real',
      tables: [{
        title: `Writes under chaos (seed ${seed}, ${TABS} tabs, ${round((Date.now() - started) / 1000, 0)} s, ${faults.length} faults)`,
        columns: ['writes attempted', 'told ok', 'applied once', 'applied twice (goal 0)', 'lost (goal 0)', 'told not applied', 'told not applied, yet applied (goal 0)', 'being confirmed (applied later)', 'tab closed in flight (applied)', 'extra star coin charges (goal 0)', 'tabs converged (goal all)'],
        rows: [[t.attempted, t.toldOk, t.appliedOnce, t.appliedTwice, t.lost, t.toldNotApplied, t.toldNotButApplied, `${t.confirming.n} (${t.confirming.applied})`, `${t.tabClosed.n} (${t.tabClosed.applied})`, doubledCharges, `${agreeing}/${tabs} in ${convergeMs} ms`]],
      }, {
        title: 'Writes by kind',
        columns: ['kind', 'attempted', 'told ok', 'applied once', 'applied twice', 'told not applied'],
        rows: ['buy', 'renew', 'spend', 'redeem'].map((k) => {
          const vs = byKind(k)
          return [k, vs.length, vs.filter((v) => v.write.told === 'ok').length, vs.filter((v) => v.applied === 1).length, vs.filter((v) => v.applied > 1).length,
            vs.filter((v) => ['notApplied', 'refused', 'interrupted'].includes(v.write.told)).length]
        }),
      }, {
        title: 'Faults and the time each took to heal',
        columns: ['fault', 'healed when', 'n', 'healed', 'p50 ms', 'p95 ms', 'max ms'],
        rows: kinds.map((k) => {
          const s = heal(k)
          return [k, FAULTS[k], faults.filter((f) => f.kind === k).length, s.n, round(s.p50, 0), round(s.p95, 0), round(s.max, 0)]
        }),
      }],
      targets: [
        check('chaos: writes applied twice', '0', t.appliedTwice, 'writes', (v) => v === 0),
        check('chaos: writes lost', '0', t.lost, 'writes', (v) => v === 0),
        check('chaos: tabs not converged', '0', tabs - agreeing, 'tabs', (v) => v === 0),
      ],
      failures,
      notes: [
        `Seed ${seed}: \`npx tsx bench/run.ts ${ctx.quick ? '--quick ' : ''}--only=chaos --chaos-seed=${seed}\` replays what each writer and each fault lane chooses (not the machine's timing, nor how they interleave). The part's own reference server (a fixed port and data folder, so it can restart; the demo payment gateway on) serves the bench pages; every tab's request and the core's push socket go through the test proxy (tests/support/test-proxy.ts).`,
        'The customer: each of the 3 tabs of one core (bench/pages/product-source.ts, `core.api.call` as a screen calls it) makes writes 0.2-0.9 s apart: a one-device purchase (orderCreate, its device named with a unique tag) then its star-coin payment (starCoinsSpend), a renewal of one of the demo account\'s devices with a day left (the same device from several tabs at once) (orderCreate buyType 2, tagged in its androidVersion, which a renewal does not use) then its payment, or a coupon code redeemed (exchangeActivationCode). The product has no device rename (no endpoint in the catalogue), so none is made.',
        'Checked against the server\'s database: a purchase by the orders and devices named with its tag, a renewal by its tagged order, a payment by its order being paid (a payment applied twice would be a second star-coin charge: charges are counted against orders paid), a redemption by the coupons the code made; each renewed device\'s expiry must have moved by exactly its paid renewals\' days. Told: ok is the core\'s Reply ok; not applied is status 4090 (NOT_APPLIED_STATUS), a refusal or the tab\'s replay limit; lost is told ok and missing, or told nothing (操作结果未知, a failure with no status, no answer at all); being confirmed (the writeUnconfirmed text) and a tab closed with the write in flight are counted apart, applied once or not.',
        `Tabs converged: every open tab lists exactly the server's devices (id, name, minutes left within 3), polled for up to ${CONVERGE_MS / 1000} s after the writes in flight ended.`,
        ...plain.filter((f) => f.note).map((f) => `${f.kind} at +${round((f.at - started) / 1000, 1)} s: ${f.note}`),
        `Cut answers (beside the other faults, every 1-3 s): ${cuts.filter((c) => c.missed !== true).length} cut, ${cuts.filter((c) => c.missed === true).length} armed with no write arriving (or one the server did not answer: a restart) within 15 s; by path: ${[...new Set(cuts.map((c) => c.note))].map((p) => `${p} ${cuts.filter((c) => c.note === p && c.missed !== true).length}`).join(', ')}.`,
      ],
      data: { seed, faults, writes: script.writes, records: { orders: records.orders.length, devices: records.devices.length, coupons: records.coupons.length, spent: records.spent } },
    }
  } finally {
    await context?.close().catch(() => undefined)
    await world.close()
  }
}
