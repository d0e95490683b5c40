// This tab's side of the home's wall: one port to the core (worker/protocol/stream-ports.ts TabToWall / WallToTab) for
// every tile. The tab tells the core which cards' tiles are on screen; the core answers each card's latest still (at once
// from its cache when it has one) or why there is none, and asks for a card token when it has none, which this tab gets
// with a connect. Each tile reads its own card's state (an object URL of the JPEG), so a still re-renders one tile only.
import { transfer } from 'comlink'
import type { StreamCloseReason } from '../../../../worker/protocol/stream.ts'
import { stillTime, THUMBNAIL } from '../../../../worker/protocol/stream.ts'
import type { TabToWall, WallToTab } from '../../../../worker/protocol/stream-ports.ts'
import type { CoreClient } from '../../../core/types.ts'
import { isStarting } from '../connect-retry.ts'

export interface TileState {
  /** an object URL of the latest still (null: none yet, or it ended). */
  readonly url: string | null
  /** when the core got that still (its clock), 0 without one. */
  readonly at: number
  /** when the server drew that still (its clock; withStillTime), null without one or when it does not say. */
  readonly drawnAt: number | null
  readonly ended: StreamCloseReason | null
  /** the phone is starting (connect answered 5200): its token comes later. */
  readonly starting: boolean
}

const EMPTY: TileState = { url: null, at: 0, drawnAt: null, ended: null, starting: false }
/** connects in flight at once for tokens (60 tiles do not fire 60 requests together). */
const TOKEN_CONCURRENCY = 4
const TOKEN_RETRY_MS = 3_000

export interface WallClient {
  /** the cards whose tiles are on screen in this tab now. */
  show(cards: ReadonlyArray<number>): void
  tile(cardId: number): TileState
  onTile(cardId: number, listener: () => void): () => void
  close(): void
}

export const createWallClient = (core: CoreClient): WallClient => {
  const tiles = new Map<number, TileState>()
  const listeners = new Map<number, Set<() => void>>()
  let port: MessagePort | null = null
  let wallId: number | null = null
  let shown: ReadonlyArray<number> = []
  let closed = false
  const queue: number[] = []
  let inFlight = 0

  const set = (cardId: number, next: TileState) => {
    const before = tiles.get(cardId)
    if (before?.url && before.url !== next.url) URL.revokeObjectURL(before.url)
    tiles.set(cardId, next)
    listeners.get(cardId)?.forEach((l) => l())
  }
  const send = (message: TabToWall) => port?.postMessage(message)

  const pump = () => {
    while (inFlight < TOKEN_CONCURRENCY && queue.length > 0) {
      const cardId = queue.shift()!
      inFlight += 1
      void core.api.call('connect', { userCardId: cardId }).then(
        (r) => {
          inFlight -= 1
          if (closed) return
          const data: unknown = r.ok ? r.data : null
          if (r.ok && isStarting(data)) {
            set(cardId, { ...(tiles.get(cardId) ?? EMPTY), starting: true })
            setTimeout(() => need(cardId), TOKEN_RETRY_MS)
          } else if (r.ok && typeof data === 'object' && data !== null && typeof (data as { cardToken?: unknown }).cardToken === 'string') {
            set(cardId, { ...(tiles.get(cardId) ?? EMPTY), starting: false })
            send({ t: 'token', cardId, cardToken: (data as { cardToken: string }).cardToken })
          } else {
            // refused (expired, no access): the tile shows it from the device list; nothing is streamed
            set(cardId, { ...(tiles.get(cardId) ?? EMPTY), ended: 'refused', starting: false })
          }
          pump()
        },
        () => {
          inFlight -= 1
          pump()
        },
      )
    }
  }
  const need = (cardId: number) => {
    if (closed || queue.includes(cardId)) return
    queue.push(cardId)
    pump()
  }

  const onCore = (m: WallToTab) => {
    if (m.t === 'still') {
      if (performance.getEntriesByName('wall:first-still').length === 0) performance.mark('wall:first-still')
      const url = URL.createObjectURL(new Blob([m.bytes as Uint8Array<ArrayBuffer>], { type: THUMBNAIL.mime }))
      set(m.cardId, { url, at: m.at, drawnAt: stillTime(m.bytes), ended: null, starting: false })
    } else if (m.t === 'ended') {
      set(m.cardId, { url: null, at: 0, drawnAt: null, ended: m.reason, starting: false })
    } else if (m.t === 'needToken') {
      need(m.cardId)
    }
  }

  /** a new port to the core (at first, and after the core was replaced), told what is on screen. */
  const attach = () => {
    if (closed) return
    port?.close()
    const channel = new MessageChannel()
    port = channel.port1
    port.onmessage = (e: MessageEvent<WallToTab>) => onCore(e.data)
    send({ t: 'want', cards: shown })
    void core.api.openWall(transfer(channel.port2, [channel.port2])).then((id) => {
      wallId = typeof id === 'number' ? id : null
    })
  }
  const offReattach = core.onReattach(attach)
  attach()

  return {
    show(cards) {
      if (cards.length > 0 && performance.getEntriesByName('wall:first-want').length === 0) performance.mark('wall:first-want')
      shown = cards
      send({ t: 'want', cards })
    },
    tile: (cardId) => tiles.get(cardId) ?? EMPTY,
    onTile(cardId, listener) {
      const set = listeners.get(cardId) ?? new Set()
      listeners.set(cardId, set)
      set.add(listener)
      return () => void set.delete(listener)
    },
    close() {
      closed = true
      offReattach()
      send({ t: 'want', cards: [] })
      if (wallId !== null) void core.api.closeWall(wallId)
      port?.close()
      port = null
      for (const t of tiles.values()) if (t.url) URL.revokeObjectURL(t.url)
      tiles.clear()
    },
  }
}
