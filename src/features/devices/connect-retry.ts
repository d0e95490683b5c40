// The viewer's connect loop (api-notes): while connect answers "starting" (status 5200), wait 1 s and ask again, up
// to 30 times, reporting progress; sleep is injected so the rule is tested without waiting.
import { CONNECT_RETRY_INTERVAL_MS, CONNECT_RETRY_MAX } from '../../../worker/protocol/constants.ts'
import type { ConnectReady, ConnectResponse, ConnectStarting } from '../../../worker/protocol/devices.ts'
import type { CallResult } from '../../../worker/protocol/commands.ts'

export type ConnectOutcome =
  | { readonly kind: 'ready'; readonly result: ConnectReady }
  | { readonly kind: 'failed'; readonly msg: string }
  /** still starting after every retry. */
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }

export interface ConnectProgress {
  /** retries made so far (0 before the first retry). */
  readonly attempt: number
  readonly max: number
  /** the device's own start progress, 0..100. */
  readonly progress: number
}

export interface ConnectRetryDeps {
  readonly connect: () => Promise<CallResult<unknown>>
  readonly sleep: (ms: number) => Promise<void>
  readonly onProgress?: (p: ConnectProgress) => void
  readonly isCancelled?: () => boolean
  readonly intervalMs?: number
  readonly max?: number
}

export const isStarting = (data: unknown): data is ConnectStarting =>
  typeof data === 'object' && data !== null && (data as { starting?: unknown }).starting === true

export const connectWithRetry = async (deps: ConnectRetryDeps): Promise<ConnectOutcome> => {
  const interval = deps.intervalMs ?? CONNECT_RETRY_INTERVAL_MS
  const max = deps.max ?? CONNECT_RETRY_MAX
  for (let attempt = 0; ; attempt++) {
    if (deps.isCancelled?.()) return { kind: 'cancelled' }
    const res = await deps.connect()
    if (deps.isCancelled?.()) return { kind: 'cancelled' }
    if (!res.ok) return { kind: 'failed', msg: res.msg }
    const data = res.data as ConnectResponse | false
    if (!data) return { kind: 'failed', msg: '' }
    if (!isStarting(data)) return { kind: 'ready', result: data as ConnectReady }
    if (attempt >= max) return { kind: 'timeout' }
    deps.onProgress?.({ attempt: attempt + 1, max, progress: data.progress })
    await deps.sleep(interval)
  }
}
