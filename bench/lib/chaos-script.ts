// The chaos part's customer (bench/parts/chaos.ts): one writer per tab slot making writes through the tab's core as
// its screens do (`core.api.call`), each write recorded with what the customer was told. A slot's tab may be closed
// and replaced, or frozen, under it: the writer waits for the slot's next tab.
import type { Page } from 'playwright-core'
import { NOT_APPLIED_STATUS } from '../../worker/protocol/idempotency.ts'
import { core } from '../../worker/texts.ts'
import { zhCN } from '../../src/i18n/zh-CN.ts'
import { control } from './tabs.ts'

export type Rng = () => number

/** mulberry32: small, seeded, the same run again from the printed seed. */
export const seeded = (seed: number): Rng => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const between = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1))

/**
 * ok: the core's Reply ok; notApplied: NOT_APPLIED_STATUS; refused: the server's refusal; confirming: the
 * writeUnconfirmed text (settled later); unknown: 操作结果未知 (what issue 40 removes); interrupted: the tab's replay
 * limit; failed: any other failure without a server status; tabClosed: the tab went away with the call in flight
 * (nobody left to tell); noAnswer: the call never settled by the end of the run.
 */
export type Told = 'ok' | 'notApplied' | 'refused' | 'confirming' | 'unknown' | 'interrupted' | 'failed' | 'tabClosed' | 'noAnswer'

export type WriteKind = 'buy' | 'renew' | 'spend' | 'redeem'

export interface Write {
  readonly n: number
  readonly slot: number
  readonly kind: WriteKind
  /** what finds it in the server's records: a buy's device name, a renewal's order tag, an order number, a code. */
  readonly ref: string
  /** renewals: the device renewed. */
  readonly device?: number
  readonly startedAt: number
  endedAt: number | null
  told: Told
  status?: number
  msg?: string
  orderNum?: string
}

interface Reply { readonly ok: boolean; readonly status?: number; readonly msg?: string; readonly data?: unknown }

export const toldOf = (r: Reply): Pick<Write, 'told' | 'status' | 'msg'> => {
  if (r.ok) return { told: 'ok' }
  const status = r.status ?? 0
  const msg = r.msg ?? ''
  if (status === NOT_APPLIED_STATUS) return { told: 'notApplied', status, msg }
  if (msg === core.writeUnconfirmed) return { told: 'confirming', status, msg }
  if (msg === zhCN.app.outcomeUnknown) return { told: 'unknown', status, msg }
  if (msg === zhCN.app.coreRestarted) return { told: 'interrupted', status, msg }
  return { told: status === 0 ? 'failed' : 'refused', status, msg }
}

export interface Slot {
  page: Page | null
  /** resolves when the slot has a tab again. */
  ready: Promise<void>
  arrive: () => void
}

export const newSlot = (page: Page): Slot => ({ page, ready: Promise.resolve(), arrive: () => undefined })

export const emptySlot = (slot: Slot): void => {
  slot.page = null
  slot.ready = new Promise((r) => { slot.arrive = r })
}

export const fillSlot = (slot: Slot, page: Page): void => {
  slot.page = page
  slot.arrive()
}

export interface Plan {
  readonly meal: { readonly id: number; readonly phoneType: string }
  /** the devices renewals go to (any tab renews any of them: expiries are checked against the paid renewals). */
  readonly renewDevices: ReadonlyArray<number>
  readonly codes: string[]
  /** buys left before the account's device cap. */
  buysLeft: number
  readonly tag: string
}

export interface Script {
  readonly writes: Write[]
  stop(): void
  done: Promise<void>
}

/** One call through the slot's tab; a tab closed under it is recorded as such. */
const callIn = async (slot: Slot, w: Write, name: string, payload: unknown): Promise<Reply | null> => {
  const page = slot.page!
  try {
    const r = (await control(page, 'call', name, payload)) as Reply
    Object.assign(w, toldOf(r), { endedAt: Date.now() })
    return r
  } catch (e) {
    const closed = page.isClosed() || slot.page !== page
    Object.assign(w, { told: closed ? 'tabClosed' : 'failed', endedAt: Date.now(), ...(closed ? {} : { msg: e instanceof Error ? e.message.split('\n')[0] : String(e) }) })
    return null
  }
}

export const runScript = (slots: ReadonlyArray<Slot>, plan: Plan, rngOf: (slot: number) => Rng, pause: { lo: number; hi: number }): Script => {
  const writes: Write[] = []
  let stopped = false
  const write = (slot: number, kind: WriteKind, ref: string, extra: Partial<Write> = {}): Write => {
    const w: Write = { n: writes.length, slot, kind, ref, startedAt: Date.now(), endedAt: null, told: 'noAnswer', ...extra }
    writes.push(w)
    return w
  }
  const order = async (i: number, slot: Slot, renew: boolean, rng: Rng): Promise<void> => {
    const ref = `${plan.tag}${renew ? 'r' : 'b'}${writes.length}`
    const device = plan.renewDevices[between(rng, 0, plan.renewDevices.length - 1)]!
    const create = write(i, renew ? 'renew' : 'buy', ref, renew ? { device } : {})
    const payload = renew
      // the renewal's tag rides in androidVersion, which the server keeps on the order and a renewal does not use
      ? { buyType: 2, id: plan.meal.id, phoneType: plan.meal.phoneType, quantity: 1, userCardIdStr: String(device), androidVersion: ref }
      : { buyType: 1, id: plan.meal.id, phoneType: plan.meal.phoneType, androidVersion: '12', quantity: 1, diskName: ref }
    const r = await callIn(slot, create, 'orderCreate', payload)
    if (!r?.ok) return
    const orderNum = (r.data as { myOrderNum: string }).myOrderNum
    create.orderNum = orderNum
    if (stopped || slot.page === null) return
    const paid = await callIn(slot, write(i, 'spend', orderNum, { orderNum }), 'starCoinsSpend', { myOrderNum: orderNum })
    // as the order's result screen does (src/features/pay/use-finished-order.ts): the list is pulled, not only pushed
    if (paid?.ok && slot.page !== null) await control(slot.page, 'refreshDevices').catch(() => undefined)
  }
  const writer = async (i: number): Promise<void> => {
    const slot = slots[i]!
    const rng = rngOf(i)
    while (!stopped) {
      await slot.ready
      if (stopped) return
      const roll = rng()
      if (roll < 0.35 && plan.buysLeft > 0) {
        plan.buysLeft--
        await order(i, slot, false, rng)
      } else if (roll < 0.7) {
        await order(i, slot, true, rng)
      } else {
        const code = plan.codes.pop()
        if (code !== undefined) await callIn(slot, write(i, 'redeem', code), 'exchangeActivationCode', { code })
      }
      await new Promise((r) => setTimeout(r, between(rng, pause.lo, pause.hi)))
    }
  }
  const done = Promise.all(slots.map((_, i) => writer(i))).then(() => undefined)
  return { writes, stop: () => { stopped = true }, done }
}
