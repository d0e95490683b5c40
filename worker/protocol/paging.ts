// Paged lists: how many rows a screen asks for per page, and the bounds the server puts on what it is asked for.
// Schema-free: screens import it.

export interface PageRule {
  /** the page size the screens ask for (and the server's default when none is sent). */
  readonly size: number
  /** the largest page the server returns, whatever is asked. */
  readonly max: number
}

export const PAGES = {
  /** coupons, star coins, activities, transfer and timing records. */
  list: { size: 10, max: 50 },
  notices: { size: 20, max: 100 },
  orders: { size: 20, max: 100 },
} as const satisfies Record<string, PageRule>

/** A request's page as a LIMIT / OFFSET; missing, fractional or out-of-range numbers fall back into bounds. */
export const pageOf = (p: { pageNum?: number | undefined; pageSize?: number | undefined }, rule: PageRule = PAGES.list) => {
  const pageNum = Math.max(1, Math.floor(p.pageNum ?? 1) || 1)
  const pageSize = Math.min(rule.max, Math.max(1, Math.floor(p.pageSize ?? rule.size) || rule.size))
  return { limit: pageSize, offset: (pageNum - 1) * pageSize }
}
