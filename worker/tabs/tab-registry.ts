// The connected tabs as the core's rules see them: route, visibility, channelCode; closed tabs are released through
// Web Locks (tab-locks.ts). Event delivery to them is the EventHub's (worker/delivery/fanout.ts).
import * as Context from 'effect/Context'
import * as Layer from 'effect/Layer'
import type { TabHello, TabRoute } from '../protocol/commands.ts'
import type { WatchTabGone } from './tab-port.ts'
import { watchTabGoneWithLocks } from './tab-locks.ts'

export interface TabInfo {
  readonly tabId: string
  readonly channelCode: string | null
  readonly route: TabRoute
  readonly visible: boolean
}

interface TabEntry extends TabInfo {
  route: TabRoute
  visible: boolean
  cancelWatch: () => void
}

export interface TabRegistryShape {
  readonly attach: (hello: TabHello) => void
  readonly release: (tabId: string) => void
  readonly get: (tabId: string) => TabInfo | undefined
  readonly list: () => ReadonlyArray<TabInfo>
  readonly anyVisible: () => boolean
  readonly setRoute: (tabId: string, route: TabRoute) => void
  readonly setVisible: (tabId: string, visible: boolean) => void
  /** called on attach, release and visibility changes (the push connection follows visibility). */
  readonly subscribe: (listener: () => void) => () => void
  /** called with the id of a tab that closed or detached. */
  readonly onRelease: (listener: (tabId: string) => void) => () => void
}

export const makeTabRegistry = (watchGone: WatchTabGone): TabRegistryShape => {
  const tabs = new Map<string, TabEntry>()
  const listeners = new Set<() => void>()
  const releaseListeners = new Set<(tabId: string) => void>()
  const notify = () => listeners.forEach((l) => l())

  const release = (tabId: string) => {
    const tab = tabs.get(tabId)
    if (tab === undefined) return
    tabs.delete(tabId)
    tab.cancelWatch()
    releaseListeners.forEach((l) => l(tabId))
    notify()
  }

  const info = (t: TabEntry): TabInfo => ({ tabId: t.tabId, channelCode: t.channelCode, route: t.route, visible: t.visible })

  return {
    attach: (hello) => {
      tabs.get(hello.tabId)?.cancelWatch()
      const tab: TabEntry = {
        tabId: hello.tabId, channelCode: hello.channelCode, route: hello.route, visible: hello.visible, cancelWatch: () => {},
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
    subscribe: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    onRelease: (listener) => {
      releaseListeners.add(listener)
      return () => void releaseListeners.delete(listener)
    },
  }
}

export class TabRegistry extends Context.Service<TabRegistry, TabRegistryShape>()('cloud-phone/TabRegistry') {
  static readonly layerWith = (watchGone: WatchTabGone) => Layer.sync(TabRegistry, () => makeTabRegistry(watchGone))
  static readonly layer = TabRegistry.layerWith(watchTabGoneWithLocks)
}
