// The actions of one device card on home: reboot (confirmed), renew shortcut, and a "more" sheet leading to bulk
// operation, transfer, authorisation, one-tap new device, package upgrade, shutdown records and the model parameter
// sheet. Actions a
// device does not offer (authorised to me, expired) are disabled by the device rules.
import { ActionSheet, Button, Dialog, Toast } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { Device } from '../../../worker/protocol/devices.ts'
import { canDo, isAuthorisedToMe, type DeviceOp } from './device-rules.ts'
import { ModelParametersSheet } from './ModelParameters.tsx'
import { devicesZhCN as devicesText } from '../../i18n/zh-CN.devices.ts'
import { useCall } from '../../core/use-call.ts'
import { OFFLINE_NOTICE_ID } from '../../ui/OfflineNotice.tsx'
import { useOnline } from '../../ui/use-online.ts'
import { PATHS, type RoutePath } from '../../router/paths.ts'

const t = devicesText.actions

/** The "more" sheet's state on home: the card it was opened for (kept while the sheet slides out). */
export interface MoreSheetState {
  readonly device: Device
  readonly open: boolean
}

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

/**
 * The "more" sheet and the model parameter sheet it opens: one of each for the whole list, showing the card they were
 * opened for. An antd-mobile popup keeps its springs and gesture handler while closed; a sheet pair per card (four
 * popups with the model sheet's pickers) was most of the home's first render (issue 12: Lighthouse total blocking time).
 */
export const DeviceMoreSheets = ({ more, onClose }: { more: MoreSheetState | null; onClose: () => void }) => {
  const navigate = useNavigate()
  const [model, setModel] = useState<MoreSheetState | null>(null)
  const device = more?.device
  const go = (to: RoutePath, search?: Record<string, string>) => () => void navigate({ to, search })
  const actions = device === undefined ? [] : [
    { key: 'bulk', text: t.bulk, onClick: go(PATHS.bulkOperation) },
    { key: 'transfer', text: t.transfer, disabled: !canDo(device, 'transfer'), onClick: go(PATHS.deviceTransfer) },
    { key: 'authorise', text: t.authorise, onClick: go(PATHS.authorizedDevices) },
    { key: 'replace', text: t.replace, disabled: !canDo(device, 'replace'), onClick: go(PATHS.replacement) },
    { key: 'upgrade', text: t.upgrade, disabled: !canDo(device, 'upgrade'), onClick: go(PATHS.packageUpgrade, { userCardId: String(device.userCardId) }) },
    { key: 'timing', text: t.timing, disabled: isAuthorisedToMe(device), onClick: go(PATHS.timingRecord, { userCardId: String(device.userCardId) }) },
    { key: 'model', text: t.model, onClick: () => setModel({ device, open: true }) },
  ].map((a) => ({ ...a, text: <span data-testid={`device-action-${a.key}`}>{a.text}</span> }))

  return (
    <>
      <ActionSheet visible={more?.open === true} actions={actions} closeOnAction cancelText={devicesText.common.cancel} onClose={onClose} />
      <ModelParametersSheet
        userCardId={model?.open === true ? model.device.userCardId : null}
        canEdit={model !== null && canDo(model.device, 'model')}
        onClose={() => setModel((m) => m && { ...m, open: false })}
      />
    </>
  )
}
