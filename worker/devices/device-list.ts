// The device list: fetched by the core (login, launch with a token, refreshCloudPhoneList, a tab's refresh) and kept in
// the projection, which is persisted with the log so a reload paints at once; concurrent refreshes share one request.
import * as Context from 'effect/Context'
import * as Deferred from 'effect/Deferred'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { EventHub } from '../events/event-hub.ts'
import { HttpPipeline, toCallResult, type CallContext } from '../http/http-pipeline.ts'
import type { CallResult } from '../protocol/commands.ts'
import type { Device } from '../protocol/devices.ts'
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
      let inFlight: Deferred.Deferred<ListResult> | null = null

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

      const refresh = (ctx: CallContext) =>
        Effect.gen(function* () {
          if (inFlight !== null) return yield* Deferred.await(inFlight)
          const done = yield* Deferred.make<ListResult>()
          inFlight = done
          const result = yield* load(ctx).pipe(Effect.ensuring(Effect.sync(() => { inFlight = null })))
          yield* Deferred.succeed(done, result)
          return result
        })

      return { refresh }
    }),
  )
}
