// The maintenance poll (§4, §8): check at launch, then again 300000 ms after each check whatever its outcome
// (failures are silent). A maintenance period (content + showTime) raises its modal once, for visitors too.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { EventHub } from '../events/event-hub.ts'
import { coreCall, HttpPipeline } from '../http/http-pipeline.ts'
import { catalogue } from '../protocol/catalogue.ts'
import type { MaintenanceMsg } from '../protocol/system.ts'
import { Texts } from '../texts.ts'

export const maintenanceKey = (m: MaintenanceMsg): string => `maintenance:${m.maintenanceContent}|${m.showTime}`

export interface MaintenanceShape {
  readonly check: Effect.Effect<void>
  /** checks now and then forever, `maintenancePollMs` after each check. */
  readonly poll: Effect.Effect<never>
}

export class Maintenance extends Context.Service<Maintenance, MaintenanceShape>()('cloud-phone/Maintenance') {
  static readonly layer = Layer.effect(
    Maintenance,
    Effect.gen(function* () {
      const http = yield* HttpPipeline
      const hub = yield* EventHub
      const config = yield* CoreConfig
      const shown = new Set<string>()
      let last: string | null = null

      const check = Effect.gen(function* () {
        const result = yield* http.call(catalogue.getRoomMaintenanceMsg, {}, { ...coreCall, quiet: true })
        if (!result.ok || result.data === false) return
        const m = result.data
        const fingerprint = JSON.stringify(m)
        if (fingerprint !== last) {
          last = fingerprint
          yield* hub.publish({ _tag: 'MaintenanceChanged', maintenance: m })
        }
        const key = maintenanceKey(m)
        if (m.maintenanceSwitch && !shown.has(key)) {
          shown.add(key)
          hub.emit({
            _tag: 'ShowModal', key, title: Texts.tipTitle,
            content: `${m.maintenanceContent}\n${Texts.maintenanceEta(m.showTime)}`,
            confirmText: Texts.ok, action: 'exitUnlessOnLogin', delayMs: 0, cancelable: false,
          }, 'all')
        }
      })

      const poll = Effect.forever(Effect.andThen(check, Effect.sleep(config.maintenancePollMs)))
      return { check, poll }
    }),
  )
}
