// The device list: fetched by the core (login, launch with a token, refreshCloudPhoneList, a tab's refresh) and kept in
// the projection, which is persisted with the log so a reload paints at once. One request at a time: a refresh asked
// while one is on its way waits for the next, which starts when that one ends, and every refresh asked meanwhile
// shares that next one. The request on its way may have been answered before the change the refresh was asked for
// (a refreshCloudPhoneList push, a tab's pull after an action), so joining it could leave the list showing the state
// from before the change.
import * as Context from 'effect/Context'
import * as Deferred from 'effect/Deferred'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { EventHub } from '../events/event-hub.ts'
import { HttpPipeline, toCallResult, type CallContext } from '../http/http-pipeline.ts'
import type { CallResult } from '../protocol/commands.ts'
import type { Device } from '../protocol/devices.ts'
import { Background } from '../runtime/background.ts'
import { SessionState } from '../session/session-state.ts'

type ListResult = CallResult<ReadonlyArray<Device>>

export interface DeviceListShape {
  readonly refresh: (ctx: CallContext) => Effect.Effect<ListResult>
}

export class DeviceList extends Context.Service<DeviceList, DeviceListShape>()('cloud-phone/DeviceList') {
  static readonly layer = Layer.effect(
    DeviceList,
    Effect.gen(function* () {
      const http = yield* HttpPipeline
      const hub = yield* EventHub
      const session = yield* SessionState
      const background = yield* Background
      interface Job { readonly done: Deferred.Deferred<ListResult>; readonly ctx: CallContext }
      /** a load is on its way (the drain below runs). */
      let running = false
      /** the load that starts when the running one ends; every refresh asked meanwhile waits for it. */
      let next: Job | null = null

      const load = (ctx: CallContext) =>
        Effect.gen(function* () {
          const { epoch } = session.current()
          hub.publish({ _tag: 'DeviceListLoading', loading: true }, epoch)
          const result = yield* toCallResult(http.request('getDeviceList', {}, ctx))
          if (!result.ok) {
            hub.publish(result.silent ? { _tag: 'DeviceListLoading', loading: false } : { _tag: 'DeviceListFailed', msg: result.msg }, epoch)
            return result
          }
          // §7: empty data becomes false, which for a list means no devices.
          const devices: ReadonlyArray<Device> = result.data === false ? [] : result.data
          hub.publish({ _tag: 'DeviceListLoaded', devices, fetchedAt: Date.now() }, epoch)
          return { ok: true, data: devices } as const
        })

      // runs the loads one after another until none is asked for; `running` goes false in the same step that finds
      // none queued, so a refresh asked at any moment either is queued here or starts a drain of its own
      const drain = (first: Job) =>
        Effect.gen(function* () {
          let job = first
          for (;;) {
            yield* Deferred.succeed(job.done, yield* load(job.ctx))
            if (next === null) {
              running = false
              return
            }
            job = next
            next = null
          }
        }).pipe(Effect.onInterrupt(() => Effect.sync(() => { running = false })))

      const refresh = (ctx: CallContext) =>
        Effect.gen(function* () {
          const done = yield* Deferred.make<ListResult>()
          if (running) {
            next ??= { done, ctx }
            return yield* Deferred.await(next.done)
          }
          running = true
          background.run(drain({ done, ctx }))
          return yield* Deferred.await(done)
        })

      return { refresh }
    }),
  )
}
