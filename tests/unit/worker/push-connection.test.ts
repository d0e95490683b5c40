import { describe, expect, it } from 'vitest'
import * as Effect from 'effect/Effect'
import * as TestClock from 'effect/testing/TestClock'
import { PushConnection } from '../../../worker/push/push-connection.ts'
import { ExitAction } from '../../../worker/session/exit-action.ts'
import { SessionState } from '../../../worker/session/session-state.ts'
import { eventsOf, runCore, settle, TabRegistry } from './harness.ts'

const loggedIn = { isUpdate: '1', token: 'tok', dataInfo: { username: 'demo', userType: 1, phone: '138' }, phone: '138', deviceStatId: 'dev-1' }
const keepAlives = (sent: Array<string>) => sent.filter((s) => JSON.parse(s).type === 'keepAlive').length

describe('push connection', () => {
  it('opens only when a tab is visible and a token and username exist, with deviceId, username and Authorization', () =>
    runCore({ storage: loggedIn, config: { apiBaseUrl: 'https://api.test' } }, (h) => Effect.gen(function* () {
      yield* PushConnection
      yield* h.addTab('hidden', { visible: false })
      yield* settle
      expect(h.sockets).toHaveLength(0)
      ;(yield* TabRegistry).setVisible('hidden', true)
      yield* settle
      expect(h.sockets).toHaveLength(1)
      const url = h.sockets[0].url
      expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('wss://api.test/push')
      expect(Object.fromEntries(url.searchParams)).toEqual({ deviceId: 'dev-1', username: 'demo', Authorization: 'tok' })
    })))

  it('does not open for a visitor', () =>
    runCore({ storage: { isUpdate: '1' } }, (h) => Effect.gen(function* () {
      yield* PushConnection
      yield* h.addTab('a')
      yield* settle
      expect(h.sockets).toHaveLength(0)
    })))

  it('sends keepAlive on open and every 8000 ms', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      yield* PushConnection
      yield* h.addTab('a')
      yield* settle
      h.sockets[0].open()
      expect(keepAlives(h.sockets[0].sent)).toBe(1)
      yield* TestClock.adjust(7999)
      expect(keepAlives(h.sockets[0].sent)).toBe(1)
      yield* TestClock.adjust(1)
      expect(keepAlives(h.sockets[0].sent)).toBe(2)
      yield* TestClock.adjust(16000)
      expect(keepAlives(h.sockets[0].sent)).toBe(4)
    })))

  it('closes when the last visible tab hides and when a tab that held visibility is gone', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      yield* PushConnection
      const tabs = yield* TabRegistry
      yield* h.addTab('a')
      yield* h.addTab('b')
      yield* settle
      h.sockets[0].open()
      tabs.setVisible('a', false)
      expect(h.sockets[0].closed).toBe(false)
      h.gone('b')
      expect(h.sockets[0].closed).toBe(true)
      yield* TestClock.adjust(60_000)
      yield* settle
      expect(h.sockets).toHaveLength(1)
    })))

  it('stops the heartbeat on an error and reconnects every 20000 ms, at most 5 attempts', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      yield* PushConnection
      yield* settle
      h.sockets[0].open()
      h.sockets[0].drop()
      yield* TestClock.adjust(8000)
      expect(keepAlives(h.sockets[0].sent)).toBe(1)
      for (let attempt = 1; attempt <= 5; attempt++) {
        yield* TestClock.adjust(19_999 - (attempt === 1 ? 8000 : 0))
        yield* settle
        expect(h.sockets).toHaveLength(attempt)
        yield* TestClock.adjust(1)
        yield* settle
        expect(h.sockets).toHaveLength(attempt + 1)
        h.sockets[attempt].drop()
      }
      yield* TestClock.adjust(200_000)
      yield* settle
      expect(h.sockets).toHaveLength(6)
      const statuses = eventsOf(a, 'PushStatusChanged')
      expect(statuses.at(-1)).toEqual({ _tag: 'PushStatusChanged', status: 'closed', reconnectAttempts: 5 })
    })))

  it('a successful open resets the reconnect budget', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      yield* h.addTab('a')
      yield* PushConnection
      yield* settle
      h.sockets[0].drop()
      for (let i = 1; i <= 4; i++) {
        yield* TestClock.adjust(20_000)
        yield* settle
        h.sockets[i].drop()
      }
      yield* TestClock.adjust(20_000)
      yield* settle
      h.sockets[5].open()
      expect((yield* PushConnection).stats().reconnectAttempts).toBe(0)
      h.sockets[5].drop()
      for (let i = 6; i <= 10; i++) {
        yield* TestClock.adjust(20_000)
        yield* settle
        expect(h.sockets).toHaveLength(i + 1)
        h.sockets[i].drop()
      }
      yield* TestClock.adjust(100_000)
      yield* settle
      expect(h.sockets).toHaveLength(11)
    })))

  it('makes no attempt once the session has ended', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      yield* h.addTab('a')
      yield* PushConnection
      yield* settle
      h.sockets[0].open()
      h.sockets[0].drop()
      yield* (yield* ExitAction).run({ redirect: false })
      yield* TestClock.adjust(100_000)
      yield* settle
      expect(h.sockets).toHaveLength(1)
    })))

  it('drops and counts malformed frames without crashing', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      const a = yield* h.addTab('a')
      const push = yield* PushConnection
      yield* settle
      h.sockets[0].open()
      for (const bad of ['not json', '42', '{"type":"nope"}', '{"type":"removeAuth","data":5}', '{"type":"changeCard","data":{"diskName":3}}']) {
        h.sockets[0].receive(bad)
      }
      h.sockets[0].receive({ type: 'keepAlive', data: {} })
      h.sockets[0].receive({ type: 'systemAnnouncementMsg', data: null })
      yield* settle
      expect(push.stats().droppedFrames).toBe(5)
      expect(eventsOf(a, 'AnnouncementFlagChanged')).toEqual([{ _tag: 'AnnouncementFlagChanged', active: true }])
    })))

  const exhaust = (h: { sockets: Array<{ drop: (code?: number) => void }> }) => Effect.gen(function* () {
    h.sockets[0].drop()
    for (let i = 1; i <= 5; i++) {
      yield* TestClock.adjust(20_000)
      yield* settle
      h.sockets[i].drop()
    }
    yield* TestClock.adjust(100_000)
    yield* settle
  })

  it('after the 5 attempts, a tab opening, closing or changing route starts no more (decisions.md)', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      yield* h.addTab('a')
      yield* PushConnection
      yield* settle
      yield* exhaust(h)
      expect(h.sockets).toHaveLength(6)
      yield* h.addTab('b')
      ;(yield* TabRegistry).setRoute('a', { path: '/package/setUp/setUp', search: {} })
      h.gone('b')
      yield* TestClock.adjust(100_000)
      yield* settle
      expect(h.sockets).toHaveLength(6)
    })))

  it('after the 5 attempts, the app shown again (no visible tab, then one) gets a whole new budget', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      yield* h.addTab('a')
      yield* PushConnection
      yield* settle
      yield* exhaust(h)
      const tabs = yield* TabRegistry
      tabs.setVisible('a', false)
      tabs.setVisible('a', true)
      yield* settle
      expect(h.sockets).toHaveLength(7)
    })))

  it('a new session follows with its own socket and a whole budget; the old one is closed', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      yield* h.addTab('a')
      yield* PushConnection
      yield* settle
      h.sockets[0].open()
      const exit = yield* ExitAction
      yield* exit.run({ redirect: false })
      const session = yield* SessionState
      session.set('tok2', 'other')
      yield* settle
      expect(h.sockets[0].closed).toBe(true)
      expect(h.sockets).toHaveLength(2)
      expect(h.sockets[1].url.searchParams.get('username')).toBe('other')
      expect(h.sockets[1].url.searchParams.get('Authorization')).toBe('tok2')
    })))

  it('a server instance going away on purpose (close 1012) is reconnected without spending an attempt', () =>
    runCore({ storage: loggedIn }, (h) => Effect.gen(function* () {
      yield* h.addTab('a')
      const push = yield* PushConnection
      yield* settle
      h.sockets[0].open()
      h.sockets[0].drop(1012)
      yield* TestClock.adjust(20_000)
      yield* settle
      expect(h.sockets).toHaveLength(2)
      expect(push.stats().reconnectAttempts).toBe(0)
    })))
})
