// The connected tabs: port, route, visibility, channelCode, and a bounded outgoing queue per tab so a frozen tab
// (one that stops acknowledging batches) cannot stall the others; on overflow it is dropped and told to resync.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import type { TabHello, TabRoute, PortDownMessage } from '../protocol/commands.ts'
import type { Delivered } from '../protocol/events.ts'
import type { TabPort, WatchTabGone } from './tab-port.ts'
import { watchTabGoneWithLocks } from './tab-locks.ts'

export interface TabInfo {
  readonly tabId: string
  readonly channelCode: string | null
  readonly route: TabRoute
  readonly visible: boolean
}

interface TabEntry extends TabInfo {
  port: TabPort
  route: TabRoute
  visible: boolean
  queue: Array<Delivered>
  posted: number
  acked: number
  needsResync: boolean
  flushScheduled: boolean
  cancelWatch: () => void
}

export interface TabRegistryShape {
  readonly attach: (hello: TabHello, port: TabPort) => void
  readonly release: (tabId: string) => void
  readonly get: (tabId: string) => TabInfo | undefined
  readonly list: () => ReadonlyArray<TabInfo>
  readonly anyVisible: () => boolean
  readonly setRoute: (tabId: string, route: TabRoute) => void
  readonly setVisible: (tabId: string, visible: boolean) => void
  /** queues for one tab, or every tab with 'all'. */
  readonly send: (to: string | 'all', delivered: Delivered) => void
  /** the tab caught up through `resync`: stop dropping its events. */
  readonly markResynced: (tabId: string) => void
  /** called on attach, release and visibility changes (the push connection follows visibility). */
  readonly subscribe: (listener: () => void) => () => void
}

export interface TabLimits {
  readonly queueLimit: number
  readonly inflightLimit: number
}

export const makeTabRegistry = (limits: TabLimits, watchGone: WatchTabGone): TabRegistryShape => {
  const tabs = new Map<string, TabEntry>()
  const listeners = new Set<() => void>()
  const notify = () => listeners.forEach((l) => l())

  const post = (tab: TabEntry, message: PortDownMessage) => {
    try {
      tab.port.postMessage(message)
    } catch {
      // a port that cannot take messages any more belongs to a tab that is going away; its lock will release it.
    }
  }

  const flush = (tab: TabEntry) => {
    tab.flushScheduled = false
    if (tabs.get(tab.tabId) !== tab || tab.needsResync || tab.queue.length === 0) return
    if (tab.posted - tab.acked >= limits.inflightLimit) return
    const batch = tab.queue
    tab.queue = []
    tab.posted += 1
    post(tab, batch)
  }

  const enqueue = (tab: TabEntry, delivered: Delivered) => {
    if (tab.needsResync) return
    tab.queue.push(delivered)
    if (tab.queue.length > limits.queueLimit) {
      tab.queue = []
      tab.needsResync = true
      post(tab, { resyncNeeded: true })
      return
    }
    if (!tab.flushScheduled) {
      tab.flushScheduled = true
      queueMicrotask(() => flush(tab))
    }
  }

  const release = (tabId: string) => {
    const tab = tabs.get(tabId)
    if (tab === undefined) return
    tabs.delete(tabId)
    tab.cancelWatch()
    tab.port.onmessage = null
    try {
      tab.port.close()
    } catch {
      // already closed
    }
    notify()
  }

  const info = (t: TabEntry): TabInfo => ({ tabId: t.tabId, channelCode: t.channelCode, route: t.route, visible: t.visible })

  return {
    attach: (hello, port) => {
      const previous = tabs.get(hello.tabId)
      if (previous !== undefined) {
        previous.cancelWatch()
        previous.port.onmessage = null
      }
      const tab: TabEntry = {
        tabId: hello.tabId, channelCode: hello.channelCode, route: hello.route, visible: hello.visible, port,
        queue: [], posted: 0, acked: 0, needsResync: false, flushScheduled: false, cancelWatch: () => {},
      }
      port.onmessage = (ev) => {
        const ack = (ev.data as { ack?: unknown } | null)?.ack
        if (typeof ack === 'number' && ack > tab.acked) {
          tab.acked = ack
          flush(tab)
        }
      }
      tabs.set(hello.tabId, tab)
      tab.cancelWatch = watchGone(hello.tabId, () => release(hello.tabId))
      notify()
    },
    release,
    get: (tabId) => {
      const t = tabs.get(tabId)
      return t === undefined ? undefined : info(t)
    },
    list: () => [...tabs.values()].map(info),
    anyVisible: () => [...tabs.values()].some((t) => t.visible),
    setRoute: (tabId, route) => {
      const t = tabs.get(tabId)
      if (t !== undefined) t.route = route
    },
    setVisible: (tabId, visible) => {
      const t = tabs.get(tabId)
      if (t === undefined || t.visible === visible) return
      t.visible = visible
      notify()
    },
    send: (to, delivered) => {
      if (to === 'all') tabs.forEach((t) => enqueue(t, delivered))
      else {
        const t = tabs.get(to)
        if (t !== undefined) enqueue(t, delivered)
      }
    },
    markResynced: (tabId) => {
      const t = tabs.get(tabId)
      if (t === undefined) return
      t.needsResync = false
      t.queue = []
      t.acked = t.posted
    },
    subscribe: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}

export class TabRegistry extends Context.Service<TabRegistry, TabRegistryShape>()('cloud-phone/TabRegistry') {
  static readonly layerWith = (watchGone: WatchTabGone) =>
    Layer.effect(
      TabRegistry,
      Effect.gen(function* () {
        const c = yield* CoreConfig
        return makeTabRegistry({ queueLimit: c.tabQueueLimit, inflightLimit: c.tabInflightLimit }, watchGone)
      }),
    )
  static readonly layer = TabRegistry.layerWith(watchTabGoneWithLocks)
}
