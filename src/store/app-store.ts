// The tab's zustand store: this tab's copy of the shared state (folded by the one projection in the core client's
// receiver, worker/protocol/projection/) plus the tab-only slice. The state creator is kept apart from `createStore`
// so tests build fresh stores.
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla'
import type { Snapshot } from '../../worker/protocol/commands.ts'
import { initialShared, type SharedState } from '../../worker/protocol/projection/index.ts'
import { afterSessionEnded, initialTab, type TabState } from './tab-slice.ts'

export type { SharedState }

export interface AppState extends SharedState {
  readonly tab: TabState
  /** the shared state after a batch of the core (or a snapshot). */
  setShared(shared: Snapshot): void
  setTab(patch: Partial<TabState>): void
}

export const appStateCreator: StateCreator<AppState> = (set) => ({
  ...initialShared,
  tab: initialTab,
  setShared: (shared) =>
    set((state) => {
      // an exit (or an account change) also clears this tab's own account-bound UI state, in the same update
      const ended = state.session.loggedIn && !shared.session.loggedIn
      const changed = state.session.user?.username !== shared.session.user?.username
      return { ...shared, tab: ended || changed ? afterSessionEnded(state.tab) : state.tab }
    }),
  setTab: (patch) => set((state) => ({ tab: { ...state.tab, ...patch } })),
})

export const createAppStore = (): StoreApi<AppState> => createStore<AppState>()(appStateCreator)
