// /package/batchRenewal/batchRenewal: renew several of my devices with one meal: one tier at a time, devices
// authorised either way excluded; a coupon needs batchBuy when more than one device is chosen. Closed while the batch
// switch is off.
import { useEffect, useState } from 'react'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { DevicePicker } from '../../../features/devices/DevicePicker.tsx'
import '../../../features/devices/devices.css'
import { BuyPanel } from '../../../features/pay/BuyPanel.tsx'
import { isRenewable } from '../../../features/pay/order-rules.ts'
import { useBatchSwitch } from '../../../features/pay/use-meal-presentation.ts'
import '../../../features/pay/pay.css'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'

const t = zhCN.pay

export default function BatchRenewalScreen() {
  const { api } = useCore()
  const devices = useAppStore((s) => s.devices.list)
  const [chosen, setChosen] = useState<number[]>([])

  useEffect(() => {
    void api.refreshDevices()
  }, [api])

  const batchOn = useBatchSwitch()
  const picked = devices.filter((d) => chosen.includes(d.userCardId))
  const tier = picked[0]?.buyVipType ?? null
  const phoneType = picked[0]?.phoneType ?? null
  if (batchOn === false) return <Page testId="batch-renewal-page"><p className="pay-closed" data-testid="batch-closed">{t.batchClosed}</p></Page>
  return (
    <Page testId="batch-renewal-page">
      <p className="dv-hint" style={{ marginTop: 12 }}>{t.chooseDevices}</p>
      <DevicePicker
        devices={devices}
        value={chosen}
        onChange={(ids) => {
          // "select all" with nothing chosen yet would mix tiers: keep the tier of the first device
          const first = devices.find((d) => d.userCardId === ids[0])
          setChosen(ids.filter((id) => {
            const d = devices.find((x) => x.userCardId === id)
            return d !== undefined && first !== undefined && d.buyVipType === first.buyVipType && d.phoneType === first.phoneType
          }))
        }}
        isEnabled={(d) => isRenewable(d) && (tier === null || (d.buyVipType === tier && d.phoneType === phoneType))}
        testId="renew-picker"
      />
      {phoneType && tier ? (
        <>
          <p className="dv-hint" style={{ marginTop: 8 }} data-testid="renew-chosen">{t.batchChosen(picked.length, tier)}</p>
          <BuyPanel key={phoneType} mode="renew" phoneType={phoneType} userCardIds={chosen} products={chosen.length > 1 ? '40' : '20'} />
        </>
      ) : (
        <p className="dv-hint">{t.chooseFirst}</p>
      )}
    </Page>
  )
}
