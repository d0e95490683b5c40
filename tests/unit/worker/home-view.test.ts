// The home's 列表 / 宫格 view (issue 23 item 1): shared state, so every tab shows the view any tab chose and a reload
// paints it with the stored list; a preference of the browser that outlives an exit.
import { describe, expect, it } from 'vitest'
import * as Effect from 'effect/Effect'
import { makeCoreApi, type CoreServices } from '../../../worker/api/core-api.ts'
import { initialShared, reduce } from '../../../worker/protocol/projection/index.ts'
import { readHomeView } from '../../../worker/protocol/projection/home-view.ts'
import { eventsOf, runCore, settle } from './harness.ts'

const loggedIn = { isUpdate: '1', token: 'tok', dataInfo: { username: 'demo', userType: 1, phone: '138' }, phone: '138' }
const apiFor = Effect.gen(function* () {
  const context = yield* Effect.context<CoreServices>()
  return makeCoreApi((effect) => Effect.runPromiseWith(context)(effect))
})

describe('the home view', () => {
  it('one tab\'s choice reaches every tab as state; the same choice again publishes nothing', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const b = yield* h.addTab('b')
      const api = yield* apiFor
      yield* Effect.promise(() => api.setHomeView({ mode: 'grid', columns: 4 }))
      yield* Effect.promise(() => api.setHomeView({ mode: 'grid', columns: 4 }))
      yield* settle
      for (const tab of [a, b]) {
        expect(tab.receiver.state().homeView).toEqual({ mode: 'grid', columns: 4 })
        expect(eventsOf(tab, 'HomeViewChanged')).toHaveLength(1)
      }
    })))

  it('a malformed view from a tab is refused at the boundary; a stored one reads as the default, field by field', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const api = yield* apiFor
      const refused = yield* Effect.promise(() => api.setHomeView({ mode: 'grid', columns: 9 } as never).then(() => null, (e: Error) => e.message))
      expect(refused).toMatch(/^命令无效（setHomeView）/)
      yield* settle
      expect(a.receiver.state().homeView).toEqual({ mode: 'list', columns: 3 })
      expect(readHomeView('<b>grid</b>')).toEqual({ mode: 'list', columns: 3 })
      expect(readHomeView({ mode: 'wall', columns: 2 })).toEqual({ mode: 'list', columns: 2 })
    })))

  it('a starting core paints the stored view; a state stored before the view existed gets the default', () =>
    Effect.runPromise(Effect.gen(function* () {
      const stored = { ...initialShared, seq: 4, homeView: { mode: 'grid', columns: 2 } as const }
      yield* Effect.promise(() => runCore({ storage: loggedIn, persisted: { generation: 'g1', state: stored } }, (h) => Effect.gen(function* () {
        const tab = yield* h.addTab('a')
        expect(tab.receiver.state().homeView).toEqual({ mode: 'grid', columns: 2 })
      })))
      const older = { ...initialShared, seq: 4, homeView: undefined as never }
      yield* Effect.promise(() => runCore({ storage: loggedIn, persisted: { generation: 'g1', state: older } }, (h) => Effect.gen(function* () {
        const tab = yield* h.addTab('a')
        expect(tab.receiver.state().homeView).toEqual({ mode: 'list', columns: 3 })
      })))
    })))

  it('outlives an exit and a change of account (not the account\'s)', () => {
    const user = { username: 'demo', userType: 1, phone: '138' }
    let s = reduce(initialShared, { _tag: 'SessionChanged', user, phone: user.phone }, 1)
    s = reduce(s, { _tag: 'HomeViewChanged', view: { mode: 'grid', columns: 4 } }, 2)
    expect(reduce(s, { _tag: 'SessionEnded', end: { at: 1, reason: null, notice: null, redirect: true } }, 3).homeView).toEqual({ mode: 'grid', columns: 4 })
    expect(reduce(s, { _tag: 'SessionChanged', user: { ...user, username: 'other' }, phone: null }, 3).homeView).toEqual({ mode: 'grid', columns: 4 })
  })
})
