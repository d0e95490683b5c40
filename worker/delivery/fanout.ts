// Delivery of the core's events to its tabs, platform-neutral (ports and scheduling are injected so a model test can
// drive every interleaving). The worker holds one state and a bounded in-memory log; each tab has a cursor (the last
// seq posted to it) and at most `window` unacknowledged batches. A batch carries everything from the cursor to the head
// at the moment it is posted, so a slow tab gets fewer, larger batches instead of a growing queue, and a tab whose
// cursor fell off the log (frozen, or far behind) gets a snapshot and goes on from there. Nothing is ever queued per
// state event per tab, so a flood costs O(1) per event whatever the number of tabs. Only the batch that fills a tab's
// window asks for an ack: a message back per batch would double the messages the worker handles.
import type { DownBatch, Snapshot, UpMessage } from '../protocol/commands.ts'
import type { Delivered, EffectEvent, StateEvent } from '../protocol/events.ts'
import { reduce } from '../protocol/projection/index.ts'

export interface FanoutPort {
  post(batch: DownBatch): void
  close(): void
}

export interface FanoutOptions {
  readonly generation: string
  /** how many state events the in-memory log keeps for tabs that are behind. */
  readonly logLimit: number
  /** unacknowledged batches per tab before the core waits for that tab. */
  readonly window: number
  /** effect events kept for a tab that does not take batches; older ones are dropped (a stale toast helps nobody). */
  readonly effectLimit: number
  /** runs `flush` soon (a microtask in the worker; the model test decides when). */
  readonly schedule: (flush: () => void) => void
}

export interface LoggedEntry {
  readonly seq: number
  readonly event: StateEvent
}

interface PendingEffect {
  /** the head seq when it was emitted: it is delivered after that state event. */
  readonly after: number
  readonly event: EffectEvent
}

interface TabCursor {
  readonly port: FanoutPort
  /** last seq posted to this tab (the tab applies exactly up to it once it has the batches in flight). */
  sent: number
  needsSnapshot: boolean
  /** number of the last batch posted, and of the last one the tab acknowledged. */
  posted: number
  acked: number
  effects: Array<PendingEffect>
}

export interface Fanout {
  /** folds a state event into the state, logs it and schedules delivery; returns its seq. */
  readonly publish: (event: StateEvent) => number
  /** a transient event for one tab, or every tab. */
  readonly emit: (event: EffectEvent, to: string | 'all') => void
  /** a tab holding `seq` of `generation` (null: nothing) starts receiving from there. */
  readonly attach: (tabId: string, port: FanoutPort, holds: { readonly generation: string | null; readonly seq: number }) => void
  readonly detach: (tabId: string) => void
  /** a message the tab posted on its port. */
  readonly receive: (tabId: string, message: UpMessage) => void
  readonly state: () => Snapshot
  /** the log with the state before its first entry (for an export: base + events folded = state). */
  readonly history: () => { readonly base: Snapshot; readonly events: ReadonlyArray<LoggedEntry> }
  /** posts to every tab that has something and room in its window (scheduled by publish/emit/ack). */
  readonly flush: () => void
  readonly tabIds: () => ReadonlyArray<string>
}

export const makeFanout = (initial: Snapshot, options: FanoutOptions): Fanout => {
  let state = initial
  let log: Array<LoggedEntry> = []
  // states are immutable, so keeping them costs nothing: `base` is the state before log[0], `middle` the state after
  // log[logLimit - 1], which becomes the base when the log is trimmed to its newer half
  let base = initial
  let middle: Snapshot | null = null
  const tabs = new Map<string, TabCursor>()
  let scheduled = false

  const firstLogged = () => (log.length === 0 ? state.seq + 1 : log[0].seq)

  const request = () => {
    if (scheduled) return
    scheduled = true
    options.schedule(flush)
  }

  const flushTab = (tab: TabCursor) => {
    if (tab.posted - tab.acked >= options.window) return
    const head = state.seq
    if (!tab.needsSnapshot && tab.sent === head && tab.effects.length === 0) return
    // a cursor the log no longer reaches: the tab jumps to the state as it is now
    const snapshot = tab.needsSnapshot || tab.sent + 1 < firstLogged() ? state : null
    const items: Array<Delivered> = []
    let effectIndex = 0
    if (snapshot === null) {
      const start = tab.sent + 1 - firstLogged()
      for (let i = start; i < log.length; i++) {
        const entry = log[i]
        while (effectIndex < tab.effects.length && tab.effects[effectIndex].after < entry.seq) {
          items.push({ seq: null, event: tab.effects[effectIndex++].event })
        }
        items.push(entry)
      }
    }
    for (; effectIndex < tab.effects.length; effectIndex++) items.push({ seq: null, event: tab.effects[effectIndex].event })
    tab.effects = []
    tab.needsSnapshot = false
    tab.sent = head
    tab.posted += 1
    try {
      tab.port.post({ n: tab.posted, ack: tab.posted - tab.acked >= options.window, generation: options.generation, snapshot, items })
    } catch {
      // a port that cannot take messages belongs to a tab that is going away; its lock releases it
    }
  }

  function flush() {
    scheduled = false
    tabs.forEach(flushTab)
  }

  const queueEffect = (tab: TabCursor, event: EffectEvent) => {
    tab.effects.push({ after: state.seq, event })
    if (tab.effects.length > options.effectLimit) tab.effects.shift()
  }

  return {
    publish: (event) => {
      const seq = state.seq + 1
      state = reduce(state, event, seq)
      log.push({ seq, event })
      if (log.length === options.logLimit) middle = state
      // trimmed in halves so that a flood costs O(1) per event; a cursor older than the log gets a snapshot
      if (log.length === options.logLimit * 2) {
        log = log.slice(options.logLimit)
        base = middle!
        middle = state
      }
      if (tabs.size > 0) request()
      return seq
    },
    emit: (event, to) => {
      if (to === 'all') tabs.forEach((t) => queueEffect(t, event))
      else {
        const tab = tabs.get(to)
        if (tab === undefined) return
        queueEffect(tab, event)
      }
      request()
    },
    attach: (tabId, port, holds) => {
      const previous = tabs.get(tabId)
      if (previous !== undefined && previous.port !== port) closeQuietly(previous.port)
      const resumable = holds.generation === options.generation && holds.seq <= state.seq && holds.seq + 1 >= firstLogged()
      tabs.set(tabId, {
        port, sent: resumable ? holds.seq : state.seq, needsSnapshot: !resumable, posted: 0, acked: 0, effects: [],
      })
      request()
    },
    detach: (tabId) => {
      const tab = tabs.get(tabId)
      if (tab === undefined) return
      tabs.delete(tabId)
      closeQuietly(tab.port)
    },
    receive: (tabId, message) => {
      const tab = tabs.get(tabId)
      if (tab === undefined) return
      const full = tab.posted - tab.acked >= options.window
      if ('resync' in message) tab.needsSnapshot = true
      else if (message.ack > tab.acked && message.ack <= tab.posted) tab.acked = message.ack
      if ('resync' in message || (full && (tab.sent < state.seq || tab.effects.length > 0))) request()
    },
    state: () => state,
    history: () => ({ base, events: log }),
    flush,
    tabIds: () => [...tabs.keys()],
  }
}

const closeQuietly = (port: FanoutPort) => {
  try {
    port.close()
  } catch {
    // already closed
  }
}
