// The foot of every paged list (§9): 加载更多 to tap (and loaded by itself when scrolled into view), 正在加载...
// only while a page is on its way, 没有更多了 at the end; with the back-to-top button a long list needs.
import { InfiniteScroll } from 'antd-mobile'
import { zhCN } from '../../i18n/zh-CN.ts'
import type { Paged } from '../../lib/use-paged.ts'
import { BackToTop } from './BackToTop.tsx'

const t = zhCN.loadMore

export interface LoadMoreFooterProps {
  /** further pages exist (false after a failed page too: its retry is the tap). */
  readonly hasMore: boolean
  /** a page is on its way. */
  readonly loading: boolean
  /** the last page failed: offer 加载更多 again without loading by itself. */
  readonly failed?: boolean
  readonly onLoadMore: () => Promise<void>
  readonly testId?: string
}

export const LoadMoreFooter = ({ hasMore, loading, failed = false, onLoadMore, testId }: LoadMoreFooterProps) => {
  const state = loading ? 'loading' : hasMore || failed ? 'more' : 'end'
  return (
    <>
      <InfiniteScroll hasMore={hasMore && !failed} loadMore={onLoadMore} threshold={120}>
        <div className="kit-load-more" data-testid={testId} data-state={state}>
          {state === 'loading' ? t.loading
            : state === 'more' ? <button type="button" onClick={() => void onLoadMore()}>{t.more}</button>
            : t.noMore}
        </div>
      </InfiniteScroll>
      <BackToTop />
    </>
  )
}

/** The footer of a list read with usePaged. */
export const PagedFooter = ({ paged, testId }: { paged: Paged<unknown>; testId?: string }) => (
  <LoadMoreFooter hasMore={paged.hasMore} loading={paged.loading} failed={paged.error !== null} onLoadMore={paged.loadMore} testId={testId} />
)
