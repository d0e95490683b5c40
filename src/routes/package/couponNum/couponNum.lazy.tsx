// /package/couponNum/couponNum: coupons by state (effective / in use / used / invalid), 10 a page with load-more, the
// new-arrival counters pushed by the server (sendCouponMsg, sendActivationCode), and the way to exchange a code.
// A new coupon push reloads the effective tab. The counters are the core's and are not reset here (see README).
import { useNavigate } from '@tanstack/react-router'
import { Button, ErrorBlock, Tabs } from 'antd-mobile'
import { useCallback, useEffect, useRef, useState } from 'react'
import { CouponStatus, type Coupon } from '../../../../worker/protocol/account.ts'
import { CouponCard } from '../../../features/account/CouponCard.tsx'
import { PagedFooter } from '../../../ui/kit/LoadMoreFooter.tsx'
import { usePaged } from '../../../lib/use-paged.ts'
import { useCall } from '../../../core/use-call.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { useAppStore } from '../../../store/index.ts'
import { Page } from '../../../ui/Page.tsx'
import '../../../features/account/account.css'
import { PATHS } from '../../../router/paths.ts'

const t = zhCN.account.coupons

const TABS = [
  { key: CouponStatus.effective, title: t.tabs.effective },
  { key: CouponStatus.inUse, title: t.tabs.inUse },
  { key: CouponStatus.used, title: t.tabs.used },
  { key: CouponStatus.invalid, title: t.tabs.invalid },
] as const

const CouponList = ({ status, reloadKey }: { status: number; reloadKey: number }) => {
  const call = useCall()
  const fetchPage = useCallback(
    (pageNum: number, pageSize: number) => call('couponPage', { status, pageNum, pageSize }),
    [call, status],
  )
  const paged = usePaged<Coupon>(fetchPage, zhCN.account.loadFailed)
  const { reload } = paged
  const first = useRef(true)
  useEffect(() => {
    if (first.current) first.current = false
    else void reload()
    // reload only when the key changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reloadKey])

  if (paged.loaded && paged.list.length === 0 && !paged.error) {
    return <ErrorBlock status="empty" title={t.empty} description="" data-testid="coupons-empty" />
  }
  if (!paged.loaded && paged.error) {
    return (
      <div className="center-state" data-testid="coupons-error">
        <ErrorBlock status="default" title={zhCN.account.loadFailed} description={paged.error} />
        <Button color="primary" fill="outline" onClick={() => void paged.reload()}>{zhCN.app.retry}</Button>
      </div>
    )
  }
  return (
    <div className="ac-list-area" data-testid="coupon-list" data-status={status} data-total={paged.total}>
      {paged.list.map((c) => <CouponCard key={c.id} coupon={c} />)}
      <PagedFooter paged={paged} testId="coupons-footer" />
    </div>
  )
}

export default function CouponsScreen() {
  const navigate = useNavigate()
  const counters = useAppStore((s) => s.counters)
  const [active, setActive] = useState<string>(String(CouponStatus.effective))
  const [reloadKey, setReloadKey] = useState(0)
  const seen = useRef(counters.coupon)

  // sendCouponMsg "signals an update on the coupon page" (§4): a new coupon shows up without leaving the screen
  useEffect(() => {
    if (counters.coupon !== seen.current) {
      seen.current = counters.coupon
      setReloadKey((k) => k + 1)
    }
  }, [counters.coupon])

  return (
    <Page testId="coupons-page">
      <div className="ac-news" data-testid="coupon-news">
        {counters.coupon > 0 && <span data-testid="coupon-news-coupons">{t.newCoupons(counters.coupon)}</span>}
        {counters.activationCode > 0 && <span data-testid="coupon-news-codes">{t.newCodes(counters.activationCode)}</span>}
        <button type="button" className="ac-exchange" data-testid="coupons-exchange" onClick={() => void navigate({ to: PATHS.activationCode })}>
          {t.exchange} ›
        </button>
      </div>
      <Tabs className="ac-tabs" activeKey={active} onChange={setActive} data-testid="coupon-tabs">
        {TABS.map((tab) => (
          <Tabs.Tab key={String(tab.key)} title={<span data-testid={`coupon-tab-${tab.key}`}>{tab.title}</span>} />
        ))}
      </Tabs>
      <CouponList key={active} status={Number(active)} reloadKey={reloadKey} />
    </Page>
  )
}
