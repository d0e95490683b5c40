// /package/replacementInfo/replacementInfo: the new-device messages, newest first.
import { ErrorBlock, List, Skeleton } from 'antd-mobile'
import { useCallback } from 'react'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { formatTime } from '../../../features/devices/format-time.ts'
import { useCall } from '../../../core/use-call.ts'
import { NO_ROWS, useLoaded } from '../../../lib/use-loaded.ts'
import '../../../features/devices/devices.css'
import { LoadFailed } from '../../../ui/LoadFailed.tsx'
import { Page } from '../../../ui/Page.tsx'

const t = devicesText.replacementInfo

export default function ReplacementInfoScreen() {
  const call = useCall()
  const loaded = useLoaded(useCallback(() => call('replacementRecords', {}), [call]), t.loadFailed, NO_ROWS)
  const records = loaded.data
  return (
    <Page testId="replacement-info-page">
      {loaded.error !== null ? (
        <LoadFailed title={t.loadFailed} message={loaded.error} onRetry={loaded.reload} testId="replacement-info-failed" />
      ) : records === null ? (
        <Skeleton.Paragraph lineCount={4} animated />
      ) : records.length === 0 ? (
        <ErrorBlock status="empty" title={devicesText.common.empty} description="" data-testid="replacement-info-empty" />
      ) : (
        <List>
          {records.map((r) => (
            <List.Item key={r.id} data-testid="replacement-record" description={formatTime(r.ctime)}>
              {t.item(r.diskName, r.oldUserCardId, r.newUserCardId)}
            </List.Item>
          ))}
        </List>
      )}
    </Page>
  )
}
