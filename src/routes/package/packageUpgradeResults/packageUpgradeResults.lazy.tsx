// /package/packageUpgradeResults/packageUpgradeResults?myOrderNum: the upgrade's outcome and the device as it is now.
import { Button, Result } from 'antd-mobile'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { remainingText } from '../../../features/devices/display.ts'
import { finishPayText } from '../../../features/pay/order-rules.ts'
import { useFinishedOrder } from '../../../features/pay/use-finished-order.ts'
import '../../../features/pay/pay.css'
import { PATHS } from '../../../router/paths.ts'
import { useAppStore } from '../../../store/index.ts'
import { LoadFailed } from '../../../ui/LoadFailed.tsx'
import { Page } from '../../../ui/Page.tsx'
import { FinishPay } from '../../../../worker/protocol/domain.ts'

const route = getRouteApi(PATHS.packageUpgradeResults)

const t = zhCN.pay

export default function PackageUpgradeResultsScreen() {
  const navigate = useNavigate()
  const search = route.useSearch()
  const myOrderNum = search.myOrderNum ?? ''
  const loaded = useFinishedOrder(myOrderNum)
  const order = loaded.data
  const userCardId = order?.userCardIds[0]
  const device = useAppStore((s) => s.devices.list.find((d) => d.userCardId === userCardId))

  const ok = order?.finishPay === FinishPay.paid
  return (
    <Page testId="upgrade-results-page">
      {loaded.error !== null ? (
        <LoadFailed title={t.orderLoadFailed} message={loaded.error} onRetry={loaded.reload} testId="upgrade-result-failed" />
      ) : order === null ? (
        <div className="center-state"><p>{t.loading}</p></div>
      ) : (
        <div data-testid="upgrade-result" data-ok={ok ? 'true' : 'false'}>
          <Result status={ok ? 'success' : 'error'} title={ok ? t.upgradeSuccess : t.upgradeFailed} description={ok ? t.upgradeSuccessText : t.upgradeFailedText} />
          <section className="pay-section">
            <div className="pay-kv"><span>{t.orderNum}</span><span>{order.myOrderNum}</span></div>
            <div className="pay-kv"><span>{order.description}</span><span className={`pay-status-${order.finishPay}`}>{finishPayText(order.finishPay)}</span></div>
            {device && (
              <>
                <div className="pay-kv"><span>{device.diskName}</span><span data-testid="upgrade-result-tier">{device.buyVipType}</span></div>
                <div className="pay-kv"><span>{t.remaining}</span><span>{remainingText(device.validTime)}</span></div>
              </>
            )}
          </section>
          <div className="pay-actions">
            <Button color="primary" onClick={() => void navigate({ to: PATHS.home, replace: true })}>{t.backHome}</Button>
            <Button fill="outline" onClick={() => void navigate({ to: PATHS.purchaseRecord })}>{t.viewOrders}</Button>
          </div>
        </div>
      )}
    </Page>
  )
}
