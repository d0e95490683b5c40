// One cloud phone of the home list: preview, name, tier, remaining time, authorisation marker, readable phone type and
// the card's actions. Memoised and lazy so a 60-device list stays cheap; the selected (current) device is highlighted.
import { memo } from 'react'
import type { Device } from '../../../../../worker/protocol/devices.ts'
import { DeviceActions } from '../../../../features/devices/DeviceActions.tsx'
import {
  authMarker, authMarkerText, previewSrc, remainingText, remainingTone,
} from '../../../../features/devices/display.ts'
import { zhCN } from '../../../../i18n/zh-CN.ts'

export interface DeviceRowProps {
  readonly device: Device
  /** phoneTypeName of the device's phone type (the code when unknown). */
  readonly typeName: string
  readonly selected: boolean
  readonly onOpen: (device: Device) => void
  /** Opens the list's "more" sheet for this card. */
  readonly onMore: (device: Device) => void
}

/** A refresh hands every row a new device object; only a changed field re-renders the row. */
const sameDevice = (a: Device, b: Device): boolean =>
  a === b || (Object.keys(a) as Array<keyof Device>).every((k) => a[k] === b[k])

const sameProps = (a: DeviceRowProps, b: DeviceRowProps): boolean =>
  a.typeName === b.typeName && a.selected === b.selected && a.onOpen === b.onOpen && a.onMore === b.onMore && sameDevice(a.device, b.device)

export const DeviceRow = memo(function DeviceRow({ device, typeName, selected, onOpen, onMore }: DeviceRowProps) {
  const marker = authMarker(device)
  const tone = remainingTone(device.validTime)
  return (
    <li
      className={selected ? 'device-row device-row-selected' : 'device-row'}
      data-testid="device-item"
      data-user-card-id={device.userCardId}
      data-selected={selected}
      aria-current={selected || undefined}
    >
      <div
        className="device-main"
        role="button"
        tabIndex={0}
        onClick={() => onOpen(device)}
        onKeyDown={(e) => e.key === 'Enter' && onOpen(device)}
      >
        <img
          className="device-preview"
          src={previewSrc(device.previewUrl)}
          alt={zhCN.home.previewAlt(device.diskName)}
          width={60}
          height={108}
          loading="lazy"
          decoding="async"
        />
        <div className="device-info">
          <div className="device-title">
            <span className="device-name" data-testid="device-name">{device.diskName}</span>
            <span className={`device-tier device-tier-${device.buyVipType.toLowerCase()}`} data-testid="device-tier">
              {device.buyVipType}
            </span>
            {selected && <span className="device-current">{zhCN.home.current}</span>}
          </div>
          <div className="device-meta">
            <span className={`device-remaining device-remaining-${tone}`} data-testid="device-remaining" data-tone={tone}>
              {remainingText(device.validTime)}
            </span>
            {marker && (
              <span className={`device-auth device-auth-${marker}`} data-testid="device-auth" data-marker={marker}>
                {authMarkerText(marker)}
              </span>
            )}
          </div>
          <div className="device-sub" data-testid="device-type">
            {typeName} · Android {device.androidVersion}
          </div>
        </div>
        <span className="device-arrow" aria-hidden>›</span>
      </div>
      <DeviceActions device={device} onMore={onMore} />
    </li>
  )
}, sameProps)
