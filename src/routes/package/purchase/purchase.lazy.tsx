// /package/purchase/purchase?phoneType&androidVersion: choose the phone type and Android version (preselected from
// the query), then a meal, quantity, coupon and payment method; paying asks for confirmation first.
import { Button, Tabs } from 'antd-mobile'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { BuyPanel } from '../../../features/pay/BuyPanel.tsx'
import { MealTag } from '../../../features/pay/MealTag.tsx'
import { PATHS } from '../../../router/paths.ts'
import { useBatchSwitch, useMealIcons, useMealTypes } from '../../../features/pay/use-meal-presentation.ts'
import '../../../features/pay/pay.css'
import { Page } from '../../../ui/Page.tsx'

const route = getRouteApi(PATHS.purchase)

const t = zhCN.pay

/** The query both purchase screens take: a phone type and Android version to preselect (an ad's, say). */
export interface PurchaseSearch {
  readonly phoneType?: string | undefined
  readonly androidVersion?: string | undefined
}

/** The purchase screen's body; batch purchase reuses it with its own coupon product, hint and query. */
export function PurchaseBody({ products, hint, search }: { products: '10' | '30'; hint?: string; search: PurchaseSearch }) {
  const types = useMealTypes()
  const { groups } = types
  const [picked, setPicked] = useState<{ phoneType?: string; androidVersion?: string }>({})
  const navigate = useNavigate()
  const icons = useMealIcons()
  const batchOn = useBatchSwitch()
  const phoneType = picked.phoneType ?? (groups.some((g) => g.value === search.phoneType) ? search.phoneType : groups[0]?.value)
  const group = groups.find((g) => g.value === phoneType)
  const wantedVersion = picked.androidVersion ?? (picked.phoneType ? undefined : search.androidVersion)
  const androidVersion = group?.androidVersions.some((v) => v.value === wantedVersion) ? wantedVersion : group?.androidVersions[0]?.value

  if (types.state === 'loading') return <div className="center-state" role="status" data-testid="buy-types-loading"><p>{t.loading}</p></div>
  if (types.state === 'failed') {
    return (
      <div className="center-state" data-testid="buy-types-failed">
        <p>{t.typesFailed}</p>
        <Button color="primary" fill="outline" onClick={types.retry}>{t.retry}</Button>
      </div>
    )
  }
  if (!phoneType || !group) return <div className="center-state" data-testid="buy-no-types"><p>{t.noTypes}</p></div>
  return (
    <>
      <Tabs className="pay-tabs" activeKey={phoneType} onChange={(key) => setPicked({ phoneType: key })}>
        {groups.map((g) => (
          <Tabs.Tab key={g.value} title={<span data-testid={`buy-phone-type-${g.value}`}>{g.label}<MealTag icon={icons.get(g.value)} /></span>} />
        ))}
      </Tabs>
      {hint && <p className="pay-muted" style={{ margin: '10px 16px 0' }}>{hint}</p>}
      {products === '10' && batchOn && (
        <button type="button" className="pay-link" data-testid="buy-batch-entry" onClick={() => void navigate({ to: PATHS.batchPurchase })}>{t.batchEntry}</button>
      )}
      <section className="pay-section">
        <h3>{t.androidVersion}</h3>
        <div className="pay-versions">
          {group.androidVersions.map((v) => (
            <button
              key={v.value}
              type="button"
              className={`pay-chip${v.value === androidVersion ? ' pay-chip-on' : ''}`}
              data-testid={`buy-android-${v.value}`}
              aria-pressed={v.value === androidVersion}
              onClick={() => setPicked({ phoneType, androidVersion: v.value })}
            >
              {v.label}
            </button>
          ))}
        </div>
      </section>
      <BuyPanel key={phoneType} mode="buy" phoneType={phoneType} androidVersion={androidVersion} products={products} batchOn={batchOn} />
    </>
  )
}

export default function PurchaseScreen() {
  return (
    <Page testId="purchase-page">
      <PurchaseBody products="10" search={route.useSearch()} />
    </Page>
  )
}
