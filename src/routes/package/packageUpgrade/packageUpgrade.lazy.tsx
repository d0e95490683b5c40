// /package/packageUpgrade/packageUpgrade?userCardId: choose one of my devices (or take it from the query), see the
// packages it can move up to priced for its remaining days, confirm, and go to the upgrade pay order.
import { Button, Radio } from 'antd-mobile'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useCallback, useEffect, useState } from 'react'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { DevicePicker } from '../../../features/devices/DevicePicker.tsx'
import { canDo } from '../../../features/devices/device-rules.ts'
import '../../../features/devices/devices.css'
import { PATHS } from '../../../router/paths.ts'
import { useCall, withData } from '../../../core/use-call.ts'
import { NO_ROWS, useLoaded } from '../../../lib/use-loaded.ts'
import { useConfirmPayment } from '../../../features/pay/payment-popup.ts'
import '../../../features/pay/pay.css'
import { useAppStore } from '../../../store/index.ts'
import { LoadFailed } from '../../../ui/LoadFailed.tsx'
import { Page } from '../../../ui/Page.tsx'

const route = getRouteApi(PATHS.packageUpgrade)

const t = zhCN.pay

export default function PackageUpgradeScreen() {
  const { api } = useCore()
  const call = useCall()
  const confirmPayment = useConfirmPayment()
  const navigate = useNavigate()
  const search = route.useSearch()
  const devices = useAppStore((s) => s.devices.list)
  const [chosen, setChosen] = useState<number[]>(search.userCardId ? [Number(search.userCardId)] : [])
  const [target, setTarget] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const userCardId = chosen[0] ?? null
  const device = devices.find((d) => d.userCardId === userCardId) ?? null

  useEffect(() => {
    void api.refreshDevices()
  }, [api])

  const loaded = useLoaded(
    useCallback(() => (userCardId === null ? Promise.resolve({ ok: true, data: NO_ROWS } as const) : call('getChangePackageList', { userCardId })), [call, userCardId]),
    t.upgradeLoadFailed,
    NO_ROWS,
  )
  const options = loaded.data
  useEffect(() => setTarget(options?.[0]?.phoneType ?? null), [options])

  const option = options?.find((o) => o.phoneType === target) ?? null
  const submit = async () => {
    if (!option || userCardId === null) return
    const ok = await confirmPayment(t.upgradeConfirm(device?.diskName ?? String(userCardId), option.phoneTypeName, t.yuan(option.upgradePrice)))
    if (!ok) return
    setBusy(true)
    try {
      const r = withData(await call('selectReplaceCloud', { userCardId, phoneType: option.phoneType }))
      if (r.ok) await navigate({ to: PATHS.packageUpgradeOrder, search: { myOrderNum: r.data.myOrderNum } })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Page testId="upgrade-page">
      <p className="dv-hint" style={{ marginTop: 12 }}>{t.upgradeChoose}</p>
      <DevicePicker devices={devices} value={chosen} onChange={setChosen} single isEnabled={(d) => canDo(d, 'upgrade')} testId="upgrade-picker" />
      {userCardId !== null && (
        <section className="pay-section" data-testid="upgrade-options">
          <h3>{t.upgradeOptions}</h3>
          {loaded.error !== null ? (
            <LoadFailed title={t.upgradeLoadFailed} message={loaded.error} onRetry={loaded.reload} testId="upgrade-failed" />
          ) : options === null ? <p className="pay-muted">{t.loading}</p> : options.length === 0 ? <p className="pay-muted">{t.upgradeNone}</p> : (
            <Radio.Group value={target ?? ''} onChange={(v) => setTarget(String(v))}>
              <div className="pay-methods">
                {options.map((o) => (
                  <Radio key={o.phoneType} value={o.phoneType} data-testid="upgrade-option">
                    {t.upgradeTo(o.phoneTypeName, o.buyVipType)} <strong className="pay-total" style={{ fontSize: 15 }}>{t.yuan(o.upgradePrice)}</strong>
                    <div className="pay-muted">{t.upgradeDays(o.days)}</div>
                  </Radio>
                ))}
              </div>
            </Radio.Group>
          )}
        </section>
      )}
      <div className="pay-actions">
        <Button color="primary" data-testid="upgrade-submit" disabled={!option || busy} loading={busy} onClick={() => void submit()}>{t.upgradeSubmit}</Button>
      </div>
    </Page>
  )
}
