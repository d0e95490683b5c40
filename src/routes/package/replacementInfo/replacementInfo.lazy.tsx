// /package/replacementInfo/replacementInfo: the new-device messages, newest first.
import { ErrorBlock, List, Skeleton } from 'antd-mobile'
import { useEffect, useState } from 'react'
import type { ReplacementRecord } from '../../../../worker/protocol/devices.ts'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { formatTime } from '../../../features/devices/format-time.ts'
import { useCall } from '../../../core/use-call.ts'
import '../../../features/devices/devices.css'
import { Page } from '../../../ui/Page.tsx'

const t = devicesText.replacementInfo

export default function ReplacementInfoScreen() {
  const call = useCall()
  const [records, setRecords] = useState<ReadonlyArray<ReplacementRecord> | null>(null)
  useEffect(() => {
    void call('replacementRecords', {}).then((r) => setRecords(r.ok ? r.data : []))
  }, [call])
  return (
    <Page testId="replacement-info-page">
      {records === null ? (
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
