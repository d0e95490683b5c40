// /package/recommendedCloudPhone/recommendedCloudPhone: my usable cloud phones, most used first; tap to open one.
import { ErrorBlock, List, Skeleton } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useCallback } from 'react'
import { authMarker, authMarkerText, remainingText } from '../../../features/devices/display.ts'
import { formatTime } from '../../../features/devices/format-time.ts'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { useCall } from '../../../core/use-call.ts'
import { NO_ROWS, useLoaded } from '../../../lib/use-loaded.ts'
import '../../../features/devices/devices.css'
import { LoadFailed } from '../../../ui/LoadFailed.tsx'
import { Page } from '../../../ui/Page.tsx'
import { PATHS } from '../../../router/paths.ts'

const t = devicesText.recommended

export default function RecommendedCloudPhoneScreen() {
  const call = useCall()
  const navigate = useNavigate()
  const loaded = useLoaded(useCallback(() => call('getCommonUserCard', {}), [call]), t.loadFailed, NO_ROWS)
  const cards = loaded.data
  return (
    <Page testId="recommended-page">
      {loaded.error !== null ? (
        <LoadFailed title={t.loadFailed} message={loaded.error} onRetry={loaded.reload} testId="recommended-failed" />
      ) : cards === null ? (
        <Skeleton.Paragraph lineCount={4} animated />
      ) : cards.length === 0 ? (
        <ErrorBlock status="empty" title={devicesText.common.noDevices} description="" data-testid="recommended-empty" />
      ) : (
        <List>
          {cards.map((c) => {
            const marker = authMarker(c)
            return (
              <List.Item
                key={c.userCardId}
                clickable
                data-testid="recommended-item"
                data-user-card-id={c.userCardId}
                onClick={() => void navigate({ to: PATHS.cloudPhoneView, search: { userCardId: String(c.userCardId) } })}
                description={`${remainingText(c.validTime)} · ${t.connectCount(c.connectCount)} · ${t.lastConnect}：${c.lastConnectTime ? formatTime(c.lastConnectTime) : t.never}`}
                extra={marker ? authMarkerText(marker) : c.buyVipType}
              >
                {c.diskName}
              </List.Item>
            )
          })}
        </List>
      )}
    </Page>
  )
}
