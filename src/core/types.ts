// What the tab's boot code and store get from the core connection (implemented in src/core/connect.ts).
import type { CoreApi, Snapshot, TabRoute } from '../../worker/protocol/commands.ts'
import type { EffectEvent } from '../../worker/protocol/events.ts'

export interface ConnectOptions {
  readonly channelCode: string | null
  readonly route: TabRoute
  readonly visible: boolean
}

export interface CoreClient {
  /**
   * The core's commands for this tab, typed by the contract (worker/protocol/commands.ts): the one way a screen calls
   * the core. After a worker restart it points at the new worker. Each method is the same function on every read.
   */
  readonly api: CoreApi
  /** this tab's copy of the shared state (the projection folded over the core's batches). */
  state(): Snapshot
  /** the state after each batch; `replaced` when a snapshot replaced it (attach, reattach, a tab that fell behind). */
  onState(listener: (state: Snapshot, replaced: boolean) => void): () => void
  /**
   * Resolves once this tab's state has applied the state event numbered `seq`: a command's answer carries the log head
   * it left (`Reply.seq`, `Ack.seq`), so `await core.reached(result.seq)` is "what my command changed is in my store".
   * Also resolves when a snapshot replaces the state or the worker dies (that numbering is gone), never hangs.
   */
  reached(seq: number): Promise<void>
  /** effect events (toast, navigate, modal), in order, after the state they were emitted after. */
  onEffect(listener: (event: EffectEvent) => void): () => void
  /** after the core was replaced (a killed or dead worker) and this tab attached to the new one. */
  onReattach(listener: () => void): () => void
  /** when this tab learns that its worker died (before it reattaches), and how it learnt it. */
  onWorkerLost(listener: (how: WorkerLoss) => void): () => void
  /** which kind of worker hosts the core here. */
  readonly mode: 'shared' | 'dedicated'
  close(): void
}

/**
 * How a tab learnt its worker died: the worker's lifetime lock was granted to it (the guaranteed path), the port's close
 * event, the worker's error event, a ping or the attach unanswered in time, or the attach failing.
 */
export type WorkerLoss = 'lock' | 'close' | 'error' | 'ping' | 'start' | 'attach'

export type ConnectCore = (options: ConnectOptions) => Promise<CoreClient>
