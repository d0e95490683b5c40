// The actions of one device card on home: reboot (confirmed), renew shortcut, and the button that opens the list's
// "more" sheet (DeviceMoreSheets.tsx). Actions a device does not offer (authorised to me, expired) are disabled by the
// device rules.
import { Button, Dialog, Toast } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { Device } from '../../../worker/protocol/devices.ts'
import { canDo, type DeviceOp } from './device-rules.ts'
import { devicesZhCN as devicesText } from '../../i18n/zh-CN.devices.ts'
import { useCall } from '../../core/use-call.ts'
import { OFFLINE_NOTICE_ID } from '../../ui/OfflineNotice.tsx'
import { useOnline } from '../../ui/use-online.ts'
import { PATHS } from '../../router/paths.ts'

const t = devicesText.actions

export const DeviceActions = ({ device, onMore }: { device: Device; onMore: (device: Device) => void }) => {
  const call = useCall()
  const navigate = useNavigate()
  const [rebooting, setRebooting] = useState(false)
  const can = (op: DeviceOp) => canDo(device, op)
  // offline, every action needs the network: disabled, with the offline notice as the reason
  const online = useOnline()
  const offline = online ? {} : { disabled: true, 'aria-describedby': OFFLINE_NOTICE_ID }

  const reboot = async () => {
    const ok = await Dialog.confirm({ content: t.rebootConfirm(device.diskName), confirmText: devicesText.common.confirm, cancelText: devicesText.common.cancel })
    if (!ok) return
    setRebooting(true)
    const r = await call('rebootDevice', { userCardId: device.userCardId })
    setRebooting(false)
    if (r.ok) Toast.show({ content: t.rebootDone })
  }

  const renew = () => {
    if (!can('renew')) {
      Toast.show({ content: t.renewNotAllowed })
      return
    }
    void navigate({ to: PATHS.renew, search: { userCardId: String(device.userCardId) } })
  }

  return (
    <div className="dv-card-actions" data-testid="device-actions" data-user-card-id={device.userCardId} onClick={(e) => e.stopPropagation()}>
      <Button size="mini" data-testid="device-action-reboot" disabled={!can('reboot')} loading={rebooting} onClick={() => void reboot()} {...offline}>{t.reboot}</Button>
      <Button size="mini" color="primary" fill="outline" data-testid="device-action-renew" disabled={!can('renew')} onClick={renew} {...offline}>{t.renew}</Button>
      <Button size="mini" data-testid="device-action-more" onClick={() => onMore(device)} {...offline}>{t.more}</Button>
    </div>
  )
}
