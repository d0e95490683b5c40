// The model parameter sheet of one device: the identity it shows apps, changing manufacturer and model (the device
// restarts) and restoring the factory values. An authorised user sees the values only.
import { Button, Dialog, List, Picker, Popup, Skeleton, Toast } from 'antd-mobile'
import { useCallback, useEffect, useState } from 'react'
import type { DeviceModel, ModelParameters as Params } from '../../../worker/protocol/devices.ts'
import { devicesZhCN as devicesText } from '../../i18n/zh-CN.devices.ts'
import { useCall, withData } from '../../core/use-call.ts'
import { useLoaded } from '../../lib/use-loaded.ts'
import { LoadFailed } from '../../ui/LoadFailed.tsx'

const t = devicesText.model

export interface ModelParametersProps {
  readonly userCardId: number | null
  readonly canEdit: boolean
  readonly onClose: () => void
  /** the device restarts after a change or restore. */
  readonly onRestart?: () => void
}

export const ModelParametersSheet = ({ userCardId, canEdit, onClose, onRestart }: ModelParametersProps) => {
  const call = useCall()
  const loaded = useLoaded<Params | null>(
    useCallback(() => (userCardId === null ? Promise.resolve({ ok: true, data: null } as const) : call('getUserCardModelParameters', { userCardId })), [call, userCardId]),
    t.loadFailed,
  )
  const params = loaded.data
  const [makers, setMakers] = useState<string[]>([])
  const [models, setModels] = useState<ReadonlyArray<DeviceModel>>([])
  const [maker, setMaker] = useState<string | null>(null)
  const [model, setModel] = useState<string | null>(null)
  const [pickMaker, setPickMaker] = useState(false)
  const [pickModel, setPickModel] = useState(false)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    setMaker(null)
    setModel(null)
    if (userCardId === null) return
    if (canEdit) void call('getManufacturer', {}).then((r) => r.ok && setMakers([...r.data || []]))
  }, [call, userCardId, canEdit])

  useEffect(() => {
    setModel(null)
    if (maker === null) return setModels([])
    void call('getModelParameters', { manufacturer: maker }).then((r) => r.ok && setModels(r.data || []))
  }, [call, maker])

  const save = async () => {
    if (userCardId === null || maker === null || model === null) return
    setBusy(true)
    const r = withData(await call('updateModelParameters', { userCardId, manufacturer: maker, model }))
    setBusy(false)
    if (!r.ok) return
    loaded.set(r.data)
    Toast.show({ content: t.saved })
    onRestart?.()
  }

  const restore = async () => {
    if (userCardId === null) return
    const ok = await Dialog.confirm({ content: t.restoreConfirm, confirmText: devicesText.common.confirm, cancelText: devicesText.common.cancel })
    if (!ok) return
    setBusy(true)
    const r = withData(await call('restoreModelParameters', { userCardId }))
    setBusy(false)
    if (!r.ok) return
    loaded.set(r.data)
    Toast.show({ content: t.restored })
    onRestart?.()
  }

  return (
    <Popup visible={userCardId !== null} onMaskClick={onClose} bodyStyle={{ borderRadius: '12px 12px 0 0', maxHeight: '80vh', overflowY: 'auto' }}>
      <div data-testid="model-params">
        <List header={t.title}>
          {loaded.error !== null && <LoadFailed title={t.loadFailed} message={loaded.error} onRetry={loaded.reload} testId="model-failed" />}
          {loaded.error === null && params === null && <Skeleton.Paragraph lineCount={4} animated />}
          {params && (
            <>
              <List.Item extra={<span data-testid="model-manufacturer">{params.manufacturer}</span>}>{t.manufacturer}</List.Item>
              <List.Item extra={params.brand}>{t.brand}</List.Item>
              <List.Item extra={<span data-testid="model-model">{params.model}</span>}>{t.model}</List.Item>
              <List.Item extra={params.marketName}>{t.marketName}</List.Item>
              <List.Item extra={<span data-testid="model-imei">{params.imei}</span>}>{t.imei}</List.Item>
              <List.Item extra={params.serialNo}>{t.serialNo}</List.Item>
              <List.Item extra={params.androidId}>{t.androidId}</List.Item>
              <List.Item extra={<span data-testid="model-modified">{params.modified ? t.modified : t.factory}</span>}>{t.state}</List.Item>
            </>
          )}
        </List>
        {canEdit && (
          <List header={t.change}>
            <List.Item clickable data-testid="model-pick-manufacturer" extra={maker ?? ''} onClick={() => setPickMaker(true)}>
              {t.chooseManufacturer}
            </List.Item>
            <List.Item clickable data-testid="model-pick-model" extra={models.find((m) => m.model === model)?.marketName ?? ''}
              onClick={() => maker !== null && setPickModel(true)}>
              {t.chooseModel}
            </List.Item>
          </List>
        )}
        <div className="dv-actions">
          {canEdit && (
            <>
              <Button data-testid="model-save" color="primary" disabled={model === null} loading={busy} onClick={() => void save()}>{t.save}</Button>
              <Button data-testid="model-restore" disabled={!params?.modified} loading={busy} onClick={() => void restore()}>{t.restore}</Button>
            </>
          )}
          <Button data-testid="model-close" onClick={onClose}>{t.close}</Button>
        </div>
      </div>
      <Picker
        columns={[makers.map((m) => ({ label: m, value: m }))]}
        visible={pickMaker}
        onClose={() => setPickMaker(false)}
        onConfirm={(v) => setMaker((v[0] as string | null) ?? null)}
        confirmText={devicesText.common.confirm}
        cancelText={devicesText.common.cancel}
      />
      <Picker
        columns={[models.map((m) => ({ label: `${m.marketName}（${m.model}）`, value: m.model }))]}
        visible={pickModel}
        onClose={() => setPickModel(false)}
        onConfirm={(v) => setModel((v[0] as string | null) ?? null)}
        confirmText={devicesText.common.confirm}
        cancelText={devicesText.common.cancel}
      />
    </Popup>
  )
}
