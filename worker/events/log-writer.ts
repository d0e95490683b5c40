// Persists the event log off the hot path: entries published while a write is running are gathered into the next one,
// so a flood of pushes costs one IndexedDB transaction per write, not one per push, and each write carries the
// projection after its entries (a restarted worker starts from a state that matches its log exactly).
import * as Effect from 'effect/Effect'
import type { Snapshot } from '../protocol/commands.ts'
import { KEPT_ON_EXIT, StorageKey, type StorageKey as Key } from '../protocol/storage-keys.ts'
import type { LoggedEvent, StorageShape } from '../storage/storage.ts'

export interface LogWriter {
  /** queues an entry; `state` is the projection after it. */
  readonly append: (entry: LoggedEvent, state: Snapshot) => void
  /**
   * The exit action, right after publishing its SessionEnded at `fromSeq`: entries queued before it are the account's
   * and are dropped; the next write clears the account's keys and the whole log, then writes the rest, atomically.
   */
  readonly clearAccount: (fromSeq: number) => void
  /** resolves once everything queued so far is written. */
  readonly flushed: () => Promise<void>
  /** seq of the last entry known to be written. */
  readonly durableSeq: () => number
}

/** The spec's cardCouponPush key (§3), written with the log while someone is logged in (an exit removes it). */
const derivedKeys = (state: Snapshot): ReadonlyArray<readonly [Key, unknown]> =>
  state.session.loggedIn ? [[StorageKey.cardCouponPush, state.counters]] : []

export const makeLogWriter = (storage: StorageShape, o: { readonly generation: string; readonly limit: number; readonly initialSeq: number }): LogWriter => {
  let pending: Array<LoggedEvent> = []
  let latest: Snapshot | null = null
  let clear = false
  let durable = o.initialSeq
  let writing: Promise<void> | null = null
  let waiters: Array<() => void> = []

  const write = (): Promise<void> => {
    const entries = pending
    const state = latest!
    const clearNow = clear
    pending = []
    latest = null
    clear = false
    return Effect.runPromise(storage.commit({
      entries, persisted: { generation: o.generation, state }, limit: o.limit,
      clearExcept: clearNow ? KEPT_ON_EXIT : null, keys: derivedKeys(state),
    })).then(() => {
      durable = state.seq
    })
  }

  const pump = () => {
    if (writing !== null) return
    if (latest === null) {
      const done = waiters
      waiters = []
      done.forEach((w) => w())
      return
    }
    writing = write().finally(() => {
      writing = null
      pump()
    })
  }
  // a macrotask, so the frames of a burst that arrive in the same few milliseconds share one transaction
  let timer: ReturnType<typeof setTimeout> | null = null
  const schedule = () => {
    if (timer !== null) return
    timer = setTimeout(() => {
      timer = null
      pump()
    }, 0)
  }

  return {
    append: (entry, state) => {
      pending.push(entry)
      latest = state
      schedule()
    },
    clearAccount: (fromSeq) => {
      pending = pending.filter((e) => e.seq >= fromSeq)
      clear = true
      schedule()
    },
    flushed: () => new Promise<void>((resolve) => {
      if (latest === null && writing === null) return resolve()
      waiters.push(resolve)
      if (timer !== null) {
        clearTimeout(timer)
        timer = null
      }
      pump()
    }),
    durableSeq: () => durable,
  }
}
