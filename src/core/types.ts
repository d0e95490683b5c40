// What the tab's boot code and store get from the core connection (implemented in src/core/connect.ts).
import type { Remote } from 'comlink'
import type { CoreApi, Snapshot, TabRoute } from '../../worker/protocol/commands.ts'
import type { EventBatch } from '../../worker/protocol/events.ts'

export interface ConnectOptions {
  readonly channelCode: string | null
  readonly route: TabRoute
  readonly visible: boolean
}

export interface CoreClient {
  /** comlink proxy of the core's API for this tab. After a worker restart it points at the new worker. */
  readonly api: Remote<CoreApi>
  /** the snapshot received on attach. */
  readonly snapshot: Snapshot
  /** in-order batches of events; a seq gap is repaired inside the client (resync) before listeners see it. */
  onEvents(listener: (batch: EventBatch) => void): () => void
  /** a whole new snapshot replaced the state (resync after falling behind, or after the worker restarted). */
  onSnapshot(listener: (snapshot: Snapshot) => void): () => void
  /** which kind of worker hosts the core here. */
  readonly mode: 'shared' | 'dedicated'
  close(): void
}

export type ConnectCore = (options: ConnectOptions) => Promise<CoreClient>
