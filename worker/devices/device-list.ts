// The device list: fetched by the core (login, launch with a token, refreshCloudPhoneList, a tab's refresh),
// cached in storage so a reload paints at once; concurrent refreshes share one request.
import * as Context from 'effect/Context'
import * as Deferred from 'effect/Deferred'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { EventHub } from '../events/event-hub.ts'
import { HttpPipeline, type CallContext } from '../http/http-pipeline.ts'
import { catalogue } from '../protocol/catalogue.ts'
import type { CallResult } from '../protocol/commands.ts'
import type { Device } from '../protocol/devices.ts'
import { StorageKey } from '../protocol/storage-keys.ts'
import { Storage } from '../storage/storage.ts'

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
      const storage = yield* Storage
      let inFlight: Deferred.Deferred<ListResult> | null = null

      const load = (ctx: CallContext) =>
        Effect.gen(function* () {
          yield* hub.publish({ _tag: 'DeviceListLoading', loading: true })
          const result = yield* http.call(catalogue.getDeviceList, {}, ctx)
          if (!result.ok) {
            yield* hub.publish({ _tag: 'DeviceListFailed', msg: result.msg })
            return result
          }
          // §7: empty data becomes false, which for a list means no devices.
          const devices: ReadonlyArray<Device> = result.data === false ? [] : result.data
          const fetchedAt = Date.now()
          yield* storage.set(StorageKey.deviceListCache, { list: devices, fetchedAt })
          yield* hub.publish({ _tag: 'DeviceListLoaded', devices, fetchedAt })
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
