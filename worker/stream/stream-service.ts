// The StreamHub as a core service: its socket is the browser's WebSocket (a fake in tests), and it follows the tab
// registry: a tab's visibility decides whether its phones stream to it, a released tab's viewers go.
import * as Context from 'effect/Context'
import * as Effect from 'effect/Effect'
import * as Layer from 'effect/Layer'
import { CoreConfig } from '../config/core-config.ts'
import { joinApiPath } from '../http/request.ts'
import { STREAM_PATH } from '../protocol/stream.ts'
import { TabRegistry } from '../tabs/tab-registry.ts'
import { browserTimers, makeStreamHub, openBrowserStreamSocket, type OpenStreamSocket, type StreamHub as StreamHubShape, type StreamTimers } from './stream-hub.ts'

export const streamUrl = (apiBaseUrl: string): string => {
  const url = new URL(joinApiPath(apiBaseUrl, STREAM_PATH))
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  return url.toString()
}

export class StreamHub extends Context.Service<StreamHub, StreamHubShape>()('cloud-phone/StreamHub') {
  static readonly layerWith = (openSocket: OpenStreamSocket, timers: StreamTimers) =>
    Layer.effect(
      StreamHub,
      Effect.gen(function* () {
        const config = yield* CoreConfig
        const tabs = yield* TabRegistry
        const hub = makeStreamHub({
          url: streamUrl(config.apiBaseUrl), openSocket, timers,
          isVisible: (tabId) => tabs.get(tabId)?.visible ?? false,
        })
        const seen = new Map<string, boolean>()
        tabs.subscribe(() => {
          for (const tab of tabs.list()) {
            if (seen.get(tab.tabId) === tab.visible) continue
            seen.set(tab.tabId, tab.visible)
            hub.setVisible(tab.tabId, tab.visible)
          }
        })
        tabs.onRelease((tabId) => {
          seen.delete(tabId)
          hub.releaseTab(tabId)
        })
        yield* Effect.addFinalizer(() => Effect.sync(() => hub.dispose()))
        return hub
      }),
    )
  static readonly layer = StreamHub.layerWith(openBrowserStreamSocket, browserTimers)
}
