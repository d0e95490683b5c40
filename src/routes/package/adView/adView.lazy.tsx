// /package/adView/adView?url=&adId=: the ad's http(s) page in a frame under the navigation bar, only when the ad
import { getRouteApi } from '@tanstack/react-router'
// list names that url for that ad (a link's own ?url= is refused, as is any other scheme). The frame is credentialless (the app is cross-origin isolated) and sandboxed; a page on our own origin
// gets no same-origin rights.
import { ErrorBlock, SpinLoading } from 'antd-mobile'
import { useState } from 'react'
import { useAdFrameUrl } from '../../../features/devices/use-ad-frame-url.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { Page } from '../../../ui/Page.tsx'
import './adView.css'
import { PATHS } from '../../../router/paths.ts'

const route = getRouteApi(PATHS.adView)

const t = zhCN.adView
const SANDBOX = 'allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox'

export default function AdViewScreen() {
  const search = route.useSearch()
  const checked = useAdFrameUrl(String(search.adId ?? ''), String(search.url ?? ''))
  const [loaded, setLoaded] = useState(false)
  if (checked === 'checking') {
    return (
      <Page testId="ad-view-page">
        <div className="center-state" data-testid="ad-view-checking"><SpinLoading color="primary" /></div>
      </Page>
    )
  }
  if (checked === null) {
    return (
      <Page testId="ad-view-page">
        <div className="center-state" data-testid="ad-view-refused">
          <ErrorBlock status="default" title={t.refused} description={t.refusedHint} />
        </div>
      </Page>
    )
  }
  const url = checked
  const sameOrigin = new URL(url).origin === location.origin
  return (
    <Page
      testId="ad-view-page"
      right={
        <a className="ad-view-open" href={url} target="_blank" rel="noopener noreferrer" data-testid="ad-view-open">
          {t.openInBrowser}
        </a>
      }
    >
      <div className="ad-view-stage">
        {!loaded && (
          <div className="ad-view-loading" aria-live="polite">
            <SpinLoading color="primary" />
            <span>{t.loading}</span>
          </div>
        )}
        <iframe
          className="ad-view-frame"
          data-testid="ad-view-frame"
          title={t.frameTitle}
          src={url}
          sandbox={sameOrigin ? SANDBOX : `${SANDBOX} allow-same-origin`}
          referrerPolicy="no-referrer"
          {...{ credentialless: '' }}
          onLoad={() => setLoaded(true)}
        />
      </div>
    </Page>
  )
}
