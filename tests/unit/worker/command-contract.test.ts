// The command contract (worker/protocol/commands.ts): every command declared once, with request and result schemas;
// the worker implements exactly those commands, the replay rule covers exactly those, and what the core answers
// conforms to the declared result schemas.
import { describe, expect, it } from 'vitest'
import * as Effect from 'effect/Effect'
import * as Schema from 'effect/Schema'
import * as TestClock from 'effect/testing/TestClock'
import { makeCoreApi, type CoreServices } from '../../../worker/api/core-api.ts'
import { commands, type CommandName } from '../../../worker/protocol/commands.ts'
import { COMMAND_ON_DEATH, REPLY_COMMANDS } from '../../../worker/protocol/on-death.ts'
import { EventHub, ok, runCore, settle } from './harness.ts'

const names = Object.keys(commands).sort()
const apiFor = Effect.gen(function* () {
  const context = yield* Effect.context<CoreServices>()
  return makeCoreApi((effect) => Effect.runPromiseWith(context)(effect))
})
const fakePort = () => ({ postMessage: () => {}, onmessage: null, close: () => {} }) as unknown as MessagePort
const hello = { tabId: 'tab-1', channelCode: null, route: { path: '/pages/index/index', search: {} }, visible: false, launch: false }
const conforms = (name: CommandName, value: unknown) => {
  const result = Schema.decodeUnknownResult(commands[name].result as Schema.Codec<unknown, unknown>)(value)
  if (result._tag === 'Failure') throw new Error(`${name} answered outside its result schema: ${result.failure.message}\n${JSON.stringify(value)}`)
}

describe('the command contract', () => {
  it('declares every command with a request tuple schema and a result schema', () => {
    expect(names.length).toBeGreaterThan(20)
    for (const name of names as Array<CommandName>) {
      const c = commands[name]
      expect(Schema.isSchema(c.request), name).toBe(true)
      expect(Schema.isSchema(c.result), name).toBe(true)
      // the request is the argument list: a tuple (a non-array is never a command's arguments)
      expect(Schema.is(c.request)({}), name).toBe(false)
    }
    expect(Object.keys(commands)).toContain('resetPassword')
  })

  it('the worker implements exactly the declared commands, and the replay rule decides for each', () => {
    const api = makeCoreApi(() => Promise.reject(new Error('not run')))
    expect(Object.keys(api).sort()).toEqual(names)
    expect(Object.keys(COMMAND_ON_DEATH).sort()).toEqual(names)
  })

  it('the Reply commands are exactly those whose result schema is a CallResult with seq', () => {
    const failure = { ok: false, status: 0, msg: '', silent: false }
    const replyShaped = names.filter((n) => {
      const is = Schema.is(commands[n as CommandName].result)
      // a Reply: takes a failure with seq, refuses one without and a bare Ack (Void takes everything)
      return is({ ...failure, seq: 0 }) && !is(failure) && !is({ seq: 0 }) && !is('pong')
    })
    expect(replyShaped.sort()).toEqual([...REPLY_COMMANDS].sort())
  })

  it('what the core answers conforms to the declared result schemas', () =>
    runCore({ storage: { isUpdate: '1', deviceStatId: 'dev-1' } }, (h) => Effect.gen(function* () {
      h.routes['/api/user/v5/clientLogin/applet/quickLogin'] = () => ok({ token: 'T', username: 'u1', userType: 1, phone: '13500135000' })
      const api = yield* apiFor
      conforms('attach', yield* Effect.promise(() => api.attach(hello, { generation: null, state: null }, fakePort())))
      conforms('lifeLock', yield* Effect.promise(() => api.lifeLock()))
      conforms('ping', yield* Effect.promise(() => api.ping()))
      const login = yield* Effect.promise(() => api.loginWithCode({ phone: '13500135000', code: '123456' }))
      conforms('loginWithCode', login)
      expect(login.seq).toBeGreaterThan(0)
      yield* settle
      conforms('refreshDevices', yield* Effect.promise(() => api.refreshDevices()))
      conforms('call', yield* Effect.promise(() => api.call('getPbKey')))
      conforms('getLocal', yield* Effect.promise(() => api.getLocal('path')))
      conforms('exportLog', yield* Effect.promise(() => api.exportLog()))
      const out = yield* Effect.promise(() => api.logout())
      conforms('logout', out)
      // the logout's answer names the log head it left: its SessionEnded is at or below it
      expect(out.seq).toBeGreaterThan(login.seq)
      expect((yield* EventHub).snapshot().session.loggedIn).toBe(false)
      yield* TestClock.adjust(1000)
    })))
})
