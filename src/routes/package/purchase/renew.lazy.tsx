// /package/purchase/renew?userCardId: renew one of my devices (buyType 2); devices authorised either way are refused.
import { getRouteApi } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { remainingText } from '../../../features/devices/display.ts'
import { BuyPanel } from '../../../features/pay/BuyPanel.tsx'
import { isRenewable } from '../../../features/pay/order-rules.ts'
import '../../../features/pay/pay.css'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import { PATHS } from '../../../router/paths.ts'

const route = getRouteApi(PATHS.renew)

const t = zhCN.pay

export default function RenewScreen() {
  const { api } = useCore()
  const search = route.useSearch()
  const userCardId = Number(search.userCardId)
  const device = useAppStore((s) => s.devices.list.find((d) => d.userCardId === userCardId))
  const fetched = useAppStore((s) => s.devices.fetchedAt !== null)

  useEffect(() => {
    void api.refreshDevices()
  }, [api])

  return (
    <Page testId="renew-page">
      {!device ? (
        <div className="center-state" data-testid="renew-missing"><p>{fetched ? t.deviceMissing : t.loading}</p></div>
      ) : !isRenewable(device) ? (
        <div className="center-state" data-testid="renew-refused"><p>{t.renewNotAllowed}</p></div>
      ) : (
        <>
          <section className="pay-section" data-testid="renew-device" data-user-card-id={device.userCardId}>
            <h3>{t.renewFor}</h3>
            <div className="pay-kv"><span>{device.diskName}</span><span>{device.buyVipType}</span></div>
            <div className="pay-kv"><span>{t.remaining}</span><span>{remainingText(device.validTime)}</span></div>
          </section>
          <BuyPanel mode="renew" phoneType={device.phoneType} userCardIds={[device.userCardId]} products="20" />
        </>
      )}
    </Page>
  )
}
