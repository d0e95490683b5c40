// The tab's zustand store: the shared projection plus the tab-only slice. The state creator is kept apart from
// `createStore` so tests build fresh stores.
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla'
import type { EventBatch } from '../../worker/protocol/events.ts'
import type { Snapshot } from '../../worker/protocol/commands.ts'
import { applyBatch, fromSnapshot, initialShared, type SharedState } from './shared-state.ts'
import { initialTab, type TabState } from './slices/tab.ts'

export interface AppState extends SharedState {
  readonly tab: TabState
  applyBatch(batch: EventBatch): void
  loadSnapshot(snapshot: Snapshot): void
  setTab(patch: Partial<TabState>): void
}

export const appStateCreator: StateCreator<AppState> = (set) => ({
  ...initialShared,
  tab: initialTab,
  applyBatch: (batch) =>
    set((state) => {
      const next = applyBatch(state, batch)
      return next === state ? state : next
    }),
  loadSnapshot: (snapshot) => set(fromSnapshot(snapshot)),
  setTab: (patch) => set((state) => ({ tab: { ...state.tab, ...patch } })),
})

export const createAppStore = (): StoreApi<AppState> => createStore<AppState>()(appStateCreator)
