// /package/onlineService/onlineService: service hours, phone and tips from the server (as text); the chat link is
// opened only when it is an absolute http(s) URL.
import { Button, ErrorBlock, Skeleton } from 'antd-mobile'
import { useEffect, useState } from 'react'
import type { CustomInfo } from '../../../../worker/protocol/account.ts'
import { useCall, withData } from '../../../core/use-call.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { isHttpUrl } from '../../../../worker/protocol/domain.ts'
import { Page } from '../../../ui/Page.tsx'
import '../../../features/account/account.css'

const t = zhCN.account.service

export default function OnlineServiceScreen() {
  const call = useCall()
  const [info, setInfo] = useState<CustomInfo | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    void call('customInfo', {}).then(withData).then((r) => (r.ok ? setInfo(r.data) : setError(r.msg || zhCN.account.loadFailed)))
  }, [call])

  const link = info?.link && isHttpUrl(info.link) ? info.link : null
  return (
    <Page testId="service-page">
      <div className="ac-body">
        {error !== null ? (
          <ErrorBlock status="default" title={zhCN.account.loadFailed} description={error} />
        ) : info === null ? (
          <Skeleton.Paragraph lineCount={4} animated />
        ) : (
          <div className="ac-card" data-testid="service-card">
            <h1 className="ac-heading">{t.heading}</h1>
            <div className="ac-service-line"><span>{t.hours}</span><span data-testid="service-hours">{info.serviceTime}</span></div>
            <div className="ac-service-line"><span>{t.phone}</span><span data-testid="service-phone">{info.phone}</span></div>
            {info.tips && <p className="ac-hint ac-text" style={{ margin: '8px 0 16px' }}>{info.tips}</p>}
            {link ? (
              <Button block color="primary" shape="rounded" data-testid="service-chat"
                onClick={() => void window.open(link, '_blank', 'noopener,noreferrer')}>
                {t.chat}
              </Button>
            ) : (
              <p className="ac-hint" data-testid="service-no-link">{t.noLink}</p>
            )}
          </div>
        )}
      </div>
    </Page>
  )
}
