// /package/recommendedCloudPhone/recommendedCloudPhone: my usable cloud phones, most used first; tap to open one.
import { ErrorBlock, List, Skeleton } from 'antd-mobile'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { CommonUserCard } from '../../../../worker/protocol/devices.ts'
import { authMarker, authMarkerText, remainingText } from '../../../features/devices/display.ts'
import { formatTime } from '../../../features/devices/format-time.ts'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { useCall } from '../../../core/use-call.ts'
import '../../../features/devices/devices.css'
import { Page } from '../../../ui/Page.tsx'
import { PATHS } from '../../../router/paths.ts'

const t = devicesText.recommended

export default function RecommendedCloudPhoneScreen() {
  const call = useCall()
  const navigate = useNavigate()
  const [cards, setCards] = useState<ReadonlyArray<CommonUserCard> | null>(null)
  useEffect(() => {
    void call('getCommonUserCard', {}).then((r) => setCards(r.ok ? r.data : []))
  }, [call])
  return (
    <Page testId="recommended-page">
      {cards === null ? (
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
