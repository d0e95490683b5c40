// The avatar every tab shows (issue 8): a tab's successful getHeadPortrait becomes shared state (AvatarChanged,
// folded by the one projection), so every other tab shows a new avatar at once; it belongs to the account.
import * as Effect from 'effect/Effect'
import { describe, expect, it } from 'vitest'
import { avatarEventOf } from '../../../worker/account/head-portrait.ts'
import { makeCoreApi, type CoreServices } from '../../../worker/api/core-api.ts'
import { initialShared, reduce } from '../../../worker/protocol/projection/index.ts'
import { eventsOf, ok, runCore, settle } from '../worker/harness.ts'

const loggedIn = { isUpdate: '1', token: 'tok', dataInfo: { username: 'demo', userType: 1, phone: '13800138000' }, phone: '13800138000' }
const PORTRAIT = '/api/user/v5/user/getHeadPortrait'
const apiFor = Effect.gen(function* () {
  const context = yield* Effect.context<CoreServices>()
  return makeCoreApi((effect) => Effect.runPromiseWith(context)(effect))
})

describe('shared avatar', () => {
  it('a getHeadPortrait answered to one tab reaches every tab, once, and only when it changed', () =>
    runCore({ storage: loggedIn, routes: { [PORTRAIT]: () => ok({ headPortrait: 'http://127.0.0.1/api/a1.png' }) } }, (h) => Effect.gen(function* () {
      const other = yield* h.addTab('other')
      const api = yield* apiFor
      yield* Effect.promise(() => api.call('getHeadPortrait'))
      yield* Effect.promise(() => api.call('getHeadPortrait'))
      yield* settle
      expect(eventsOf(other, 'AvatarChanged')).toEqual([{ _tag: 'AvatarChanged', url: 'http://127.0.0.1/api/a1.png' }])
      expect(other.receiver.state().avatar).toBe('http://127.0.0.1/api/a1.png')
      h.routes[PORTRAIT] = () => ok({ headPortrait: 'http://127.0.0.1/api/a2.png' })
      yield* Effect.promise(() => api.call('getHeadPortrait'))
      yield* settle
      expect(other.receiver.state().avatar).toBe('http://127.0.0.1/api/a2.png')
    })))

  it('keeps only an http(s) URL; a failure or another endpoint changes nothing', () => {
    const ok1 = (headPortrait: unknown) => ({ ok: true as const, data: { headPortrait } })
    expect(avatarEventOf('getHeadPortrait', ok1('javascript:alert(1)'), { ...initialShared, avatar: 'https://x/a.png' }))
      .toEqual({ _tag: 'AvatarChanged', url: null })
    expect(avatarEventOf('getHeadPortrait', ok1(null), initialShared)).toBeNull()
    expect(avatarEventOf('getHeadPortrait', { ok: true, data: false }, initialShared)).toBeNull()
    expect(avatarEventOf('getHeadPortrait', { ok: false, status: 500, msg: '', silent: false }, initialShared)).toBeNull()
    expect(avatarEventOf('leftInfo', ok1('https://x/a.png'), initialShared)).toBeNull()
  })

  it('is the account\'s: an exit or another account clears it', () => {
    const user = { username: 'demo', userType: 1, phone: '13800138000' }
    let s = reduce(initialShared, { _tag: 'SessionChanged', user, phone: user.phone }, 1)
    s = reduce(s, { _tag: 'AvatarChanged', url: 'https://x/a.png' }, 2)
    expect(s.avatar).toBe('https://x/a.png')
    expect(reduce(s, { _tag: 'SessionEnded', end: { at: 1, reason: null, notice: null, redirect: true } }, 3).avatar).toBeNull()
    expect(reduce(s, { _tag: 'SessionChanged', user: { ...user, username: 'other' }, phone: user.phone }, 3).avatar).toBeNull()
    // a state persisted before the slice existed reads as no avatar
    expect(reduce({ ...s, avatar: undefined as never }, { _tag: 'CounterIncremented', kind: 'coupon' }, 3).avatar).toBeNull()
  })
})
