// The foot of a paged list (§9 texts): 加载更多 to tap, 正在加载... while a page loads, 没有更多了 at the end; it also
// loads the next page by itself when scrolled into view.
import { InfiniteScroll } from 'antd-mobile'
import { zhCN } from '../../i18n/zh-CN.ts'
import type { Paged } from './use-paged.ts'

const t = zhCN.account

export const PagedFooter = ({ paged, testId }: { paged: Paged<{ id: number }>; testId: string }) => (
  <InfiniteScroll hasMore={paged.hasMore} loadMore={() => paged.loadMore()} threshold={120}>
    <div className="ac-footer" data-testid={testId}>
      {paged.loading ? t.loading
        : paged.error ? <button type="button" onClick={() => void paged.loadMore()}>{t.loadMore}</button>
        : paged.hasMore ? <button type="button" onClick={() => void paged.loadMore()}>{t.loadMore}</button>
        : t.noMore}
    </div>
  </InfiniteScroll>
)
