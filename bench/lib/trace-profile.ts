// Reads a Chromium trace's V8 CPU profiles (ProfileChunk events, category disabled-by-default-v8.cpu_profiler) and
// sums self time per function: the summary bench/trace-worker.ts writes for the core's worker.

export interface TraceEvent {
  readonly name: string
  readonly ph: string
  readonly pid: number
  readonly tid: number
  readonly id?: string
  readonly args?: {
    readonly name?: string
    readonly data?: {
      readonly cpuProfile?: { readonly nodes?: ReadonlyArray<ProfileNode>; readonly samples?: ReadonlyArray<number> }
      readonly timeDeltas?: ReadonlyArray<number>
    }
  }
}
export interface ProfileNode {
  readonly id: number
  readonly parent?: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
}

export interface ThreadProfile {
  readonly thread: string
  readonly nodes: Map<number, ProfileNode>
  readonly samples: number[]
  readonly deltas: number[]
}

/** the V8 CPU profiles in the trace, one per profiled thread, assembled from their ProfileChunk events. */
export const profiles = (events: ReadonlyArray<TraceEvent>): ThreadProfile[] => {
  const threadNames = new Map<string, string>()
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?')
  // ProfileChunk events come from the profiler's own thread; the Profile event that opens a profile is on the profiled one
  const profiledThread = new Map<string, string>()
  for (const e of events) if (e.name === 'Profile' && e.id !== undefined) profiledThread.set(`${e.pid}:${e.id}`, `${e.pid}:${e.tid}`)
  const byId = new Map<string, ThreadProfile>()
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.id === undefined) continue
    const key = `${e.pid}:${e.id}`
    let p = byId.get(key)
    if (!p) {
      const thread = profiledThread.get(key) ?? `${e.pid}:${e.tid}`
      p = { thread: threadNames.get(thread) ?? thread, nodes: new Map(), samples: [], deltas: [] }
      byId.set(key, p)
    }
    for (const n of e.args?.data?.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n)
    p.samples.push(...(e.args?.data?.cpuProfile?.samples ?? []))
    p.deltas.push(...(e.args?.data?.timeDeltas ?? []))
  }
  return [...byId.values()]
}

/** a profile of the core's worker: its code comes from the worker bundle (assets/main-*.js). */
export const isCoreWorker = (p: ThreadProfile): boolean => [...p.nodes.values()].some((n) => /\/assets\/main-[^/]*\.js/.test(n.callFrame.url))

export interface SelfTime { readonly fn: string; readonly ms: number }

/** self time per function (µs deltas: sample i lasts until sample i + 1), summed over the given profiles. */
export const selfTimes = (list: ReadonlyArray<ThreadProfile>): { busyMs: number; idleMs: number; top: SelfTime[] } => {
  const byFn = new Map<string, number>()
  let idle = 0
  for (const p of list) {
    for (let i = 0; i + 1 < p.samples.length; i++) {
      const node = p.nodes.get(p.samples[i])
      const us = p.deltas[i + 1] ?? 0
      if (!node || us <= 0) continue
      const { functionName, url, lineNumber } = node.callFrame
      if (functionName === '(idle)') { idle += us; continue }
      const where = url ? ` ${url.replace(/^.*\/assets\//, '')}:${lineNumber + 1}` : ''
      const fn = `${functionName || '(anonymous)'}${where}`
      byFn.set(fn, (byFn.get(fn) ?? 0) + us)
    }
  }
  const top = [...byFn].map(([fn, us]) => ({ fn, ms: us / 1000 })).sort((a, b) => b.ms - a.ms)
  return { busyMs: top.reduce((a, t) => a + t.ms, 0), idleMs: idle / 1000, top }
}
