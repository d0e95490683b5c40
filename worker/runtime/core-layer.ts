// Wires the core's services: the shared graph, plus the live edges (idb, fetch, WebSocket, Web Locks) or the
// test edges (memory storage, fake fetch, fake socket, manual tab locks).
import * as Layer from 'effect/Layer'
import { CoreConfig, type CoreConfigShape } from '../config/core-config.ts'
import { DeviceList } from '../devices/device-list.ts'
import { GroupLedger } from '../group/group-ledger.ts'
import { EventHub } from '../events/event-hub.ts'
import { Fetcher, type FetchFn } from '../http/fetcher.ts'
import { HttpPipeline } from '../http/http-pipeline.ts'
import { MealTypes } from '../meals/meal-types.ts'
import { PushConnection } from '../push/push-connection.ts'
import { PushRules } from '../push/push-rules.ts'
import { PushSocket, type OpenSocket } from '../push/push-socket.ts'
import { ExitAction } from '../session/exit-action.ts'
import { Session } from '../session/session.ts'
import { SessionState } from '../session/session-state.ts'
import { IdbStorageLive } from '../storage/idb-storage.ts'
import { Storage, type PersistedState } from '../storage/storage.ts'
import { Maintenance } from '../system/maintenance.ts'
import type { WatchTabGone } from '../tabs/tab-port.ts'
import { TabRegistry } from '../tabs/tab-registry.ts'
import { StreamHub } from '../stream/stream-service.ts'
import { Background } from './background.ts'

export interface CoreEdges {
  readonly storage: Layer.Layer<Storage, never, CoreConfig>
  readonly fetcher: Layer.Layer<Fetcher>
  readonly socket: Layer.Layer<PushSocket>
  readonly tabs: Layer.Layer<TabRegistry>
  /** the phone streams' socket; the browser's WebSocket unless a test gives its own. */
  readonly streams?: Layer.Layer<StreamHub, never, CoreConfig | TabRegistry>
}

export const makeCoreLayer = (config: CoreConfigShape, edges: CoreEdges) => {
  const base = Layer.mergeAll(edges.storage, edges.tabs, SessionState.layer, Background.layer, edges.fetcher, edges.socket)
    .pipe(Layer.provideMerge(CoreConfig.layer(config)))
  const streams = (edges.streams ?? StreamHub.layer).pipe(Layer.provideMerge(base))
  const hub = EventHub.layer.pipe(Layer.provideMerge(streams))
  const exit = ExitAction.layer.pipe(Layer.provideMerge(hub))
  const http = HttpPipeline.layer.pipe(Layer.provideMerge(exit))
  const data = Layer.mergeAll(DeviceList.layer, MealTypes.layer, Maintenance.layer, GroupLedger.layer).pipe(Layer.provideMerge(http))
  const session = Session.layer.pipe(Layer.provideMerge(data))
  const rules = PushRules.layer.pipe(Layer.provideMerge(session))
  return PushConnection.layer.pipe(Layer.provideMerge(rules))
}

export const makeLiveCoreLayer = (config: CoreConfigShape) =>
  makeCoreLayer(config, {
    storage: IdbStorageLive, fetcher: Fetcher.layer, socket: PushSocket.layer, tabs: TabRegistry.layer,
  })

export const makeTestEdges = (o: {
  readonly storage?: Record<string, unknown>
  readonly persisted?: PersistedState | null
  readonly fetch: FetchFn
  readonly socket: OpenSocket
  readonly watchGone: WatchTabGone
}): CoreEdges => ({
  storage: Storage.layerTest(o.storage ?? {}, o.persisted ?? null),
  fetcher: Fetcher.layerTest(o.fetch),
  socket: PushSocket.layerTest(o.socket),
  tabs: TabRegistry.layerWith(o.watchGone),
})
