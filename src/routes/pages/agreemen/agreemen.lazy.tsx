// /pages/agreemen/agreemen: the user agreement from the server, shown as plain text, one paragraph per line.
import { Button, ErrorBlock, Skeleton } from 'antd-mobile'
import { useCallback, useEffect, useState } from 'react'
import type { Agreement } from '../../../../worker/protocol/session.ts'
import { useCore } from '../../../core-context.tsx'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { Page } from '../../../ui/Page.tsx'
import '../../../features/auth/auth.css'

const t = zhCN.auth

type Load = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; agreement: Agreement }

export default function AgreementScreen() {
  const { api } = useCore()
  const [load, setLoad] = useState<Load>({ kind: 'loading' })

  const fetchAgreement = useCallback(async () => {
    setLoad({ kind: 'loading' })
    const result = await api.call('agreementContent').catch(() => null)
    setLoad(result?.ok && result.data !== false ? { kind: 'ready', agreement: result.data } : { kind: 'failed' })
  }, [api])

  useEffect(() => void fetchAgreement(), [fetchAgreement])

  return (
    <Page testId="agreement-page">
      {load.kind === 'loading' && (
        <div className="agreement" data-testid="agreement-loading">
          <Skeleton.Title animated />
          <Skeleton.Paragraph lineCount={8} animated />
        </div>
      )}
      {load.kind === 'failed' && (
        <div className="center-state" data-testid="agreement-error">
          <ErrorBlock status="default" title={t.agreementLoadFailed} description="" />
          <Button color="primary" fill="outline" onClick={() => void fetchAgreement()}>{t.retry}</Button>
        </div>
      )}
      {load.kind === 'ready' && (
        <article className="agreement" data-testid="agreement-content">
          <h1>{load.agreement.title}</h1>
          {load.agreement.content.split(/\n+/).filter((p) => p.trim() !== '').map((p, i) => <p key={i}>{p}</p>)}
        </article>
      )}
    </Page>
  )
}
