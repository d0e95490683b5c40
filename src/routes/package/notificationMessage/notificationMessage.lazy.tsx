// /package/notificationMessage/notificationMessage: the user's notices newest first with read/unread marks, paged,
// pull to refresh; opening one shows it in full (as text) and marks it read.
import { Button, Dialog, ErrorBlock, List, PullToRefresh, Skeleton } from 'antd-mobile'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { Notice } from '../../../../worker/protocol/messages.ts'
import { formatTime } from '../../../features/devices/format-time.ts'
import { useCall } from '../../../core/use-call.ts'
import { zhCN } from '../../../i18n/zh-CN.ts'
import { LoadMoreFooter } from '../../../ui/kit/LoadMoreFooter.tsx'
import { Page } from '../../../ui/Page.tsx'
import './notificationMessage.css'
import { PAGES } from '../../../../worker/protocol/paging.ts'

const t = zhCN.notices

interface Loaded {
  readonly list: ReadonlyArray<Notice>
  readonly total: number
  readonly page: number
}

export default function NotificationMessageScreen() {
  const call = useCall()
  const [data, setData] = useState<Loaded | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  // the newest request wins: a refresh during a page load drops that page
  const generation = useRef(0)

  const load = useCallback(
    async (page: number) => {
      const mine = ++generation.current
      setLoading(true)
      const r = await call('noticeAll', { pageNum: page, pageSize: PAGES.notices.size })
      if (mine !== generation.current) return
      setLoading(false)
      if (!r.ok) {
        setError(r.msg || t.loadFailed)
        return
      }
      setError(null)
      const got = r.data ? r.data : { list: [], total: 0 }
      setData((prev) => ({
        list: page === 1 || prev === null ? got.list : [...prev.list, ...got.list.filter((n) => !prev.list.some((p) => p.id === n.id))],
        total: got.total,
        page,
      }))
    },
    [call],
  )

  useEffect(() => {
    void load(1)
  }, [load])

  const open = (notice: Notice) => {
    if (notice.readStatus === 0) {
      setData((prev) => prev && { ...prev, list: prev.list.map((n) => (n.id === notice.id ? { ...n, readStatus: 1 } : n)) })
      void call('readNotice', { id: notice.id })
    }
    Dialog.alert({
      title: notice.title,
      content: (
        <div className="notice-detail" data-testid="notice-detail" data-id={notice.id}>
          <div className="notice-detail-time">{formatTime(notice.ctime)}</div>
          <div className="notice-detail-text">{notice.content}</div>
        </div>
      ),
      confirmText: t.close,
    })
  }

  const more = data !== null && data.list.length < data.total
  const hasMore = more && error === null
  const body =
    data === null && error !== null ? (
      <div className="center-state" data-testid="notices-error">
        <ErrorBlock status="default" title={t.loadFailed} description={error} />
        <Button color="primary" fill="outline" onClick={() => void load(1)}>{zhCN.app.retry}</Button>
      </div>
    ) : data === null ? (
      <div className="notices-loading" data-testid="notices-loading"><Skeleton.Paragraph lineCount={6} animated /></div>
    ) : data.list.length === 0 ? (
      <div className="center-state" data-testid="notices-empty">
        <ErrorBlock status="empty" title={t.empty} description={t.emptyHint} />
      </div>
    ) : (
      <>
        <List className="notices-list" data-testid="notices-list" data-total={data.total}>
          {data.list.map((n) => (
            <List.Item
              key={n.id}
              data-testid="notice-item"
              data-id={n.id}
              data-read={n.readStatus === 1}
              onClick={() => open(n)}
              prefix={<span className={n.readStatus === 1 ? 'notice-dot notice-dot-read' : 'notice-dot'} role="img" aria-label={n.readStatus === 1 ? t.read : t.unread} />}
              title={
                <span className="notice-meta">
                  <span className={n.noticeType === 1 ? 'notice-kind notice-kind-announcement' : 'notice-kind'}>
                    {n.noticeType === 1 ? t.announcement : t.notice}
                  </span>
                  <span>{formatTime(n.ctime)}</span>
                </span>
              }
              description={<span className="notice-preview">{n.content}</span>}
            >
              <span className={n.readStatus === 1 ? 'notice-title notice-title-read' : 'notice-title'}>{n.title}</span>
            </List.Item>
          ))}
        </List>
        <LoadMoreFooter hasMore={hasMore} loading={loading} failed={more && error !== null} onLoadMore={() => load(data.page + 1)} testId="notices-more" />
      </>
    )

  return (
    <Page testId="notices-page">
      <PullToRefresh
        onRefresh={() => load(1)}
        pullingText={zhCN.home.pullIdle}
        canReleaseText={zhCN.home.pullCanRelease}
        refreshingText={zhCN.home.pullRefreshing}
        completeText={zhCN.home.pullComplete}
      >
        <div className="notices-body">{body}</div>
      </PullToRefresh>
    </Page>
  )
}
