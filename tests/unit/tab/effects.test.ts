import { describe, expect, it } from 'vitest'
import { createEffectHandler, type EffectDeps, type ModalRequest } from '../../../src/boot/effects.ts'
import { EffectEvent } from '../../../worker/protocol/events.ts'
import * as Schema from 'effect/Schema'

/** Fake UI: records what the handler does. */
const fakeUi = (over: Partial<EffectDeps> = {}) => {
  const log: string[] = []
  const modals: Array<{ request: ModalRequest; close: () => void }> = []
  const deps: EffectDeps = {
    toast: (text, ms) => log.push(`toast ${text} ${ms}`),
    navigate: (to, search, replace) => log.push(`navigate ${to} ${JSON.stringify(search)} ${replace}`),
    openModal: (request, onClosed) => modals.push({ request, close: onClosed }),
    clearRepairFlag: () => log.push('clearRepairFlag'),
    ...over,
  }
  return { handle: createEffectHandler(deps), log, modals }
}

describe('effect events in a tab', () => {
  it('shows a toast at once for 2000 ms (a delay is the core\'s: it emits when the time has come)', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'ShowToast', text: '服务器错误' })
    expect(ui.log).toEqual(['toast 服务器错误 2000'])
  })

  it('navigates with the given search and replace flag, whatever the tab\'s repair flag (the core decided)', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'NavigateTo', to: '/pages/login/login', search: { a: '1' }, replace: true })
    ui.handle({ _tag: 'NavigateTo', to: '/pages/index/index', replace: false })
    expect(ui.log).toEqual(['navigate /pages/login/login {"a":"1"} true', 'navigate /pages/index/index {} false'])
  })

  it('does not stack the same modal twice while it is open, and shows it again once closed', () => {
    const ui = fakeUi()
    const modal = { _tag: 'ShowModal', key: 'removeAuth:a', title: '授权取消通知', content: 'c', confirmText: '确定' } as const
    ui.handle(modal)
    ui.handle(modal)
    expect(ui.modals).toHaveLength(1)
    expect(ui.modals[0].request).toMatchObject({ title: '授权取消通知', content: 'c', confirmText: '确定' })
    ui.modals[0].close()
    ui.handle(modal)
    expect(ui.modals).toHaveLength(2)
  })

  it('shows modals with different keys side by side', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'ShowModal', key: 'a', title: 't', content: 'c', confirmText: 'ok' })
    ui.handle({ _tag: 'ShowModal', key: 'b', title: 't', content: 'c', confirmText: 'ok' })
    expect(ui.modals).toHaveLength(2)
  })

  it('clears the repair flag', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'ClearRepairFlag' })
    expect(ui.log).toEqual(['clearRepairFlag'])
  })

  it('the contract has no field the core never sets: delays, cancelable and modal actions are refused', () => {
    const is = Schema.is(EffectEvent)
    expect(is({ _tag: 'ShowToast', text: 'x' })).toBe(true)
    const decode = Schema.decodeUnknownSync(EffectEvent, { onExcessProperty: 'error' })
    expect(() => decode({ _tag: 'ShowToast', text: 'x', delayMs: 0 })).toThrow()
    expect(() => decode({ _tag: 'NavigateTo', to: '/', replace: true, unlessRepairFlagged: true })).toThrow()
    expect(() => decode({ _tag: 'ShowModal', key: 'k', title: 't', content: 'c', confirmText: 'ok', action: 'none' })).toThrow()
  })
})
