// The bench tab: connects through one delivery path (?mode=product|socket|comlink|port, ?dedicated=1 for the core's
// fallback), records per message when the store held it and when React committed it (both read from the store's coupon
// counter), and exposes window.__bench to the runner.
import { useLayoutEffect } from 'react'
import { createRoot } from 'react-dom/client'
import { TabRecorder, type TabDump, type TabProgress } from './recorder.ts'
import type { SourceContext, TabSource } from './tab-source.ts'

export interface BenchTab {
  readonly mode: string
  readonly crossOriginIsolated: boolean
  workerIsolated(): Promise<boolean | null>
  /** starts a run of count messages: message k is the k-th counter event from now on. */
  reset(count: number): Promise<void>
  progress(): TabProgress
  dump(): TabDump
  workerArrivals(): Promise<Array<[number, number]>>
  control(name: string, ...args: unknown[]): Promise<unknown>
}

declare global {
  interface Window {
    __bench?: BenchTab
    __benchError?: string
  }
}

const params = new URLSearchParams(location.search)
const mode = params.get('mode') ?? 'port'
const recorder = new TabRecorder()

const context: SourceContext = {
  params,
  onArrival: (id, t) => recorder.arrival(id, t),
}

const loadSource = async (): Promise<TabSource> => {
  const baselines = await import('./baseline-sources.ts')
  switch (mode) {
    case 'socket': return baselines.perTabSocket(context)
    case 'comlink': return baselines.comlinkCallback(context)
    case 'port': return baselines.rawPortBatches(context)
    // loaded only when asked for, so the baselines keep working while the product is incomplete
    case 'product': return (await import('./product-source.ts')).productSource(context)
    default: throw new Error(`unknown mode ${mode}`)
  }
}

const Probe = ({ source }: { source: TabSource }) => {
  const counter = source.useCounter()
  useLayoutEffect(() => recorder.commit(counter), [counter])
  return <output data-testid="bench-counter">{counter}</output>
}

const boot = async (): Promise<void> => {
  const source = await loadSource()
  recorder.reset(0, source.counter())
  source.subscribe(() => recorder.store(source.counter()))
  createRoot(document.getElementById('root')!).render(<Probe source={source} />)
  window.__bench = {
    mode,
    crossOriginIsolated: self.crossOriginIsolated,
    workerIsolated: () => source.workerIsolated(),
    async reset(count) {
      await source.resetWorker()
      recorder.reset(count, source.counter())
    },
    progress: () => recorder.progress(),
    dump: () => recorder.dump(),
    workerArrivals: () => source.workerArrivals(),
    async control(name, ...args) {
      const fn = source.controls?.[name] as ((...a: unknown[]) => unknown) | undefined
      if (!fn) throw new Error(`no control ${name} in mode ${mode}`)
      return fn(...args)
    },
  }
}

boot().catch((e: unknown) => {
  window.__benchError = e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e)
})
