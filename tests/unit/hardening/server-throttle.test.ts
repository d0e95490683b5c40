// Issue 11 finding 1: logins, SMS sends, SMS guesses and activation-code guesses are throttled per account (or phone)
// and per client address, with a backoff that doubles; the counts live in the database.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { latestCode } from '../../../server/session/sms.ts'
import { sessionDb } from '../../../server/session/tables.ts'
import { texts } from '../../../server/security/texts.ts'
import { blockMsAfter, createThrottle, Policies, THROTTLED_STATUS, throttleKey } from '../../../server/security/throttle.ts'
import { api, login, loginToken, useTestServer } from '../server/helpers.ts'

const t = useTestServer()

/** Ends every block now (what waiting out the backoff does), keeping the counts. */
const waitOutBlocks = () => t.server.db.withTables<{ auth_throttle: { blocked_until: Date | null } }>()
  .updateTable('auth_throttle').set({ blocked_until: new Date(Date.now() - 1000) }).execute()
const forgetAll = () => t.server.db.withTables<{ auth_throttle: { key: string } }>().deleteFrom('auth_throttle').execute()

describe('backoff', () => {
  it('blocks after the free budget, doubling up to the cap', () => {
    const p = Policies.loginAccount
    expect(blockMsAfter(p.free - 1, p)).toBe(0)
    expect(blockMsAfter(p.free, p)).toBe(p.baseBlockMs)
    expect(blockMsAfter(p.free + 1, p)).toBe(p.baseBlockMs * 2)
    expect(blockMsAfter(p.free + 3, p)).toBe(p.baseBlockMs * 8)
    expect(blockMsAfter(p.free + 100, p)).toBe(p.maxBlockMs)
  })

  it('counts in the database, forgets after a quiet period, and clears', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    const throttle = createThrottle(t.server.db, () => now)
    const key = throttleKey('loginAccount', 'clock-test')
    for (let i = 0; i < Policies.loginAccount.free; i++) await throttle.record([key])
    const blockMs = Policies.loginAccount.baseBlockMs
    await expect(throttle.guard([key])).rejects.toMatchObject({ status: THROTTLED_STATUS, msg: texts.throttled(blockMs / 1000) })
    now += blockMs + 1
    await throttle.guard([key])
    await throttle.record([key]) // the 6th failure: twice as long
    await expect(throttle.guard([key])).rejects.toMatchObject({ msg: texts.throttled((2 * blockMs) / 1000) })
    now += Policies.loginAccount.forgetMs + 1
    await throttle.record([key]) // counted as the first again
    await throttle.guard([key])
    await throttle.clear([key])
    await throttle.guard([key])
  })
})

describe('password login', () => {
  it('15 wrong passwords then the right one: refused until the backoff ends, then accepted', async () => {
    await forgetAll()
    const answers: string[] = []
    for (let i = 0; i < 15; i++) answers.push((await login(t.base, '13500135000', `Wrong${i}pass`)).body.msg)
    expect(answers.slice(0, 5)).toEqual(Array(5).fill('账号或密码错误'))
    // issue 22 finding 6: the lockout names the way in that still works
    expect(answers.slice(5).every((m) => /^密码错误次数过多，请\d+(秒|分钟)后再试，或使用验证码登录$/.test(m))).toBe(true)
    const right = await login(t.base, '13500135000', 'Demo@2026')
    expect(right.body.status).toBe(THROTTLED_STATUS)
    expect(right.body.data).toBeNull()
    // by username the account is the same account
    expect((await login(t.base, 'member', 'Demo@2026')).body.status).toBe(THROTTLED_STATUS)
    await waitOutBlocks()
    expect((await login(t.base, '13500135000', 'Demo@2026')).body.status).toBe(0)
    // a success forgets the account's failures: five more wrong ones are answered normally
    for (let i = 0; i < 4; i++) expect((await login(t.base, '13500135000', 'Wrong0pass')).body.msg).toBe('账号或密码错误')
  }, 60_000)

  it('wrong passwords spread over many accounts are throttled per client address', async () => {
    await forgetAll()
    const free = Policies.loginAddress.free
    for (let i = 0; i < free; i++) {
      const { body } = await login(t.base, `131${String(i).padStart(8, '0')}`, 'Wrong0pass')
      expect(body.msg).toBe('账号或密码错误')
    }
    const next = await login(t.base, '13800138000', 'Demo@2026')
    expect(next.body.status).toBe(THROTTLED_STATUS)
    await forgetAll()
  }, 60_000)
})

describe('SMS', () => {
  const send = (phone: string, authorizationType = 2) =>
    api(t.base, 'POST', '/api/message/v5/phone/send', { body: { type: 'common', authorizationType, phone } })
  const quickLogin = (phone: string, code: string) =>
    api(t.base, 'POST', '/api/user/v5/clientLogin/applet/quickLogin', { body: { phone, code, uuid: 'u' } })
  /** lets the phone send again at once (what waiting 60 s does); its codes stay valid. */
  const rewindSend = (phone: string) => sessionDb(t.server.db).updateTable('sms_codes')
    .set({ created_at: sql`created_at - interval '61 seconds'` } as never).where('phone', '=', phone).execute()

  it('sends to one phone are limited beyond the 60 s rule', async () => {
    await forgetAll()
    const phone = '13322220001'
    for (let i = 0; i < Policies.smsSendPhone.free; i++) {
      expect((await send(phone)).body.status).toBe(0)
      await rewindSend(phone)
    }
    expect((await send(phone)).body.status).toBe(THROTTLED_STATUS)
  })

  it('sends from one address to many phones are limited', async () => {
    await forgetAll()
    for (let i = 0; i < Policies.smsSendAddress.free; i++) expect((await send(`1332223${String(i).padStart(4, '0')}`)).body.status).toBe(0)
    expect((await send('13322239999')).body.status).toBe(THROTTLED_STATUS)
    await forgetAll()
  })

  it('wrong guesses over several fresh codes of one phone are limited, the right code included', async () => {
    await forgetAll()
    const phone = '13322240001'
    let wrong = 0
    while (wrong < Policies.smsGuessPhone.free) {
      expect((await send(phone)).body.status).toBe(0)
      await rewindSend(phone)
      const code = (await latestCode(sessionDb(t.server.db), phone))!.code
      const bad = code === '000000' ? '000001' : '000000'
      for (let i = 0; i < 4 && wrong < Policies.smsGuessPhone.free; i++, wrong++) {
        expect((await quickLogin(phone, bad)).body.msg).toBe('验证码错误')
      }
    }
    expect((await send(phone)).body.status).toBe(0)
    const code = (await latestCode(sessionDb(t.server.db), phone))!.code
    expect((await quickLogin(phone, code)).body.status).toBe(THROTTLED_STATUS)
    await waitOutBlocks()
    expect((await quickLogin(phone, code)).body.status).toBe(0)
  })
})

describe('activation codes', () => {
  it('unknown codes are limited per account', async () => {
    await forgetAll()
    const { token } = await loginToken(t.base, '13700137000')
    const exchange = (code: string) => api(t.base, 'POST', '/api/pay/v1/activation/exchangeActivationCode', { token, body: { code } })
    const first = await exchange('ZZZZZZZZZZZZZZ1')
    if (first.http === 404) throw new Error(`exchange path unknown: ${first.text}`)
    expect(first.body.msg).toBe('激活码不存在')
    for (let i = 2; i <= Policies.activationAccount.free; i++) {
      expect((await exchange(`ZZZZZZZZZZZZZ${String(i).padStart(2, '0')}`)).body.msg).toBe('激活码不存在')
    }
    expect((await exchange('ZZZZZZZZZZZZZ99')).body.status).toBe(THROTTLED_STATUS)
  })
})
