// A paged list read through the core: page 1 on mount (and on reload, and whenever `fetchPage` changes), the next
// page on demand; the newest request wins, so a reload during a page load drops that page. Rows are told apart by
// `keyOf` (default: id), so a row that moved to the next page while paging is not shown twice.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { CallResult } from '../../worker/protocol/commands.ts'
import { PAGES } from '../../worker/protocol/paging.ts'

export interface Paged<A> {
  readonly list: ReadonlyArray<A>
  readonly total: number
  readonly loading: boolean
  readonly error: string | null
  readonly loaded: boolean
  readonly hasMore: boolean
  loadMore(): Promise<void>
  reload(): Promise<void>
}

const byId = (row: unknown): unknown => (row as { id: unknown }).id

export const usePaged = <A,>(
  /** a page; no data (false, §7) is an empty page. */
  fetchPage: (pageNum: number, pageSize: number) => Promise<CallResult<{ readonly list: ReadonlyArray<A>; readonly total: number } | false>>,
  fallbackError: string,
  keyOf: (row: A) => unknown = byId,
): Paged<A> => {
  const [state, setState] = useState({ list: [] as ReadonlyArray<A>, total: 0, page: 0, loading: false, error: null as string | null })
  const generation = useRef(0)
  const busy = useRef(false)

  const load = useCallback(async (page: number) => {
    const mine = ++generation.current
    busy.current = true
    setState((s) => ({ ...s, loading: true }))
    const r = await fetchPage(page, PAGES.list.size)
    if (mine !== generation.current) return
    busy.current = false
    if (!r.ok) return setState((s) => ({ ...s, loading: false, error: r.msg || fallbackError }))
    const got = r.data || { list: [], total: 0 }
    setState((s) => ({
      list: page === 1 ? got.list : [...s.list, ...got.list.filter((n) => !s.list.some((p) => keyOf(p) === keyOf(n)))],
      total: got.total,
      page,
      loading: false,
      error: null,
    }))
  }, [fetchPage, fallbackError, keyOf])

  // another list (a new fetchPage, e.g. another tab of the screen) starts empty rather than showing the last one's rows
  useEffect(() => {
    setState({ list: [], total: 0, page: 0, loading: true, error: null })
    void load(1)
  }, [load])

  const more = state.page === 0 || state.list.length < state.total
  const hasMore = state.page > 0 && more && state.error === null
  return {
    list: state.list,
    total: state.total,
    loading: state.loading,
    error: state.error,
    loaded: state.page > 0,
    hasMore,
    // after a failure this is the retry of the page that failed
    loadMore: () => (busy.current || !more ? Promise.resolve() : load(state.page + 1)),
    reload: () => load(1),
  }
}
