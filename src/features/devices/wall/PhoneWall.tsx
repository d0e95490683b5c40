// The home's 宫格 view: every phone as a live thumbnail tile (2, 3 or 4 columns) with its name, remaining time, tier
// and status. Tiles on screen (IntersectionObserver) are what this tab asks the core for; a tile whose phone is
// expired, restarting or unreachable shows that instead of a picture. Tap opens the viewer; a long press selects.
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import type { Device } from '../../../../worker/protocol/devices.ts'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { useOnline } from '../../../ui/use-online.ts'
import { isExpired, remainingText, remainingTone } from '../display.ts'
import { createWallClient, type TileState, type WallClient } from './wall-client.ts'
import './wall.css'

const t = zhCN.home.wall
const LONG_PRESS_MS = 500
/** tiles entering or leaving the screen within this are reported to the core together. */
const SHOW_DEBOUNCE_MS = 120

export type WallColumns = 2 | 3 | 4

export interface PhoneWallProps {
  readonly devices: ReadonlyArray<Device>
  readonly columns: WallColumns
  readonly currentKey: string | null
  readonly onOpen: (device: Device) => void
  readonly selected: ReadonlySet<number>
  readonly onToggleSelect: (userCardId: number) => void
}

/** what a tile says instead of (or while waiting for) a picture; null shows the picture. */
const tileStatus = (device: Device, tile: TileState, online: boolean): { key: string; text: string } | null => {
  if (!online) return { key: 'offline', text: t.offline }
  if (isExpired(device.validTime) || tile.ended === 'expired') return { key: 'expired', text: t.expired }
  if (tile.ended === 'restarting') return { key: 'restarting', text: t.restarting }
  if (tile.ended !== null) return { key: tile.ended, text: t[tile.ended === 'flood' || tile.ended === 'badInput' || tile.ended === 'busy' ? 'unavailable' : tile.ended] }
  if (tile.starting) return { key: 'starting', text: t.starting }
  if (tile.url === null) return { key: 'loading', text: t.loading }
  return null
}

const useTile = (client: WallClient, cardId: number): TileState =>
  useSyncExternalStore((l) => client.onTile(cardId, l), () => client.tile(cardId))

interface TileProps {
  readonly client: WallClient
  readonly device: Device
  readonly current: boolean
  readonly selected: boolean
  readonly selecting: boolean
  readonly online: boolean
  readonly onOpen: (device: Device) => void
  readonly onToggleSelect: (userCardId: number) => void
}

const Tile = memo(function Tile({ client, device, current, selected, selecting, online, onOpen, onToggleSelect }: TileProps) {
  const tile = useTile(client, device.userCardId)
  const status = tileStatus(device, tile, online)
  const press = useRef<{ timer: ReturnType<typeof setTimeout> | null; x: number; y: number; fired: boolean }>({ timer: null, x: 0, y: 0, fired: false })
  const cancelPress = () => {
    if (press.current.timer !== null) clearTimeout(press.current.timer)
    press.current.timer = null
  }
  const tone = remainingTone(device.validTime)
  const classes = ['wall-tile', selected && 'wall-tile-selected', current && 'wall-tile-current'].filter(Boolean).join(' ')
  return (
    <li
      className={classes}
      data-testid="wall-tile"
      data-user-card-id={device.userCardId}
      data-painted={status === null}
      data-state={status?.key ?? 'live'}
      data-selected={selected}
    >
      <div
        className="wall-tile-body"
        role="button"
        tabIndex={0}
        aria-label={t.tileLabel(device.diskName)}
        aria-pressed={selecting ? selected : undefined}
        onPointerDown={(e) => {
          cancelPress()
          press.current = {
            x: e.clientX, y: e.clientY, fired: false,
            timer: setTimeout(() => {
              press.current.timer = null
              press.current.fired = true
              onToggleSelect(device.userCardId)
            }, LONG_PRESS_MS),
          }
        }}
        onPointerMove={(e) => {
          if (Math.abs(e.clientX - press.current.x) > 10 || Math.abs(e.clientY - press.current.y) > 10) cancelPress()
        }}
        onPointerUp={cancelPress}
        onPointerCancel={cancelPress}
        onPointerLeave={cancelPress}
        onContextMenu={(e) => e.preventDefault()}
        onClick={() => {
          if (press.current.fired) {
            press.current.fired = false
            return
          }
          if (selecting) onToggleSelect(device.userCardId)
          else onOpen(device)
        }}
        onKeyDown={(e) => e.key === 'Enter' && onOpen(device)}
      >
        <div className="wall-screen">
          {status === null ? (
            <img className="wall-still" src={tile.url!} alt="" draggable={false} data-testid="wall-still" data-drawn-at={tile.drawnAt ?? undefined} />
          ) : (
            <span className={`wall-status wall-status-${status.key}`} data-testid="wall-status">{status.text}</span>
          )}
          {selecting && <span className={selected ? 'wall-check wall-check-on' : 'wall-check'} aria-hidden>{selected ? '✓' : ''}</span>}
        </div>
        <div className="wall-caption">
          <span className="wall-name" data-testid="wall-name">
            <i className={status === null ? 'wall-dot wall-dot-live' : 'wall-dot'} aria-label={status === null ? t.live : status.text} />
            {device.diskName}
          </span>
          <span className="wall-meta">
            <span className={`device-tier device-tier-${device.buyVipType.toLowerCase()} wall-tier`} data-testid="wall-tier">{device.buyVipType}</span>
            <span className={`wall-remaining device-remaining-${tone}`} data-tone={tone}>{remainingText(device.validTime)}</span>
          </span>
        </div>
      </div>
    </li>
  )
})

export const PhoneWall = ({ devices, columns, currentKey, onOpen, selected, onToggleSelect }: PhoneWallProps) => {
  const core = useCore()
  const online = useOnline()
  const [client] = useState(() => createWallClient(core))
  useEffect(() => () => client.close(), [client])
  const listRef = useRef<HTMLUListElement>(null)

  // the tiles on screen (a little margin so a scroll finds the next row's still ready), told to the core together
  const usable = useMemo(() => new Set(devices.filter((d) => !isExpired(d.validTime)).map((d) => d.userCardId)), [devices])
  useEffect(() => {
    const list = listRef.current
    if (!list) return
    const onScreen = new Set<number>()
    let timer: ReturnType<typeof setTimeout> | null = null
    let reported = false
    const report = () => {
      timer = null
      reported = true
      client.show([...onScreen].filter((id) => usable.has(id)))
    }
    const observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        const id = Number((e.target as HTMLElement).dataset.userCardId)
        if (e.isIntersecting) onScreen.add(id)
        else onScreen.delete(id)
      }
      // the first answer (the tiles a new wall shows) goes at once: the core paints them from its cache; a scroll's
      // changes are gathered
      if (!reported) report()
      else if (timer === null) timer = setTimeout(report, SHOW_DEBOUNCE_MS)
    }, { rootMargin: '100px 0px' })
    list.querySelectorAll('[data-testid="wall-tile"]').forEach((el) => observer.observe(el))
    return () => {
      observer.disconnect()
      if (timer !== null) clearTimeout(timer)
      client.show([])
    }
  }, [client, devices, usable])

  return (
    <ul ref={listRef} className={`phone-wall phone-wall-${columns}`} data-testid="phone-wall" data-columns={columns}>
      {devices.map((device) => (
        <Tile
          key={device.userCardId}
          client={client}
          device={device}
          current={String(device.userCardId) === currentKey}
          selected={selected.has(device.userCardId)}
          selecting={selected.size > 0}
          online={online}
          onOpen={onOpen}
          onToggleSelect={onToggleSelect}
        />
      ))}
    </ul>
  )
}
