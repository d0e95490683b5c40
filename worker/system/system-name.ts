// The system name behind the title (§1, decisions.md): read once at launch, persisted, published to tabs.
import * as Effect from 'effect/Effect'
import type { EventHubShape } from '../events/event-hub.ts'
import type { HttpPipelineShape } from '../http/http-pipeline.ts'
import { coreCall } from '../http/http-pipeline.ts'
import { catalogue } from '../protocol/catalogue.ts'
import { StorageKey } from '../protocol/storage-keys.ts'
import type { StorageShape } from '../storage/storage.ts'

export const loadSystemName = (http: HttpPipelineShape, hub: EventHubShape, storage: StorageShape): Effect.Effect<void> =>
  Effect.gen(function* () {
    const result = yield* http.call(catalogue.getSystemConfig, {}, { ...coreCall, quiet: true })
    if (!result.ok || result.data === false) return
    yield* storage.set(StorageKey.systemName, result.data.systemName)
    if (hub.snapshot().systemName !== result.data.systemName) {
      yield* hub.publish({ _tag: 'SystemNameChanged', systemName: result.data.systemName })
    }
  })
