import { describe, expect, it } from 'vitest'
import { createAppStore } from '../../../src/store/app-store.ts'
import { initialShared } from '../../../worker/protocol/projection/index.ts'
import { snapshot } from './fixtures.ts'

const loggedOut = { ...snapshot(), session: { loggedIn: false, user: null, phone: null, ended: { at: 1, reason: null, notice: null, redirect: true } } }

describe('the app store', () => {
  it('takes the shared state as the core client folded it', () => {
    const store = createAppStore()
    store.getState().setShared(snapshot({ seq: 10, systemName: 'A' }))
    expect(store.getState()).toMatchObject({ seq: 10, systemName: 'A' })
  })

  it('keeps the tab-only slice across shared states of the same session', () => {
    const store = createAppStore()
    store.getState().setShared(snapshot())
    store.getState().setTab({ oneClickRepair: true, viewerCardId: 42, currentSlidingKey: '101', updateIndex: 'my' })
    store.getState().setShared(snapshot({ seq: 8, announcementActive: false }))
    expect(store.getState().tab).toMatchObject({ oneClickRepair: true, viewerCardId: 42, currentSlidingKey: '101', updateIndex: 'my' })
  })

  it('an exit resets this tab\'s currentSlidingKey and updateIndex in the same update', () => {
    const store = createAppStore()
    store.getState().setShared(snapshot())
    store.getState().setTab({ currentSlidingKey: '101', updateIndex: 'my', viewerCardId: 42 })
    const seen: Array<unknown> = []
    store.subscribe((s) => seen.push([s.session.loggedIn, s.tab.currentSlidingKey]))
    store.getState().setShared(loggedOut)
    expect(store.getState().tab).toMatchObject({ currentSlidingKey: null, updateIndex: null, viewerCardId: 42 })
    expect(seen).toEqual([[false, null]])
  })

  it('builds independent stores', () => {
    const a = createAppStore()
    const b = createAppStore()
    a.getState().setTab({ updateIndex: 'my' })
    expect(b.getState().tab.updateIndex).toBeNull()
    expect(b.getState().seq).toBe(initialShared.seq)
  })
})
