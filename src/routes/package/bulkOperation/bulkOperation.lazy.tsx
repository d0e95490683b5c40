// /package/bulkOperation/bulkOperation: choose several devices, then reboot, reset or repair them; each device's
// outcome is listed. Devices authorised to me can be rebooted and repaired; reset is refused for them (server rule).
import { Button, Dialog, List, Toast } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { BulkItemResult } from '../../../../worker/protocol/devices.ts'
import { useCore } from '../../../core-context.tsx'
import { DevicePicker } from '../../../features/devices/DevicePicker.tsx'
import { isExpired } from '../../../features/devices/display.ts'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { useCall } from '../../../core/use-call.ts'
import '../../../features/devices/devices.css'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import { PATHS } from '../../../router/paths.ts'

const t = devicesText.bulk

export default function BulkOperationScreen() {
  const { api } = useCore()
  const navigate = useNavigate()
  const call = useCall()
  const devices = useAppStore((s) => s.devices.list)
  const [chosen, setChosen] = useState<number[]>([])
  const [results, setResults] = useState<ReadonlyArray<BulkItemResult> | null>(null)
  const [busy, setBusy] = useState<null | 'reboot' | 'reset' | 'repair'>(null)

  useEffect(() => {
    void api.refreshDevices()
  }, [api])

  const run = async (kind: 'reboot' | 'reset' | 'repair') => {
    if (chosen.length === 0) return Toast.show({ content: t.chooseFirst })
    if (kind === 'reset') {
      const ok = await Dialog.confirm({ content: t.resetConfirm(chosen.length), confirmText: devicesText.common.confirm, cancelText: devicesText.common.cancel })
      if (!ok) return
    }
    setBusy(kind)
    setResults(null)
    try {
      if (kind === 'repair') {
        // repair has no bulk endpoint: one call per device, each reported on its own
        const out = await Promise.all(chosen.map(async (userCardId): Promise<BulkItemResult> => {
          const r = await call('oneKeyRepair', { userCardId })
          const diskName = devices.find((d) => d.userCardId === userCardId)?.diskName ?? String(userCardId)
          return { userCardId, diskName, ok: r.ok, msg: r.ok ? devicesText.common.success : r.msg || devicesText.common.failed }
        }))
        setResults(out)
      } else {
        const r = await call(kind === 'reboot' ? 'bulkReboot' : 'bulkReset', { userCardIds: chosen })
        if (r.ok) setResults(r.data || [])
      }
    } finally {
      setBusy(null)
    }
  }

  const okCount = results?.filter((r) => r.ok).length ?? 0
  return (
    <Page
      testId="bulk-page"
      right={
        // group control: the chosen phones go along
        <Button size="mini" fill="none" color="primary" data-testid="bulk-to-group"
          onClick={() => void navigate({ to: PATHS.groupControl, search: chosen.length > 0 ? { ids: chosen.join(',') } : {} })}>
          {devicesText.actions.group}
        </Button>
      }
    >
      <p className="dv-hint">{t.hint}</p>
      <DevicePicker devices={devices} value={chosen} onChange={setChosen} isEnabled={(d) => !isExpired(d.validTime)} testId="bulk-picker" />
      <div className="dv-actions">
        <Button data-testid="bulk-reboot" color="primary" loading={busy === 'reboot'} disabled={busy !== null} onClick={() => void run('reboot')}>{t.reboot}</Button>
        <Button data-testid="bulk-repair" color="primary" fill="outline" loading={busy === 'repair'} disabled={busy !== null} onClick={() => void run('repair')}>{t.repair}</Button>
        <Button data-testid="bulk-reset" color="danger" loading={busy === 'reset'} disabled={busy !== null} onClick={() => void run('reset')}>{t.reset}</Button>
      </div>
      {results && (
        <List header={`${t.results}：${t.summary(okCount, results.length - okCount)}`} data-testid="bulk-results">
          {results.map((r) => (
            <List.Item
              key={r.userCardId}
              data-testid="bulk-result-item"
              data-user-card-id={r.userCardId}
              data-ok={r.ok ? 'true' : 'false'}
              extra={<span className={r.ok ? 'dv-tag-ok' : 'dv-tag-fail'}>{r.msg}</span>}
            >
              {r.diskName}
            </List.Item>
          ))}
        </List>
      )}
    </Page>
  )
}
