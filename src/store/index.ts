// The tab's one store instance and the React hook screens read it with.
import { useStore } from 'zustand'
import { createAppStore, type AppState } from './app-store.ts'

export type { AppState } from './app-store.ts'

export const appStore = createAppStore()

export const useAppStore = <T,>(selector: (state: AppState) => T): T => useStore(appStore, selector)
