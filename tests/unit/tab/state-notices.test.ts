import { describe, expect, it } from 'vitest'
import { createStateNotices } from '../../../src/boot/state-notices.ts'
import { RECENT_EXIT_MS, TOAST_DURATION_MS } from '../../../worker/protocol/constants.ts'
import type { Snapshot } from '../../../worker/protocol/commands.ts'
import type { SessionEnd } from '../../../worker/protocol/events.ts'
import { snapshot } from './fixtures.ts'

const ui = (now = 10_000, seen: Set<number> = new Set()) => {
  const log: string[] = []
  /** what the page scheduled; `elapse` runs it (a page that reloads first never does). */
  const pending: Array<{ run: () => void; ms: number }> = []
  const notices = createStateNotices({
    toast: (t) => log.push(`toast ${t}`),
    forcedOffline: (c) => log.push(`forcedOffline ${c}`),
    maintenance: (m) => log.push(`maintenance ${m.maintenanceContent}`),
    navigateToLogin: () => log.push('login'),
    seen: { has: (at) => seen.has(at), add: (at) => void seen.add(at) },
    now: () => now,
    schedule: (run, ms) => void pending.push({ run, ms }),
  })
  const elapse = (ms: number) => pending.filter((p) => p.ms <= ms).forEach((p) => p.run())
  return { log, notices, seen, elapse }
}
const endedAt = (end: Partial<SessionEnd>): Snapshot =>
  snapshot({ session: { loggedIn: false, user: null, phone: null, ended: { at: 9_000, reason: null, notice: null, redirect: true, ...end } } })
const maintenance = (on: boolean, period: number, content = '维护中'): Snapshot =>
  snapshot({ maintenance: { msg: { maintenanceSwitch: on, maintenanceContent: content, showTime: '12:00' }, period } })

describe('notices every tab raises from the shared state', () => {
  it('a live exit with a reason: the toast, once; the core\'s NavigateTo does the redirect', () => {
    const t = ui()
    t.notices(endedAt({ reason: '登录失效，请重新登录！' }), true)
    t.notices(endedAt({ reason: '登录失效，请重新登录！' }), true)
    expect(t.log).toEqual(['toast 登录失效，请重新登录！'])
  })

  it('a tab that attaches (or reloads) shortly after an exit is told why and goes to login itself', () => {
    const t = ui()
    t.notices(endedAt({ reason: '账号已在别处登录！' }), false)
    expect(t.log).toEqual(['toast 账号已在别处登录！', 'login'])
  })

  it('after a reload the same exit is not told twice (the tab remembers what it showed)', () => {
    const seen = new Set<number>()
    const first = ui(10_000, seen)
    first.notices(endedAt({ reason: 'x' }), true)
    first.elapse(TOAST_DURATION_MS)
    const again = ui(10_000 + TOAST_DURATION_MS + 500, seen)
    again.notices(endedAt({ reason: 'x' }), false)
    expect(again.log).toEqual([])
  })

  it('a reload that cuts the toast short leaves the exit untold: the page after it tells, once', () => {
    const seen = new Set<number>()
    const first = ui(10_000, seen)
    first.notices(endedAt({ reason: '登录信息已过期，请重新登录。' }), true)
    first.elapse(TOAST_DURATION_MS - 1)
    expect(first.log).toEqual(['toast 登录信息已过期，请重新登录。'])
    const again = ui(10_300, seen)
    again.notices(endedAt({ reason: '登录信息已过期，请重新登录。' }), false)
    again.notices(endedAt({ reason: '登录信息已过期，请重新登录。' }), true)
    expect(again.log).toEqual(['toast 登录信息已过期，请重新登录。', 'login'])
  })

  it('an old exit is not news: a tab opened long after shows nothing', () => {
    const t = ui(9_000 + RECENT_EXIT_MS + 1)
    t.notices(endedAt({ reason: 'x' }), false)
    expect(t.log).toEqual([])
  })

  it('a forced exit shows its notice and stays where it is', () => {
    const t = ui()
    t.notices(endedAt({ notice: '您的账号在别处登录', redirect: false }), false)
    expect(t.log).toEqual(['forcedOffline 您的账号在别处登录'])
  })

  it('the maintenance modal shows once per period, again for a new period with the same text', () => {
    const t = ui()
    t.notices(maintenance(true, 1), false)
    t.notices(maintenance(true, 1), true)
    t.notices(maintenance(false, 1), true)
    t.notices(maintenance(true, 2), true)
    expect(t.log).toEqual(['maintenance 维护中', 'maintenance 维护中'])
  })

  it('a tab that opens during a maintenance period shows the modal', () => {
    const t = ui()
    t.notices(maintenance(true, 7), false)
    expect(t.log).toEqual(['maintenance 维护中'])
  })
})
