// The launch sequence of one core (§4): the first-launch rule, the per-browser id, the session from storage, then
// the maintenance poll, the system name and, with a token, the visit log, device list and meal types.
import * as Effect from 'effect/Effect'
import { DeviceList } from '../devices/device-list.ts'
import { EventHub } from '../events/event-hub.ts'
import { readUser } from '../events/hydrate.ts'
import { coreCall, HttpPipeline } from '../http/http-pipeline.ts'
import { MealTypes } from '../meals/meal-types.ts'
import { StorageKey } from '../protocol/storage-keys.ts'
import { ensureDeviceStatId } from '../session/device-stat-id.ts'
import { Session } from '../session/session.ts'
import { SessionState } from '../session/session-state.ts'
import { getString, Storage } from '../storage/storage.ts'
import { Maintenance } from '../system/maintenance.ts'
import { loadSystemName } from '../system/system-name.ts'
import { Background } from './background.ts'

/** The per-browser id and the in-memory session (the first-launch rule already ran when the hub was built). */
export const prepareStorage = Effect.gen(function* () {
  const storage = yield* Storage
  const state = yield* SessionState
  yield* ensureDeviceStatId(storage)
  const token = yield* getString(storage, StorageKey.token)
  const user = readUser(yield* storage.get(StorageKey.dataInfo))
  if (token !== null && token !== '') state.set(token, user?.username ?? null)
})

/** The launch requests; they run in the background so tabs are served from the snapshot meanwhile. */
export const launch = Effect.gen(function* () {
  const background = yield* Background
  const maintenance = yield* Maintenance
  const http = yield* HttpPipeline
  const hub = yield* EventHub
  const storage = yield* Storage
  const state = yield* SessionState
  const session = yield* Session
  const devices = yield* DeviceList
  const meals = yield* MealTypes
  background.run(maintenance.poll)
  background.run(loadSystemName(http, hub, storage))
  if (state.current().token !== null) {
    const phone = yield* getString(storage, StorageKey.phone)
    background.run(session.logVisit(phone, coreCall))
    background.run(Effect.asVoid(devices.refresh(coreCall)))
    background.run(meals.load)
  }
})
