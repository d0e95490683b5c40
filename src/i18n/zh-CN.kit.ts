// Strings of the shared list kit (src/ui/kit/).
/** §9 load-more texts, the foot of every paged list (src/ui/kit/LoadMoreFooter.tsx). */
export const loadMore = { more: '加载更多', loading: '正在加载...', noMore: '没有更多了' } as const

/** §9 back-to-top on long lists. */
export const backToTop = '回到顶部'
