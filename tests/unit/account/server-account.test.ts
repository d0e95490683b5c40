// The account endpoints over a real server and database: left/info, nickname, coupons by tab, activation codes of
// each type and their refusals, star coins, the security code, real-name verification and online service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import { runOps } from '../../../server/ops.ts'
import { demoActivationCodes } from '../../../server/account/seed.ts'
import { SmsPurpose } from '../../../worker/protocol/session.ts'
import { api, loginToken, openSocket, pushUrl, startTestServer, type TestServer } from '../server/helpers.ts'

let t: TestServer
let base: string
let demo: string
let partner: string
let partnerName: string

beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
  demo = (await loginToken(base, '13800138000')).token
  const p = await loginToken(base, '13700137000')
  partner = p.token
  partnerName = p.username
}, 60_000)
afterAll(() => t?.stop())

type Page<A> = { list: A[]; total: number }
const get = <A>(path: string, token: string) => api<A>(base, 'GET', path, { token })
const post = <A>(path: string, token: string, body: unknown) => api<A>(base, 'POST', path, { token, body })
const coupons = (token: string, status: number, pageNum = 1) =>
  get<Page<{ couponName: string; status: number; couponType: number }>>(`/api/pay/v3/invitation/client/getUserCouponPage?status=${status}&pageNum=${pageNum}&pageSize=10`, token)
const exchange = (token: string, code: string) => post<Record<string, unknown>>('/api/pay/v1/activation/exchangeActivationCode', token, { code })

describe('personal centre', () => {
  it('left/info gives the nickname, the star coin balance and the effective coupon count', async () => {
    const r = await get<{ surfaceName: string; starCoin: number; couponNum: number }>('/api/pay/v1/client/left/info', demo)
    expect(r.body.data).toEqual({ surfaceName: '演示用户', starCoin: 70, couponNum: 3 })
  })

  it('a nickname is saved trimmed, and an empty one is refused in Chinese', async () => {
    const ok = await api(base, 'PUT', '/api/user/v1/client/personalInfo/updatePersonalInfo', { token: demo, body: { nickName: ' 新昵称 ' } })
    expect(ok.body.status).toBe(0)
    expect((await get<{ nickName: string }>('/api/user/v1/client/personalInfo', demo)).body.data.nickName).toBe('新昵称')
    const bad = await api(base, 'PUT', '/api/user/v1/client/personalInfo/updatePersonalInfo', { token: demo, body: { nickName: '  ' } })
    expect(bad.body.msg).toBe('昵称需为1-16个字符')
  })

  it('answers without a token with HTTP 401, except the public customer service card', async () => {
    expect((await api(base, 'GET', '/api/pay/v1/client/left/info')).http).toBe(401)
    const info = await api<{ link: string | null; phone: string }>(base, 'GET', '/api/public/v1/custom/info')
    expect(info.body.data.link).toMatch(/^https:\/\//)
    expect(info.body.data.phone).not.toBe('')
  })
})

describe('coupons', () => {
  it('puts the seeded coupons in the tab of their state', async () => {
    const counts = await Promise.all([1, 2, 3, 4].map(async (s) => (await coupons(demo, s)).body.data))
    expect(counts.map((p) => p.total)).toEqual([3, 1, 1, 2])
    counts.forEach((p, i) => p.list.forEach((c) => expect(c.status).toBe(i + 1)))
    expect(counts[0]!.list.map((c) => c.couponName)).toEqual(['满50减15', '续费8.5折券', '10元无门槛券'])
  })

  it('refuses an unknown tab', async () => {
    expect((await coupons(demo, 9)).body.msg).toBe('优惠券状态不正确')
  })
})

describe('activation codes', () => {
  it('a coupon code adds a coupon once and pushes sendCouponMsg', async () => {
    const socket = openSocket(pushUrl(base, { deviceId: 'd1', username: partnerName, Authorization: partner }))
    await socket.opened()
    const r = await exchange(partner, demoActivationCodes.coupon[0].toLowerCase())
    expect(r.body.data).toMatchObject({ codeType: 3, couponName: '激活码专享5元券' })
    await socket.until(() => socket.frames.some((f) => (f as { type?: string }).type === 'sendCouponMsg'))
    socket.close()
    expect((await coupons(partner, 1)).body.data.list.map((c) => c.couponName)).toContain('激活码专享5元券')
    expect((await exchange(demo, demoActivationCodes.coupon[0])).body.msg).toBe('激活码已被使用')
  })

  it('refuses malformed, unknown, used and expired codes in Chinese', async () => {
    expect((await exchange(demo, 'ABC')).body.msg).toBe('请输入15位激活码')
    expect((await exchange(demo, 'ZZZZZZZZZZZZZZZ')).body.msg).toBe('激活码不存在')
    expect((await exchange(demo, demoActivationCodes.used)).body.msg).toBe('激活码已被使用')
    expect((await exchange(demo, demoActivationCodes.expired)).body.msg).toBe('激活码已过期')
  })

  it('a device code asks for a device, then adds its days to the chosen own device only', async () => {
    const code = demoActivationCodes.device[0]
    expect((await exchange(demo, code)).body.data).toMatchObject({ codeType: 1, status: 1, days: 7 })
    const foreign = await post('/api/pay/v1/activation/applyDeviceActivationCode', demo, { code, userCardId: 880004 })
    expect(foreign.body.msg).toBe('只能为自己的云手机使用激活码')
    const before = await t.server.db.selectFrom('devices').select('expires_at').where('user_card_id', '=', 880003).executeTakeFirstOrThrow()
    const applied = await post<{ diskName: string; days: number }>('/api/pay/v1/activation/applyDeviceActivationCode', demo, { code, userCardId: 880003 })
    expect(applied.body.data).toEqual({ diskName: '云手机-03', days: 7 })
    const after = await t.server.db.selectFrom('devices').select('expires_at').where('user_card_id', '=', 880003).executeTakeFirstOrThrow()
    // 880003 had expired: the days count from now
    expect(new Date(after.expires_at).getTime()).toBeGreaterThan(Math.max(Date.now(), new Date(before.expires_at).getTime()) + 6.9 * 86_400_000)
    expect((await exchange(demo, code)).body.msg).toBe('激活码已被使用')
  })

  it('a package code creates a new device of the meal', async () => {
    const r = await exchange(partner, demoActivationCodes.package)
    expect(r.body.data).toMatchObject({ codeType: 2, status: 0, mealName: '标准版 月卡', days: 30 })
    const partnerId = (await t.server.db.selectFrom('users').select('id').where('phone', '=', '13700137000').executeTakeFirstOrThrow()).id
    const names = (await t.server.db.selectFrom('devices').select('disk_name').where('owner_id', '=', partnerId).execute()).map((d) => d.disk_name)
    expect(names).toContain(r.body.data.diskName)
  })
})

describe('star coins', () => {
  it('the balance is got minus used, and the records page by kind', async () => {
    expect((await get<number>('/api/pay/v5/starCoins', demo)).body.data).toBe(70)
    const got1 = await get<Page<{ amount: number }>>('/api/pay/v1/starCoins/info/get/coin/page?pageNum=1&pageSize=10', demo)
    const got2 = await get<Page<{ amount: number }>>('/api/pay/v1/starCoins/info/get/coin/page?pageNum=2&pageSize=10', demo)
    expect([got1.body.data.total, got1.body.data.list.length, got2.body.data.list.length]).toEqual([12, 10, 2])
    const used = await get<Page<{ description: string }>>('/api/pay/v1/starCoins/info/use/coin/page', demo)
    expect(used.body.data.list.map((r) => r.description)).toEqual(['星币抵扣：续费云手机-01', '星币支付：标准版 天卡'])
  })
})

describe('security code and real name', () => {
  it('needs the SMS code of the own phone, then stores a 6-digit code once per check', async () => {
    const wrong = await post('/api/user/v5/user/checkPhoneCode', partner, { code: '000000' })
    expect(wrong.body.msg).toBe('请先获取验证码')
    await post('/api/message/v5/phone/send', partner, { type: 'common', authorizationType: SmsPurpose.bindPhone, phone: '13700137000' })
    const code = await runOps(['sms', '13700137000'], t.ops)
    const checked = await post<{ ticket: string }>('/api/user/v5/user/checkPhoneCode', partner, { code })
    const ticket = checked.body.data.ticket
    expect((await post('/api/user/v5/user/updateUserSecondaryPassword', partner, { ticket, secondaryPassword: '12ab56' })).body.msg).toBe('安全码需为6位数字')
    expect((await post('/api/user/v5/user/updateUserSecondaryPassword', partner, { ticket, secondaryPassword: '135790' })).body.status).toBe(0)
    expect((await post('/api/user/v5/user/updateUserSecondaryPassword', partner, { ticket, secondaryPassword: '135790' })).body.msg).toBe('验证已失效，请重新获取验证码')
    expect((await get<{ hasSecondaryPassword: boolean }>('/api/user/v5/user/getAccountSecurity', partner)).body.data.hasSecondaryPassword).toBe(true)
  })

  it('verifies a valid identity once, keeps it masked, and refuses a bad checksum or a reused ID', async () => {
    const bad = await post('/api/user/v5/user/identityVerification', partner, { realName: '张三', idCard: '110101199003077578' })
    expect(bad.body.msg).toBe('身份证号码格式不正确')
    const ok = await post<{ verified: boolean; realName: string; idCard: string }>('/api/user/v5/user/identityVerification', partner, { realName: '张三', idCard: '110101199003077571' })
    expect(ok.body.data).toEqual({ verified: true, realName: '张*', idCard: '110***********7571', hasSecondaryPassword: true })
    const row = await t.server.db.selectFrom('users').select('id').where('phone', '=', '13700137000').executeTakeFirstOrThrow()
    const stored = await sql<{ t: string }>`select row_to_json(p)::text as t from account_profiles p where user_id = ${row.id}`.execute(t.server.db)
    expect(stored.rows[0]!.t).not.toContain('1101011990030775')
    expect((await post('/api/user/v5/user/identityVerification', partner, { realName: '张三', idCard: '110101199003077571' })).body.msg).toBe('您已完成实名认证')
    expect((await post('/api/user/v5/user/identityVerification', demo, { realName: '李四', idCard: '110101199003077571' })).body.msg).toBe('该身份证已认证其他账号')
  })
})
