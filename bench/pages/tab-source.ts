// What the bench tab page needs from each delivery path (product core or a baseline), so one page measures them all.
export interface TabSource {
  /** the coupon counter the tab's store holds now. */
  counter(): number
  /** store subscription: called after every state change. */
  subscribe(listener: () => void): () => void
  /** React hook reading the coupon counter from the same store. */
  useCounter(): number
  /** [message id, arrival time at the worker's socket] for bench frames since the last resetWorker. */
  workerArrivals(): Promise<Array<[number, number]>>
  resetWorker(): Promise<void>
  workerIsolated(): Promise<boolean | null>
  /** path-specific controls for the runner (the product's login, its push status, killing its worker). */
  readonly controls?: Record<string, (...args: never[]) => unknown>
}

export interface SourceContext {
  readonly params: URLSearchParams
  /** per-tab socket only: a bench frame arrived at this tab's socket. */
  readonly onArrival: (id: number, t: number) => void
}
