// The core's entry: one runtime per worker; as a SharedWorker every connecting port gets its own CoreApi, as a
// dedicated Worker (no SharedWorker in this browser) the same API is exposed on self.
import { expose } from 'comlink'
import { decodeWorkerName, defaultCoreConfig, withTestConfig } from './config/core-config.ts'
import { makeCoreApi } from './api/core-api.ts'
import { loadBoundary } from './api/load-boundary.ts'
import { startCore } from './api/start-core.ts'
import { makeLiveCoreLayer } from './runtime/core-layer.ts'
import { holdLifeLock } from './runtime/life-lock.ts'

interface WorkerScope {
  readonly name: string
  readonly location: { readonly origin: string }
  onconnect?: ((e: MessageEvent) => void) | null
  close(): void
  postMessage(message: unknown, transfer?: Transferable[]): void
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void
  removeEventListener(type: 'message', listener: (e: MessageEvent) => void): void
}
declare const self: WorkerScope

// taken before the core starts: a tab learns its name at once and waits on it (issue 21)
const lifeLock = holdLifeLock()
// the boundary's decoders are fetched while the entry runs: hydration and the first command wait for them
void loadBoundary().catch(() => undefined)
const config = withTestConfig(defaultCoreConfig(self.location.origin), decodeWorkerName(self.name))
const core = startCore(makeLiveCoreLayer(config))

const exposeOn = (endpoint: MessagePort | WorkerScope) =>
  expose(makeCoreApi((effect) => core.then(({ run }) => run(effect)), lifeLock), endpoint as MessagePort)

if ('onconnect' in self) {
  self.onconnect = (e: MessageEvent) => exposeOn(e.ports[0])
} else {
  exposeOn(self)
}
