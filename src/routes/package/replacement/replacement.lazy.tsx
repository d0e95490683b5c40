// /package/replacement/replacement: one-tap new device. The owner picks a usable device and confirms; the card gets
// a new instance (new number, same remaining time). Links to the new-device messages.
import { Button, Dialog, Result } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { ReplacementResult } from '../../../../worker/protocol/devices.ts'
import { useCore } from '../../../core-context.tsx'
import { canDo } from '../../../features/devices/device-rules.ts'
import { DevicePicker } from '../../../features/devices/DevicePicker.tsx'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { useCall, withData } from '../../../core/use-call.ts'
import '../../../features/devices/devices.css'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import { PATHS } from '../../../router/paths.ts'

const t = devicesText.replacement

export default function ReplacementScreen() {
  const { api } = useCore()
  const call = useCall()
  const navigate = useNavigate()
  const devices = useAppStore((s) => s.devices.list)
  const [chosen, setChosen] = useState<number[]>([])
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState<ReplacementResult | null>(null)

  useEffect(() => {
    void api.refreshDevices()
  }, [api])

  const submit = async () => {
    const d = devices.find((x) => x.userCardId === chosen[0])
    if (!d) return
    const ok = await Dialog.confirm({ content: t.confirm(d.diskName), confirmText: devicesText.common.confirm, cancelText: devicesText.common.cancel })
    if (!ok) return
    setBusy(true)
    const r = withData(await call('replaceDevice', { userCardId: d.userCardId }))
    setBusy(false)
    if (r.ok) {
      setDone(r.data)
      setChosen([])
      void api.refreshDevices()
    }
  }

  const usable = devices.filter((d) => canDo(d, 'replace'))
  return (
    <Page testId="replacement-page" right={<a data-testid="replacement-info-link" onClick={() => void navigate({ to: PATHS.replacementInfo })}>{t.messages}</a>}>
      <p className="dv-hint">{t.explain}</p>
      {done && (
        <Result status="success" title={t.done(done.diskName, done.newUserCardId)} data-testid="replacement-done" />
      )}
      {usable.length === 0 && <p className="dv-hint" data-testid="replacement-none">{t.none}</p>}
      <DevicePicker devices={devices} value={chosen} onChange={setChosen} single isEnabled={(d) => canDo(d, 'replace')} testId="replacement-picker" />
      <div className="dv-actions">
        <Button data-testid="replacement-submit" color="primary" disabled={chosen.length === 0} loading={busy} onClick={() => void submit()}>
          {t.submit}
        </Button>
      </div>
    </Page>
  )
}
