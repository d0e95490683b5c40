import { describe, expect, it } from 'vitest'
import { createEffectHandler, type EffectDeps, type ModalRequest } from '../../../src/boot/effects.ts'

/** Fake UI: records what the handler does; scheduled work runs when the test calls flush(). */
const fakeUi = (over: Partial<EffectDeps> = {}) => {
  const log: string[] = []
  const modals: Array<{ request: ModalRequest; close: () => void }> = []
  const pending: Array<{ ms: number; run: () => void }> = []
  let path = '/pages/index/index'
  let repairFlag = false
  const deps: EffectDeps = {
    toast: (text, ms) => log.push(`toast ${text} ${ms}`),
    navigate: (to, search, replace) => log.push(`navigate ${to} ${JSON.stringify(search)} ${replace}`),
    currentPath: () => path,
    openModal: (request, onClosed) => modals.push({ request, close: onClosed }),
    isRepairFlagged: () => repairFlag,
    clearRepairFlag: () => log.push('clearRepairFlag'),
    exitFromMaintenance: () => log.push('exitFromMaintenance'),
    schedule: (run, ms) => void pending.push({ ms, run }),
    ...over,
  }
  return {
    handle: createEffectHandler(deps), log, modals, pending,
    flush: () => pending.splice(0).forEach((p) => p.run()),
    setPath: (p: string) => (path = p),
    setRepair: (v: boolean) => (repairFlag = v),
  }
}

describe('effect events in a tab', () => {
  it('shows a toast after its delay for 2000 ms', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'ShowToast', text: '账号已在别处登录！', delayMs: 500 })
    expect(ui.log).toEqual([])
    expect(ui.pending[0].ms).toBe(500)
    ui.flush()
    expect(ui.log).toEqual(['toast 账号已在别处登录！ 2000'])
  })

  it('shows a toast without delay at once', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'ShowToast', text: '服务器错误', delayMs: 0 })
    expect(ui.log).toEqual(['toast 服务器错误 2000'])
  })

  it('navigates after the delay with the given search and replace flag', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'NavigateTo', to: '/pages/login/login', search: { a: '1' }, replace: true, delayMs: 500 })
    ui.flush()
    expect(ui.log).toEqual(['navigate /pages/login/login {"a":"1"} true'])
  })

  it('does not navigate home when the tab flagged a one-click repair before the delay ended', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'NavigateTo', to: '/pages/index/index', replace: true, delayMs: 1500, unlessRepairFlagged: true })
    ui.setRepair(true)
    ui.flush()
    expect(ui.log).toEqual([])
  })

  it('navigates despite the repair flag when the event does not ask to respect it', () => {
    const ui = fakeUi()
    ui.setRepair(true)
    ui.handle({ _tag: 'NavigateTo', to: '/pages/index/index', replace: false, delayMs: 0 })
    expect(ui.log).toEqual(['navigate /pages/index/index {} false'])
  })

  it('does not stack the same modal twice while it is open, and shows it again once closed', () => {
    const ui = fakeUi()
    const modal = { _tag: 'ShowModal', key: 'maintenance:1', title: '提示', content: '维护中', confirmText: '确定', action: 'none', delayMs: 0 } as const
    ui.handle(modal)
    ui.handle(modal)
    expect(ui.modals).toHaveLength(1)
    ui.modals[0].close()
    ui.handle(modal)
    expect(ui.modals).toHaveLength(2)
  })

  it('shows modals with different keys side by side', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'ShowModal', key: 'a', title: 't', content: 'c', confirmText: 'ok', action: 'none', delayMs: 0 })
    ui.handle({ _tag: 'ShowModal', key: 'b', title: 't', content: 'c', confirmText: 'ok', action: 'none', delayMs: 0 })
    expect(ui.modals).toHaveLength(2)
  })

  it('a forced-offline modal relaunches login on confirm', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'ShowModal', key: 'forcedOffline', title: '提示', content: '您的账号已下线', confirmText: '去登录', action: 'relaunchLogin', delayMs: 0 })
    expect(ui.modals[0].request).toMatchObject({ title: '提示', content: '您的账号已下线', confirmText: '去登录' })
    ui.modals[0].request.onConfirm()
    expect(ui.log).toEqual(['navigate /pages/login/login {} true'])
  })

  it('the maintenance modal exits on confirm unless the tab is on login', () => {
    const ui = fakeUi()
    const modal = { _tag: 'ShowModal', key: 'm', title: '提示', content: 'x', confirmText: '确定', action: 'exitUnlessOnLogin', delayMs: 0 } as const
    ui.handle(modal)
    ui.modals[0].request.onConfirm()
    expect(ui.log).toEqual(['exitFromMaintenance'])
    ui.modals[0].close()
    ui.setPath('/pages/login/login')
    ui.handle(modal)
    ui.modals[1].request.onConfirm()
    expect(ui.log).toEqual(['exitFromMaintenance'])
  })

  it('opens a delayed modal (removeAuth) only after its delay', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'ShowModal', key: 'removeAuth', title: '授权取消通知', content: 'c', confirmText: '确定', action: 'none', delayMs: 500 })
    expect(ui.modals).toHaveLength(0)
    ui.flush()
    expect(ui.modals).toHaveLength(1)
  })

  it('clears the repair flag', () => {
    const ui = fakeUi()
    ui.handle({ _tag: 'ClearRepairFlag' })
    expect(ui.log).toEqual(['clearRepairFlag'])
  })
})
