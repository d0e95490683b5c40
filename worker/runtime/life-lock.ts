// The core's lifetime lock (issue 21): the worker takes a Web Lock of its own at start and never lets go of it, so the
// browser releases it exactly when the worker's context is destroyed (killed by the OS or the DevTools protocol,
// crashed, closed). Tabs wait on it (src/core/connect.ts) and learn of the death within milliseconds instead of at the
// next ping timeout. Resolves with the lock's name once it is held, null where Web Locks are missing (the ping remains).
import { coreLockName } from '../protocol/tab-lock.ts'

export const holdLifeLock = (): Promise<string | null> => {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks
  if (locks === undefined) return Promise.resolve(null)
  const name = coreLockName(crypto.randomUUID())
  return new Promise((held) => {
    locks.request(name, () => {
      held(name)
      return new Promise<void>(() => {})
    }).catch(() => held(null))
  })
}
