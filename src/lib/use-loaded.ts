// One answer read through the core for a screen that shows it (the one-call sibling of use-paged.ts): loaded on mount
// and whenever `fetch` changes (starting from nothing), and again on reload (a retry button, or a refresh after a
// change; what is shown stays until its answer comes). A failed load is an error with the server's message (or the
// screen's own text), never an empty list: "nothing there" and "could not ask" are different news. An answer without
// data (false, §7: the server sent none) is `empty` when the screen names what "none" is (an empty list), else the
// screen's error. The newest request wins.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { CallResult } from '../../worker/protocol/commands.ts'

export interface Loaded<A> {
  /** the last answer, null until the first one came. */
  readonly data: A | null
  /** why the last load failed, null when it did not. */
  readonly error: string | null
  readonly loading: boolean
  reload(): Promise<void>
  /** shows `data` as the answer: a change the server made and answered with the new value. */
  set(data: A): void
}

/** `empty` of a list: no rows sent (§7 empty data) is an empty list. One reference, so it never re-runs a load. */
export const NO_ROWS: ReadonlyArray<never> = []

export const useLoaded = <A,>(fetch: () => Promise<CallResult<A | false>>, fallbackError: string, empty?: A): Loaded<A> => {
  const [state, setState] = useState({ data: null as A | null, error: null as string | null, loading: true })
  const generation = useRef(0)

  const reload = useCallback(async () => {
    const mine = ++generation.current
    setState((s) => ({ ...s, loading: true }))
    const r = await fetch()
    if (mine !== generation.current) return
    const got: { readonly data: A } | null = !r.ok ? null : r.data !== false ? { data: r.data } : empty !== undefined ? { data: empty } : null
    setState((s) => (got !== null ? { data: got.data, error: null, loading: false } : { data: s.data, error: (!r.ok && r.msg) || fallbackError, loading: false }))
  }, [fetch, fallbackError, empty])

  useEffect(() => {
    // a new question (another device, say): the last one's answer is not its answer
    setState((s) => (s.data === null && s.error === null && s.loading ? s : { data: null, error: null, loading: true }))
    void reload()
    // an answer that comes after the screen is gone (or asked something else) is dropped
    return () => { generation.current += 1 }
  }, [reload])

  const set = useCallback((data: A) => {
    generation.current += 1
    setState({ data, error: null, loading: false })
  }, [])

  return { ...state, reload, set }
}
