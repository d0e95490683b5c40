// The chaos part's verdict (bench/parts/chaos.ts): each write the script made against the server's own records, and
// each tab's view against the server's device list.
import type { ServerRecords } from './chaos-world.ts'
import type { Told, Write } from './chaos-script.ts'

const DAY_MS = 86_400_000

export interface WriteVerdict {
  readonly write: Write
  /** how often the server applied it. */
  readonly applied: number
}

/** How often each write is in the server's records: rows that carry its ref (a name, a tag, a paid order, a code). */
export const appliedCounts = (writes: ReadonlyArray<Write>, r: ServerRecords): WriteVerdict[] =>
  writes.map((w) => {
    switch (w.kind) {
      case 'buy': return { write: w, applied: r.orders.filter((o) => o.buy_type === 1 && o.disk_names === w.ref).length }
      case 'renew': return { write: w, applied: r.orders.filter((o) => o.buy_type === 2 && o.android_version === w.ref).length }
      // a paid order is paid once; paying twice shows in the star coin records (doubledSpends)
      case 'spend': return { write: w, applied: r.orders.some((o) => o.my_order_num === w.ref && o.finish_pay === 1) ? 1 : 0 }
      case 'redeem': return { write: w, applied: r.coupons.filter((c) => c.source === `activation:${w.ref}`).length }
    }
  })

/** star coin charges beyond the orders paid with them: a payment applied twice. */
export const doubledSpends = (r: ServerRecords): number => {
  const paid = r.orders.filter((o) => o.finish_pay === 1 && o.pay_type === 4)
  return Math.max(0, r.spent.n - paid.length)
}

/** devices whose expiry moved by other than their paid renewals' days (each had a day left: renewals add up). */
export const expiryMismatches = (before: ReadonlyMap<number, number>, r: ServerRecords): number[] =>
  [...before].filter(([card, was]) => {
    const days = r.orders.filter((o) => o.buy_type === 2 && o.finish_pay === 1 && o.user_card_ids === String(card)).reduce((a, o) => a + o.day, 0)
    const now = r.devices.find((d) => d.user_card_id === card)?.expires_ms ?? NaN
    return Math.abs(now - was - days * DAY_MS) > 1_000
  }).map(([card]) => card)

/** the customer heard nothing they could act on (lost when not applied... or even when applied: they were not told). */
const TOLD_NOTHING: ReadonlySet<Told> = new Set(['unknown', 'failed', 'noAnswer'])
const TOLD_NOT_APPLIED: ReadonlySet<Told> = new Set(['notApplied', 'refused', 'interrupted'])

export interface Tally {
  readonly attempted: number
  readonly toldOk: number
  readonly appliedOnce: number
  readonly appliedTwice: number
  /** told ok and missing, or told nothing (unknown, a failure without status, no answer at all). */
  readonly lost: number
  /** told it was not applied (4090, a refusal, interrupted) and yet applied. */
  readonly toldNotButApplied: number
  readonly toldNotApplied: number
  /** told "being confirmed": settled later, applied once or not. */
  readonly confirming: { n: number; applied: number }
  /** the tab was closed with the write in flight: nobody to tell; applied once or not. */
  readonly tabClosed: { n: number; applied: number }
}

export const tally = (verdicts: ReadonlyArray<WriteVerdict>): Tally => {
  const of = (f: (v: WriteVerdict) => boolean) => verdicts.filter(f).length
  return {
    attempted: verdicts.length,
    toldOk: of((v) => v.write.told === 'ok'),
    appliedOnce: of((v) => v.applied === 1),
    appliedTwice: of((v) => v.applied > 1),
    lost: of((v) => (v.write.told === 'ok' && v.applied === 0) || TOLD_NOTHING.has(v.write.told)),
    toldNotButApplied: of((v) => TOLD_NOT_APPLIED.has(v.write.told) && v.applied > 0),
    toldNotApplied: of((v) => TOLD_NOT_APPLIED.has(v.write.told)),
    confirming: { n: of((v) => v.write.told === 'confirming'), applied: of((v) => v.write.told === 'confirming' && v.applied > 0) },
    tabClosed: { n: of((v) => v.write.told === 'tabClosed'), applied: of((v) => v.write.told === 'tabClosed' && v.applied > 0) },
  }
}

export interface TabView { readonly devices: ReadonlyArray<{ userCardId: number; diskName: string; validTime: number }> }

/**
 * Where a tab's view differs from the server (null: it agrees): it must list exactly the server's devices, by id and
 * name, each with the minutes left the server's expiry gives (within 3 min: validTime is rounded and read a moment
 * apart; an expired device's may be shown as any value <= 0).
 */
export const disagreement = (view: TabView | null, r: ServerRecords): string | null => {
  if (view === null) return 'no view'
  const extra = view.devices.filter((t) => !r.devices.some((d) => d.user_card_id === t.userCardId)).map((t) => t.userCardId)
  const off = r.devices.flatMap((d) => {
    const t = view.devices.find((x) => x.userCardId === d.user_card_id)
    const left = (d.expires_ms - r.nowMs) / 60_000
    if (t === undefined) return [`${d.user_card_id} missing`]
    if (t.diskName !== d.disk_name) return [`${d.user_card_id} named ${t.diskName} (server ${d.disk_name})`]
    if (left <= 0 ? t.validTime > 0 : Math.abs(t.validTime - left) > 3) return [`${d.user_card_id} ${t.validTime} min left (server ${Math.round(left)})`]
    return []
  })
  const all = [...extra.map((id) => `${id} not on the server`), ...off]
  return all.length === 0 ? null : all.slice(0, 4).join('; ')
}
