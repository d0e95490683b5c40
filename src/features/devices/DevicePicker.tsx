// A checkable list of my devices; devices that cannot take the operation are shown disabled with the reason.
import { Checkbox, List } from 'antd-mobile'
import type { Device } from '../../../worker/protocol/devices.ts'
import { authMarker, authMarkerText, remainingText } from './display.ts'
import { devicesZhCN as t } from '../../i18n/zh-CN.devices.ts'

export interface DevicePickerProps {
  readonly devices: ReadonlyArray<Device>
  readonly value: ReadonlyArray<number>
  readonly onChange: (ids: number[]) => void
  readonly isEnabled?: (d: Device) => boolean
  readonly single?: boolean
  readonly testId?: string
}

export const DevicePicker = ({ devices, value, onChange, isEnabled = () => true, single = false, testId = 'device-picker' }: DevicePickerProps) => {
  const enabled = devices.filter(isEnabled)
  const allChecked = enabled.length > 0 && enabled.every((d) => value.includes(d.userCardId))
  const toggle = (id: number, on: boolean) => {
    if (single) return onChange(on ? [id] : [])
    onChange(on ? [...value.filter((v) => v !== id), id] : value.filter((v) => v !== id))
  }
  if (devices.length === 0) return <div className="dv-hint" data-testid={`${testId}-empty`}>{t.common.noDevices}</div>
  return (
    <List data-testid={testId}>
      {!single && (
        <List.Item
          prefix={
            <Checkbox
              data-testid={`${testId}-all`}
              checked={allChecked}
              onChange={(on) => onChange(on ? enabled.map((d) => d.userCardId) : [])}
            />
          }
          extra={t.common.selected(value.length)}
        >
          {t.common.selectAll}
        </List.Item>
      )}
      {devices.map((d) => {
        const ok = isEnabled(d)
        const marker = authMarker(d)
        return (
          <List.Item
            key={d.userCardId}
            className={ok ? undefined : 'dv-picker-item-disabled'}
            data-testid={`${testId}-item`}
            data-user-card-id={d.userCardId}
            prefix={
              // the row toggles too; stop the checkbox's own click from toggling twice
              <span onClick={(e) => e.stopPropagation()}>
                <Checkbox
                  disabled={!ok}
                  checked={value.includes(d.userCardId)}
                  onChange={(on) => toggle(d.userCardId, on)}
                />
              </span>
            }
            description={`${remainingText(d.validTime)} · ${d.userCardId}`}
            extra={marker ? authMarkerText(marker) : undefined}
            onClick={ok ? () => toggle(d.userCardId, !value.includes(d.userCardId)) : undefined}
          >
            {d.diskName}
          </List.Item>
        )
      })}
    </List>
  )
}
