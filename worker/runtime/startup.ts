// The launch rules (§4, decisions.md "Several tabs, one session"). The core's own start: the per-browser id, the
// session from storage, the system name and, with a token, the device list and meal types. Each tab that opens is a
// launch of the app: with a token it sends the visit log (operationType 1), and it dispatches the room-status check.
import * as Effect from 'effect/Effect'
import { DeviceList } from '../devices/device-list.ts'
import { EventHub } from '../events/event-hub.ts'
import { GroupLedger } from '../group/group-ledger.ts'
import { readUser } from '../events/hydrate.ts'
import { coreCall, HttpPipeline, type CallContext } from '../http/http-pipeline.ts'
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
  // a switch of account in progress ends with the core that began it (a worker that died mid-sign-in leaves none)
  yield* storage.remove(StorageKey.isSwitchExit)
  const token = yield* getString(storage, StorageKey.token)
  const user = readUser(yield* storage.get(StorageKey.dataInfo))
  if (token !== null && token !== '') state.set(token, user?.username ?? null)
})

/** The core's own start requests, in the background so tabs are served from the persisted state meanwhile. */
export const launchCore = Effect.gen(function* () {
  const background = yield* Background
  const http = yield* HttpPipeline
  const hub = yield* EventHub
  const state = yield* SessionState
  const devices = yield* DeviceList
  const meals = yield* MealTypes
  const group = yield* GroupLedger
  background.run(loadSystemName(http, hub))
  if (state.current().token !== null) {
    background.run(devices.refresh(coreCall))
    background.run(meals.load(coreCall))
    // group commands the last core left unanswered (killed mid-command): sent again, applied once by the server
    yield* group.resume
    // keyed writes likewise (issue 40): sent again with their keys, so the server applies each at most once
    yield* (yield* HttpPipeline).resumeWrites
  }
})

/** A tab opened (or reloaded): a launch of the app. */
export const launchTab = (ctx: CallContext) => Effect.gen(function* () {
  const background = yield* Background
  const maintenance = yield* Maintenance
  const session = yield* Session
  maintenance.launch()
  background.run(session.logVisit(ctx))
})
