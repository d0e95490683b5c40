// The product's tab-side API as the bench drives it, for either core runtime: v1 (client onEvents/onSnapshot, store
// applyBatch/loadSnapshot) or v2 (client state/onState, one projection folded by the client, store setShared). The bench
// must measure the runtime that is checked out, before and after the rewrite, so the modules are loaded by glob (the
// bench still builds while the product does not) and seen through these loose types (the one cast is in `load`).
import type { BenchDelivered, BenchState, CounterForm } from './bench-store.ts'

export interface ProductState {
  readonly seq: number
  readonly counters: { readonly coupon: number }
  readonly session: { readonly loggedIn: boolean }
  readonly push: { readonly status: string }
  readonly applyBatch?: (batch: ReadonlyArray<unknown>) => void
  readonly loadSnapshot?: (snapshot: unknown) => void
  readonly setShared?: (shared: unknown) => void
}

export interface ProductStore {
  getState(): ProductState
  setState(partial: object): void
  subscribe(listener: () => void): () => void
}

export interface ProductClient {
  readonly api: {
    login(input: { phone: string; password: string }): Promise<{ ok: boolean; msg?: string }>
    /** a catalogue call (the chaos part's writes); the core's Reply. */
    call(name: string, payload?: unknown): Promise<unknown>
    refreshDevices(): Promise<unknown>
  }
  readonly mode: 'shared' | 'dedicated'
  // v1
  readonly snapshot?: unknown
  onEvents?(listener: (batch: ReadonlyArray<unknown>) => void): () => void
  onSnapshot?(listener: (snapshot: unknown) => void): () => void
  // v2
  state?(): unknown
  onState?(listener: (state: unknown, replaced: boolean) => void): () => void
}

interface ConnectModule {
  connectCore(options: { channelCode: string | null; route: object; visible: boolean }): Promise<ProductClient>
}
interface StoreModule {
  createAppStore(): ProductStore
}
interface ProjectionModule {
  readonly initialShared: { readonly seq: number }
  applyDelivered(state: unknown, batch: ReadonlyArray<unknown>): { readonly seq: number }
}

// globs, not imports: a module that is missing resolves to nothing instead of failing the bench build
const modules = {
  connect: import.meta.glob('/src/core/connect.ts'),
  store: import.meta.glob('/src/store/app-store.ts'),
  projection: import.meta.glob('/worker/protocol/projection/index.ts'),
}

const load = async <M,>(glob: Record<string, () => Promise<unknown>>): Promise<M | null> => {
  const loader = Object.values(glob)[0]
  return loader ? ((await loader()) as M) : null
}

export const loadConnect = async (): Promise<ConnectModule> => {
  const m = await load<ConnectModule>(modules.connect)
  if (!m) throw new Error('src/core/connect.ts is missing')
  return m
}

export const loadStoreModule = (): Promise<StoreModule | null> => load<StoreModule>(modules.store).catch(() => null)

/** Keeps a product store in step with a core client, whichever runtime it is. */
export const follow = (core: ProductClient, store: ProductStore): void => {
  const s = store.getState()
  if (core.onState && core.state && s.setShared) {
    s.setShared(core.state())
    core.onState((state) => store.getState().setShared!(state))
    return
  }
  s.loadSnapshot!(core.snapshot)
  core.onEvents!((batch) => store.getState().applyBatch!(batch))
  core.onSnapshot!((snapshot) => store.getState().loadSnapshot!(snapshot))
}

/**
 * How a baseline tab folds a batch into the product store, doing the product tab's work: v2 folds it with the one
 * projection and hands the store the new shared state; v1 hands the store the batch. Null: no product store.
 */
export const productFold = async (initial: BenchState): Promise<{ store: ProductStore; form: CounterForm; apply: (batch: ReadonlyArray<BenchDelivered>) => void } | null> => {
  const storeModule = await loadStoreModule()
  const create = (): ProductStore | null => {
    try {
      return storeModule ? storeModule.createAppStore() : null
    } catch {
      // the stub the bench page server puts in when the product does not build
      return null
    }
  }
  const store = create()
  if (!store) return null
  const projection = await load<ProjectionModule>(modules.projection).catch(() => null)
  if (store.getState().setShared && projection) {
    let shared: { readonly seq: number } = { ...projection.initialShared, ...initial }
    store.getState().setShared!(shared)
    return {
      store, form: 'increment',
      apply: (batch) => {
        shared = projection.applyDelivered(shared, batch)
        store.getState().setShared!(shared)
      },
    }
  }
  // v1: the store takes batches; which counter event it understands is asked of a scratch store
  const probe = create()!
  probe.getState().applyBatch!([{ seq: 1, event: { _tag: 'CounterIncremented', kind: 'coupon' } }])
  const form: CounterForm = probe.getState().counters.coupon === 1 ? 'increment' : 'counters'
  store.setState({ seq: initial.seq, counters: initial.counters })
  return { store, form, apply: (batch) => store.getState().applyBatch!(batch) }
}
