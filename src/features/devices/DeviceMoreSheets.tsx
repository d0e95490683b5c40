// The home list's "more" sheet, leading to bulk operation, transfer, authorisation, one-tap new device, package
// upgrade, shutdown records and the model parameter sheet; actions a device does not offer are disabled by the device
// rules. Mounted once the home is idle (useIdleMount) or when 更多 is tapped first.
import { ActionSheet } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import type { Device } from '../../../worker/protocol/devices.ts'
import { canDo, isAuthorisedToMe } from './device-rules.ts'
import { ModelParametersSheet } from './ModelParameters.tsx'
import { devicesZhCN as devicesText } from '../../i18n/zh-CN.devices.ts'
import { PATHS, type RoutePath } from '../../router/paths.ts'

const t = devicesText.actions

/** The "more" sheet's state on home: the card it was opened for (kept while the sheet slides out). */
export interface MoreSheetState {
  readonly device: Device
  readonly open: boolean
}

/**
 * The "more" sheet and the model parameter sheet it opens: one of each for the whole list, showing the card they were
 * opened for. An antd-mobile popup keeps its springs and gesture handler while closed; a sheet pair per card (four
 * popups with the model sheet's pickers) was most of the home's first render (issue 12: Lighthouse total blocking time).
 */
const DeviceMoreSheets = ({ more, onClose }: { more: MoreSheetState | null; onClose: () => void }) => {
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

export default DeviceMoreSheets
