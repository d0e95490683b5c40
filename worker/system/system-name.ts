// The system name behind the title (§1, decisions.md): read at launch and published to tabs (persisted with the
// projection). It is the service's, not an account's: an exit keeps it.
import * as Effect from 'effect/Effect'
import type { EventHubShape } from '../events/event-hub.ts'
import type { HttpPipelineShape } from '../http/http-pipeline.ts'
import { coreCall } from '../http/http-pipeline.ts'

export const loadSystemName = (http: HttpPipelineShape, hub: EventHubShape): Effect.Effect<void> =>
  Effect.gen(function* () {
    const config = yield* http.request('getSystemConfig', {}, { ...coreCall, quiet: true })
    if (config !== false && hub.snapshot().systemName !== config.systemName) {
      hub.publish({ _tag: 'SystemNameChanged', systemName: config.systemName })
    }
  }).pipe(Effect.ignore)
