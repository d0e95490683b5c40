// /package/timingRecord/timingRecord[?userCardId=]: the shutdown records ended by timers, paged; type 1 特权定时,
import { getRouteApi } from '@tanstack/react-router'
// 2 and 3 普通定时, durations in the largest units that apply.
import { ErrorBlock, List } from 'antd-mobile'
import { useCallback } from 'react'
import type { TimingRecord } from '../../../../worker/protocol/devices.ts'
import { formatTime } from '../../../features/devices/format-time.ts'
import { devicesZhCN as devicesText } from '../../../i18n/zh-CN.devices.ts'
import { formatDuration, timerTypeLabel } from '../../../features/devices/timer.ts'
import { useCall } from '../../../core/use-call.ts'
import '../../../features/devices/devices.css'
import { usePaged } from '../../../lib/use-paged.ts'
import { PagedFooter } from '../../../ui/kit/LoadMoreFooter.tsx'
import { Page } from '../../../ui/Page.tsx'
import { PATHS } from '../../../router/paths.ts'

const route = getRouteApi(PATHS.timingRecord)

const t = devicesText.timing

export default function TimingRecordScreen() {
  const call = useCall()
  const search = route.useSearch()
  const filter = Number(search.userCardId)
  const userCardId = Number.isInteger(filter) && filter > 0 ? filter : undefined
  const fetchPage = useCallback(
    (pageNum: number, pageSize: number) => call('timingRecords', { pageNum, pageSize, ...(userCardId ? { userCardId } : {}) }),
    [call, userCardId],
  )
  const records = usePaged(fetchPage, t.loadFailed)

  return (
    <Page testId="timing-record-page">
      {records.loaded && records.list.length === 0 && <ErrorBlock status="empty" title={devicesText.common.empty} description="" data-testid="timing-empty" />}
      {records.list.map((r) => (
        <section className="dv-section" key={r.id} data-testid="timing-record" data-timer-type={r.timerType}>
          <div className="dv-row">
            <h3>{r.diskName}（{r.userCardId}）</h3>
            <span data-testid="timing-type">{timerTypeLabel(r.timerType)}</span>
          </div>
          <List style={{ '--border-top': 'none', '--border-bottom': 'none' } as React.CSSProperties}>
            <List.Item extra={<span data-testid="timing-duration">{formatDuration(r.durationMinutes)}</span>}>{t.duration}</List.Item>
            <List.Item extra={formatTime(r.startTime)}>{t.start}</List.Item>
            <List.Item extra={formatTime(r.offlineTime)}>{t.offline}</List.Item>
          </List>
        </section>
      ))}
      <PagedFooter paged={records} testId="timing-more" />
    </Page>
  )
}
