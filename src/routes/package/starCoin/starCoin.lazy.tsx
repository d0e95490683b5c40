// /package/starCoin/starCoin: the star coin balance and the records, got and used, 10 a page with load-more.
import { ErrorBlock, List, Tabs } from 'antd-mobile'
import { useCallback, useEffect, useState } from 'react'
import type { StarCoinRecord } from '../../../../worker/protocol/account.ts'
import { PagedFooter } from '../../../ui/kit/LoadMoreFooter.tsx'
import { usePaged } from '../../../lib/use-paged.ts'
import { formatTime } from '../../../features/devices/format-time.ts'
import { useCall } from '../../../core/use-call.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { Page } from '../../../ui/Page.tsx'
import '../../../features/account/account.css'

const t = zhCN.account.starCoin
type Kind = 'got' | 'used'

const Records = ({ kind }: { kind: Kind }) => {
  const call = useCall()
  const fetchPage = useCallback(
    (pageNum: number, pageSize: number) => call(kind === 'got' ? 'starCoinGotPage' : 'starCoinUsedPage', { pageNum, pageSize }),
    [call, kind],
  )
  const paged = usePaged<StarCoinRecord>(fetchPage, zhCN.account.loadFailed)
  if (paged.loaded && paged.list.length === 0 && !paged.error) {
    return <ErrorBlock status="empty" title={t.empty} description="" data-testid="star-coin-empty" />
  }
  return (
    <div className="ac-list-area" data-testid="star-coin-records" data-kind={kind} data-total={paged.total}>
      <List className="ac-list">
        {paged.list.map((r) => (
          <List.Item key={r.id} data-testid="star-coin-record" description={formatTime(r.ctime)}>
            <div className="ac-record">
              <span className="ac-text">{r.description}</span>
              <span className={kind === 'got' ? 'ac-record-amount ac-record-got' : 'ac-record-amount ac-record-used'}>
                {kind === 'got' ? t.gotAmount(r.amount) : t.usedAmount(r.amount)}
              </span>
            </div>
          </List.Item>
        ))}
      </List>
      <PagedFooter paged={paged} testId="star-coin-footer" />
    </div>
  )
}

export default function StarCoinScreen() {
  const call = useCall()
  const [balance, setBalance] = useState<number | null>(null)
  const [kind, setKind] = useState<Kind>('got')

  useEffect(() => {
    void call('starCoins', {}).then((r) => r.ok && setBalance(Number(r.data) || 0))
  }, [call])

  return (
    <Page testId="star-coin-page">
      <div className="ac-body" style={{ paddingBottom: 0 }}>
        <div className="ac-card ac-balance">
          <div className="ac-balance-label">{t.balance}</div>
          <div className="ac-balance-value" data-testid="star-coin-balance">{balance ?? '-'}</div>
          <div className="ac-balance-hint">{t.explain}</div>
        </div>
      </div>
      <Tabs className="ac-tabs" activeKey={kind} onChange={(k) => setKind(k as Kind)}>
        <Tabs.Tab key="got" title={<span data-testid="star-coin-tab-got">{t.tabs.got}</span>} />
        <Tabs.Tab key="used" title={<span data-testid="star-coin-tab-used">{t.tabs.used}</span>} />
      </Tabs>
      <Records key={kind} kind={kind} />
    </Page>
  )
}
