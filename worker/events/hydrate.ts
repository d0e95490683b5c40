// The state a starting worker begins from: the projection persisted with the log (hydrating it is what lets a reload
// paint before the network answers). The stored token is the truth about the session (§3): without one, nothing of an
// account is kept; with one but no persisted projection (a first start after a login by an older version), the
// session is rebuilt from the stored user.
import * as Effect from 'effect/Effect'
import type { Snapshot } from '../protocol/commands.ts'
import { readHomeView } from '../protocol/projection/home-view.ts'
import { initialShared } from '../protocol/projection/index.ts'
import type { UserInfo } from '../protocol/session.ts'
import { StorageKey } from '../protocol/storage-keys.ts'
import { loadBoundary } from '../api/load-boundary.ts'
import type { PersistedState, StorageShape } from '../storage/storage.ts'

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

export const readUser = (v: unknown): UserInfo | null =>
  isObject(v) && typeof v.username === 'string' && typeof v.userType === 'number'
    ? { username: v.username, userType: v.userType, phone: typeof v.phone === 'string' ? v.phone : '' }
    : null

const loggedOut = (s: Snapshot): Snapshot => ({
  ...initialShared, seq: s.seq, systemName: s.systemName, maintenance: s.maintenance, homeView: s.homeView, session: { ...initialShared.session, ended: s.session.ended },
})

export interface Hydrated {
  readonly state: Snapshot
  readonly persisted: PersistedState | null
}

export const hydrateState = (storage: StorageShape): Effect.Effect<Hydrated> =>
  Effect.gen(function* () {
    // decoded by the boundary's reader (worker/api/boundary.ts readPersisted)
    const { readPersisted } = yield* Effect.promise(loadBoundary)
    const persisted = readPersisted(yield* storage.readPersisted())
    const token = yield* storage.get(StorageKey.token)
    // a state stored by a version without the home's view gets the default one
    const stored = persisted?.state ?? initialShared
    const base = { ...stored, homeView: readHomeView(stored.homeView) }
    if (typeof token !== 'string' || token === '') return { state: loggedOut(base), persisted }
    const user = readUser(yield* storage.get(StorageKey.dataInfo))
    // what was in motion when the last worker stopped is not any more
    // a state persisted before group control existed has no ledger: it starts empty
    const settled = { ...base, push: initialShared.push, devices: { ...base.devices, loading: false }, group: base.group ?? initialShared.group }
    if (base.session.loggedIn && user !== null && base.session.user?.username === user.username) return { state: settled, persisted }
    const phone = yield* storage.get(StorageKey.phone)
    return {
      state: { ...loggedOut(base), session: { loggedIn: true, user, phone: typeof phone === 'string' ? phone : null, ended: null } },
      persisted,
    }
  })
