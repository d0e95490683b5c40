// After a worker death: what the tabs hold that the dead worker never persisted. Pushes are not replayed by the server,
// so increments that reached a tab but not IndexedDB would be lost; the first tabs to reattach hand their state over
// and the new worker re-publishes the difference once (counters are monotonic within a session, so the difference
// between a tab's counters and the persisted ones is exactly what was lost). Only for the same account: a session
// change in between is persisted before it is published (exit-action.ts, session.ts), so it is never lost.
import type { Snapshot, TabHolds } from '../protocol/commands.ts'
import type { StateEvent } from '../protocol/events.ts'

export interface Persisted {
  readonly generation: string | null
  readonly state: Snapshot
}

const KINDS = ['coupon', 'activationCode'] as const

const username = (s: Snapshot) => (s.session.loggedIn ? s.session.user?.username ?? null : null)

export const makeRecovery = (base: Persisted) => {
  const recovered = { coupon: 0, activationCode: 0 }
  let announcementRecovered = false
  return (holds: TabHolds, current: Snapshot): ReadonlyArray<StateEvent> => {
    const tab = holds.state
    if (base.generation === null || holds.generation !== base.generation || tab === null || tab.seq <= base.state.seq) return []
    const account = username(base.state)
    if (account === null || username(tab) !== account || username(current) !== account) return []
    const out: Array<StateEvent> = []
    for (const kind of KINDS) {
      const lost = tab.counters[kind] - base.state.counters[kind] - recovered[kind]
      for (let i = 0; i < lost; i++) out.push({ _tag: 'CounterIncremented', kind })
      if (lost > 0) recovered[kind] += lost
    }
    if (tab.announcementActive && !base.state.announcementActive && !announcementRecovered) {
      announcementRecovered = true
      out.push({ _tag: 'AnnouncementFlagChanged', active: true })
    }
    return out
  }
}
