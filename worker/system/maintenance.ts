// The maintenance check (§4, §8, decisions.md): each launch (a tab opening) checks at once, and the one shared poll
// checks again 300000 ms after the latest check, whatever its outcome (failures are silent). A check whose room-status
// call fails asks the maintenance host (§7) instead; the room status decides whenever it answers. The message goes into the
// projection, whose maintenance slice numbers the periods; each tab shows the modal once per period (src/boot).
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Fiber from 'effect/Fiber'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { EventHub } from '../events/event-hub.ts'
import { coreCall, HttpPipeline } from '../http/http-pipeline.ts'
import { Background } from '../runtime/background.ts'

export interface MaintenanceShape {
  readonly check: Effect.Effect<void>
  /** checks now and restarts the poll from this check (a launch). */
  readonly launch: () => void
}

export class Maintenance extends Context.Service<Maintenance, MaintenanceShape>()('cloud-phone/Maintenance') {
  static readonly layer = Layer.effect(
    Maintenance,
    Effect.gen(function* () {
      const http = yield* HttpPipeline
      const hub = yield* EventHub
      const config = yield* CoreConfig
      const background = yield* Background

      // checks overlap (a launch while the poll's check is on its way); an answer overtaken by the answer of a later
      // check is stale, and applying it would end and restart the period, showing the modal twice
      let started = 0
      let applied = 0
      const check = Effect.gen(function* () {
        const ticket = ++started
        // the API may be down for the very maintenance it would announce: then the maintenance host tells
        const m = yield* http.request('getRoomMaintenanceMsg', {}, { ...coreCall, quiet: true }).pipe(
          Effect.catch(() => http.request('getMaintenanceHostMsg', {}, { ...coreCall, quiet: true })),
        )
        if (m === false || ticket < applied) return
        applied = ticket
        const last = hub.snapshot().maintenance.msg
        if (last === null || last.maintenanceSwitch !== m.maintenanceSwitch || last.maintenanceContent !== m.maintenanceContent || last.showTime !== m.showTime) {
          hub.publish({ _tag: 'MaintenanceChanged', maintenance: m })
        }
      }).pipe(Effect.ignore)

      let poll: Fiber.Fiber<never> | null = null
      const launch = () => {
        const previous = poll
        if (previous !== null) background.run(Fiber.interrupt(previous))
        poll = background.run(Effect.forever(Effect.andThen(check, Effect.sleep(config.maintenancePollMs))))
      }
      return { check, launch }
    }),
  )
}
