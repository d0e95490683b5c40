// The home's 列表 / 宫格 choice and the wall's columns: a preference of this browser, not of an account (it outlives an
// exit), shared state so every tab shows the same view at once and a reload paints it with the stored list.
import type { CoreEvent, HomeView } from '../events.ts'

export type HomeViewSlice = HomeView

export const HOME_COLUMNS = [2, 3, 4] as const

export const initialHomeView: HomeViewSlice = { mode: 'list', columns: 3 }

export const reduceHomeView = (state: HomeViewSlice, event: CoreEvent): HomeViewSlice =>
  event._tag === 'HomeViewChanged' ? event.view : state

/** A value from another thread or an older stored state, as a view (anything unknown is the default's). */
export const readHomeView = (v: unknown): HomeViewSlice => {
  const o = typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {}
  return {
    mode: o.mode === 'grid' ? 'grid' : 'list',
    columns: (HOME_COLUMNS as ReadonlyArray<unknown>).includes(o.columns) ? (o.columns as HomeViewSlice['columns']) : initialHomeView.columns,
  }
}
