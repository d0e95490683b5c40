// The page's trace as a quiet machine would have recorded it, for Lighthouse to audit again from its saved artifacts
// (`-A`): each of the main thread's top-level tasks shortened, with everything inside it in proportion, to
// - `cpu`: its thread CPU time (`tdur`). This also drops the task's waits on other threads (a synchronous round trip
//   to the browser), which a quiet machine shortens but does not remove: an upper bound.
// - `preempted`: its length less the time the thread was runnable but switched out for another process (the kernel's
//   sched_switch records, through `perf`): what a core of its own would give it, the task's waits on other threads
//   kept as this machine made them.
// Estimates, for reading how much of a score is the code and how much the machine.
import type { TraceEvent } from '../bench/lib/trace-profile.ts'

export interface TimedEvent extends TraceEvent {
  ts: number
  dur?: number
  readonly tdur?: number
  readonly args?: TraceEvent['args'] & { data?: { isLoadingMainFrame?: boolean; documentLoaderURL?: string } }
}

/** The page's main thread: the one that started the last navigation of an http(s) main frame. */
export const pageMainThread = (events: ReadonlyArray<TimedEvent>): TimedEvent | undefined =>
  events.filter((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame === true
    && (e.args.data.documentLoaderURL ?? '').startsWith('http')).at(-1)

/**
 * Rewrites `events` in place, each of the page's top-level tasks shortened to `length(task)` µs (its thread CPU time
 * unless given) with its contents in proportion; returns how many tasks were shortened.
 */
export function compressTasks(events: TimedEvent[], length: (task: TimedEvent) => number | undefined = (t) => t.tdur): number {
  const nav = pageMainThread(events)
  if (nav === undefined) return 0
  const thread = events.filter((e) => e.pid === nav.pid && e.tid === nav.tid && e.ph !== 'M').sort((a, b) => a.ts - b.ts)
  let compressed = 0
  let end = Number.NEGATIVE_INFINITY
  for (let i = 0; i < thread.length; i++) {
    const top = thread[i]!
    if (top.ts < end || top.ph !== 'X' || top.dur === undefined) continue
    const start = top.ts
    end = start + top.dur
    const shorter = length(top)
    if (shorter === undefined || shorter >= top.dur) continue
    const ratio = Math.max(0, shorter) / top.dur
    for (let j = i; j < thread.length && thread[j]!.ts < end; j++) {
      const e = thread[j]!
      e.ts = start + (e.ts - start) * ratio
      if (e.dur !== undefined) e.dur *= ratio
    }
    compressed += 1
  }
  return compressed
}

/**
 * From `perf script -F time,event,trace` over `perf record -e sched:sched_switch -k mono -a` (the trace's clock):
 * each span (µs) in which thread `tid` was switched out while still runnable, i.e. waiting for a core.
 */
export function preemptedSpans(perfScript: string, tid: number): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = []
  let out: number | null = null
  const line = /(\d+\.\d+):\s+sched:sched_switch:.* prev_pid=(\d+) .*prev_state=(\S+) ==> .* next_pid=(\d+)/
  for (const text of perfScript.split('\n')) {
    const m = line.exec(text)
    if (m === null) continue
    const at = Number(m[1]) * 1e6
    if (Number(m[2]) === tid) out = m[3]!.startsWith('R') ? at : null
    if (Number(m[4]) === tid && out !== null) {
      spans.push([out, at])
      out = null
    }
  }
  return spans
}

/** A task's length less the time its thread spent preempted within it. */
export const withoutPreemption = (spans: ReadonlyArray<readonly [number, number]>) => (task: TimedEvent): number => {
  const start = task.ts
  const end = start + (task.dur ?? 0)
  let waited = 0
  for (const [from, to] of spans) waited += Math.max(0, Math.min(end, to) - Math.max(start, from))
  return end - start - waited
}
