// Who is logged in, in memory (mirrors the stored token and username), with a session epoch: every login and every
// exit bumps it, so failures of calls made in an older epoch cannot start a second exit.
import * as Context from 'effect/Context'
import * as Layer from 'effect/Layer'

export interface SessionNow {
  readonly token: string | null
  readonly username: string | null
  readonly epoch: number
}

export interface SessionStateShape {
  readonly current: () => SessionNow
  /** `announce: false` defers telling listeners (the push socket) until `announce()`: login opens push last. */
  readonly set: (token: string | null, username: string | null, announce?: boolean) => void
  readonly announce: () => void
  /** takes the right to end the session started in `epoch`; false if it already ended, is ending, or changed since. */
  readonly claimExit: (epoch: number) => boolean
  readonly subscribe: (listener: () => void) => () => void
}

export const makeSessionState = (): SessionStateShape => {
  let now: SessionNow = { token: null, username: null, epoch: 0 }
  // claimed until the next set: a 6013 exit waits 500 ms with the token still held, and a call made meanwhile (a
  // reloading tab's) carries the bumped epoch; without this it would claim, and run, a second exit
  let exitClaimed = false
  const listeners = new Set<() => void>()
  const notify = () => listeners.forEach((l) => l())
  return {
    current: () => now,
    set: (token, username, announce = true) => {
      now = { token, username, epoch: now.epoch + 1 }
      exitClaimed = false
      if (announce) notify()
    },
    announce: notify,
    claimExit: (epoch) => {
      if (exitClaimed || epoch !== now.epoch) return false
      exitClaimed = true
      now = { ...now, epoch: now.epoch + 1 }
      return true
    },
    subscribe: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

export class SessionState extends Context.Service<SessionState, SessionStateShape>()('cloud-phone/SessionState') {
  static readonly layer = Layer.sync(SessionState, makeSessionState)
}
