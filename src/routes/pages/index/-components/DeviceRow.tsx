// One cloud phone of the home list: preview, name, tier, remaining time and authorisation marker.
import { memo } from 'react'
import type { Device } from '../../../../../worker/protocol/devices.ts'
import {
  authMarker, authMarkerText, previewSrc, remainingText, remainingTone,
} from '../../../../features/devices/display.ts'
import { zhCN } from '../../../../i18n/zh-CN.ts'

export const DeviceRow = memo(function DeviceRow({ device, onOpen }: { device: Device; onOpen: (userCardId: number) => void }) {
  const marker = authMarker(device)
  const tone = remainingTone(device.validTime)
  return (
    <li
      className="device-row"
      data-testid="device-item"
      data-user-card-id={device.userCardId}
      role="button"
      tabIndex={0}
      onClick={() => onOpen(device.userCardId)}
      onKeyDown={(e) => e.key === 'Enter' && onOpen(device.userCardId)}
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
        </div>
        <div className="device-meta">
          <span className={`device-remaining device-remaining-${tone}`} data-testid="device-remaining" data-tone={tone}>
            {remainingText(device.validTime)}
          </span>
          {marker && (
            <span className={`device-auth device-auth-${marker}`} data-testid="device-auth">
              {authMarkerText(marker)}
            </span>
          )}
        </div>
        <div className="device-sub">
          {device.phoneType} · Android {device.androidVersion}
        </div>
      </div>
      <span className="device-arrow" aria-hidden>›</span>
    </li>
  )
})
