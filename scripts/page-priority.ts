// PAGE_PRIORITY for scripts/lighthouse.ts: the measured page's renderer held ahead of everything else on this machine,
// so that its tasks run when they are ready instead of queueing for one of the 2 cores behind the browser's threads
// (docs/performance.md: 60 % of a long task's length here was the page's thread preempted while runnable).
// `main`: each renderer's main thread at nice -20. `renderer`: the main thread at -20 and the renderer's other threads
// (the V8 compile and GC helpers and the IO thread that the main thread waits on) at -10, ahead of the browser's but
// behind the main thread. Chromium moves its threads' nice values itself (between 5, 0 and -8 as a page loads), so
// the values are applied again every 2 ms. Needs root.
import { readdirSync, readFileSync } from 'node:fs'
import { setPriority } from 'node:os'

export type PagePriority = 'main' | 'renderer'
export const pagePriorityMode = (value: string | undefined): PagePriority | null =>
  value === 'main' || value === 'renderer' ? value : null

const MAIN_NICE = -20
const HELPER_NICE = -10

export type ProcessKind = 'renderer' | 'unnamed' | 'other'
// What a process's /proc/<pid>/cmdline says it is. A renderer is forked from Chromium's zygote and renames itself a
// moment later (one string, its arguments joined by spaces): until then its command line is the zygote's (or empty),
// so it is looked at again.
export function processKind(cmdline: string): ProcessKind {
  const args = cmdline.split(/[\0 ]/).filter(Boolean)
  if (args.length === 0 || args.includes('--type=zygote')) return 'unnamed'
  if (!/chrom(e|ium)$/.test(args[0]!) || !args.includes('--type=renderer') || args.includes('--extension-process')) return 'other'
  return 'renderer'
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'latin1')
  } catch {
    return null
  }
}

// Chromium's renderers among the processes of `proc` not yet in `looked` (which it adds them to, but for the ones not
// yet named).
export function newRenderers(proc: string, looked: Set<string>): string[] {
  const found: string[] = []
  for (const pid of readdirSync(proc)) {
    if (!/^\d+$/.test(pid) || looked.has(pid)) continue
    const cmdline = read(`${proc}/${pid}/cmdline`)
    const kind = cmdline === null ? 'other' : processKind(cmdline)
    if (kind === 'unnamed') continue
    looked.add(pid)
    if (kind === 'renderer') found.push(pid)
  }
  return found
}

// the nice value each held thread of a renderer is held at; throws once the process has ended
export function rendererThreads(mode: PagePriority, proc: string, pid: string): Array<[tid: number, nice: number]> {
  return readdirSync(`${proc}/${pid}/task`)
    .filter((tid) => mode === 'renderer' || tid === pid)
    .map((tid) => [Number(tid), tid === pid ? MAIN_NICE : HELPER_NICE])
}

export function holdPagePriority(mode: PagePriority, proc = '/proc'): { stop: () => number } {
  if (process.getuid?.() !== 0) throw new Error(`PAGE_PRIORITY needs root (nice ${MAIN_NICE} for the page's renderer)`)
  const looked = new Set<string>()
  const renderers = new Set<string>()
  const threads = new Map<number, number>()
  let held = 0
  let failure: Error | null = null
  const scan = () => {
    for (const pid of newRenderers(proc, looked)) {
      renderers.add(pid)
      held++
    }
    for (const pid of renderers) {
      try {
        for (const [tid, nice] of rendererThreads(mode, proc, pid)) threads.set(tid, nice)
      } catch {
        renderers.delete(pid) // the process ended
      }
    }
  }
  const hold = () => {
    for (const [tid, nice] of threads) {
      try {
        setPriority(tid, nice)
      } catch (error) {
        if ((error as { info?: { code?: string } }).info?.code === 'ESRCH') threads.delete(tid) // the thread ended
        else failure ??= error as Error
      }
    }
  }
  let tick = 0
  const timer = setInterval(() => {
    if (tick++ % 10 === 0) scan()
    hold()
  }, 2)
  timer.unref() // a script that fails midway still ends
  return {
    // how many renderers were held; throws what stopped a thread's priority from being set
    stop: () => {
      clearInterval(timer)
      if (failure) throw failure
      return held
    },
  }
}
