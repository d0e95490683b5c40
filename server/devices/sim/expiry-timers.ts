// A phone's stream ends at the phone's expiry instant (issue 41 finding 10): while anything of it is open here (a
// viewer's channel, a thumbnail, a mirror target) one timer waits for its expiry by the device clock, instead of the
// next card-token check (CARD_TOKEN_CHECK_MS, up to 30 s later; it stays, for what has no instant: logouts elsewhere,
// a clock moved). When the timer fires the expiry is read again: a renewal moved it (the timer waits again), else the
// phone's channels, thumbnails and mirror targets here end with 'expired'.
import type { DeviceClock } from '../clock.ts'

/** setTimeout's longest delay (about 24.8 days): a later expiry is waited for in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1

export interface ExpiryTimers {
  /** something of the phone is open here; it ends at `expiresAt` (ms, device clock) unless renewed by then. */
  watch(deviceId: number, expiresAt: number): void
  close(): void
}

export interface ExpiryHooks {
  /** the phone's expiry as stored now (ms; null when the device is gone). */
  readonly expiryOf: (deviceId: number) => Promise<number | null>
  /** whether anything of the phone is still open here (nothing: the timer is dropped). */
  readonly open: (deviceId: number) => boolean
  /** ends what is open of the phone here, with 'expired'. */
  readonly expire: (deviceId: number) => void
}

export const createExpiryTimers = (clock: DeviceClock, hooks: ExpiryHooks): ExpiryTimers => {
  const timers = new Map<number, { readonly at: number; readonly timer: NodeJS.Timeout }>()
  let closed = false

  const fire = async (deviceId: number): Promise<void> => {
    timers.delete(deviceId)
    if (closed || !hooks.open(deviceId)) return
    const at = await hooks.expiryOf(deviceId).catch(() => null)
    if (closed || at === null) return
    if (at <= clock.now()) hooks.expire(deviceId)
    else watch(deviceId, at)
  }

  const watch = (deviceId: number, expiresAt: number): void => {
    if (closed || timers.get(deviceId)?.at === expiresAt) return
    const previous = timers.get(deviceId)
    if (previous) clearTimeout(previous.timer)
    const delay = Math.min(MAX_DELAY_MS, Math.max(0, expiresAt - clock.now()))
    const timer = setTimeout(() => void fire(deviceId), delay)
    timer.unref()
    timers.set(deviceId, { at: expiresAt, timer })
  }

  return {
    watch,
    close() {
      closed = true
      for (const { timer } of timers.values()) clearTimeout(timer)
      timers.clear()
    },
  }
}
