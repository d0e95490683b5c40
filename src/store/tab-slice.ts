// Tab-only slice: per-tab UI state (§3 client state) that never goes through the core's event log.

export interface TabState {
  readonly currentSlidingKey: string | null
  readonly updateIndex: string | null
  /** isOneClickRepair: a one-click repair is running in this tab (changeCard must not send it home). */
  readonly oneClickRepair: boolean
  /** the card the viewer of this tab shows, reported to the core with the route. */
  readonly viewerCardId: number | null
  /** the stored status bar height (0 on the web), read once at boot for the navigation bar. */
  readonly statusBarHeight: number
}

export const initialTab: TabState = { currentSlidingKey: null, updateIndex: null, oneClickRepair: false, viewerCardId: null, statusBarHeight: 0 }

/** The exit action resets each tab's currentSlidingKey and updateIndex (decisions.md "Several tabs, one session"). */
export const afterSessionEnded = (tab: TabState): TabState =>
  tab.currentSlidingKey === null && tab.updateIndex === null ? tab : { ...tab, currentSlidingKey: null, updateIndex: null }
