import { describe, expect, it } from 'vitest'
import { guard, guardedDestination } from '../../../src/router/guard.ts'
import type { SessionSlice as SessionState } from '../../../worker/protocol/projection/index.ts'
import { member, userType2, visitor, wechatPhone } from './fixtures.ts'

const BROWSER = 'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36'
const WECHAT = `${BROWSER} MicroMessenger/8.0.40`
const QQ = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 QQ/9.0.0 V1_IPH_SQ'
const QQ_BROWSER = 'Mozilla/5.0 (Linux; Android 12) Mobile Safari/537.36 MQQBrowser/13.0'

const HOME = '/pages/index/index'
const LOGIN = '/pages/login/login'
const COVER = '/pages/cover/cover'
const BIND = '/package/bindingNumber/bindingNumber'
const PURCHASE = '/package/purchase/purchase'

// (path, session, user agent) -> the guard's first redirect, or null to stay
const table: ReadonlyArray<[string, SessionState, string, string | null]> = [
  // in-app browser first: everything goes to the cover, the cover stays
  [HOME, member, WECHAT, COVER],
  [LOGIN, visitor, WECHAT, COVER],
  [PURCHASE, member, QQ, COVER],
  [COVER, visitor, WECHAT, null],
  [COVER, member, QQ, null],
  [BIND, userType2, WECHAT, COVER],
  // QQ's own browser is a normal browser
  [LOGIN, visitor, QQ_BROWSER, null],
  // outside an in-app browser the cover goes to the index
  [COVER, member, BROWSER, HOME],
  [COVER, visitor, BROWSER, HOME],
  // visitor whitelist
  [LOGIN, visitor, BROWSER, null],
  ['/pages/registerAccount/registerAccount', visitor, BROWSER, null],
  ['/pages/quickLogin/quickLogin', visitor, BROWSER, null],
  ['/pages/verificationCode/verificationCode', visitor, BROWSER, null],
  ['/pages/forgotPassword/forgotPassword', visitor, BROWSER, null],
  ['/pages/agreemen/agreemen', visitor, BROWSER, null],
  ['/package/ubertragungsseite/ubertragungsseite', visitor, BROWSER, null],
  ['/package/adView/adView', visitor, BROWSER, null],
  // a visitor's home (and its alias) leads on to login
  [HOME, visitor, BROWSER, null],
  ['/', visitor, BROWSER, null],
  // any other route sends a visitor to the index
  [PURCHASE, visitor, BROWSER, HOME],
  ['/package/cloudPhoneView/cloudPhoneView', visitor, BROWSER, HOME],
  [BIND, visitor, BROWSER, HOME],
  ['/preview-image', visitor, BROWSER, HOME],
  // a logged-in user may open every route
  [HOME, member, BROWSER, null],
  ['/', member, BROWSER, null],
  [PURCHASE, member, BROWSER, null],
  [LOGIN, member, BROWSER, null],
  [BIND, member, BROWSER, null],
  // bind-phone forcing: userType 2 or a phone with a non-digit
  [HOME, userType2, BROWSER, BIND],
  [PURCHASE, wechatPhone, BROWSER, BIND],
  [LOGIN, userType2, BROWSER, BIND],
  [BIND, userType2, BROWSER, null],
  [BIND, wechatPhone, BROWSER, null],
]

describe('navigation guard', () => {
  it.each(table)('%s as %j in %s -> %s', (path, session, ua, expected) => {
    expect(guard(path, session, ua)).toBe(expected)
  })

  it('compares userType as a number', () => {
    const session = { ...member, user: { ...member.user!, userType: '2' as unknown as number } }
    expect(guard(HOME, session, BROWSER)).toBe(BIND)
  })

  it('takes the stored phone over the user object phone', () => {
    const session = { ...member, phone: '+86 138' }
    expect(guard(HOME, session, BROWSER)).toBe(BIND)
  })

  it.each<[string, SessionState, string, string]>([
    [PURCHASE, visitor, BROWSER, HOME],
    [COVER, visitor, BROWSER, HOME],
    [COVER, userType2, BROWSER, BIND],
    [PURCHASE, member, WECHAT, COVER],
    ['/', member, BROWSER, HOME],
  ])('a navigation to %s as %j in %s finally shows %s', (path, session, ua, expected) => {
    expect(guardedDestination(path, session, ua)).toBe(expected)
  })
})
