// Issue 9 item 2: nothing one instance needs lives in another's memory. Two instances over one PostgreSQL; each step
// is begun at one instance and continued at the other, as a round-robin balancer would send it.
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ConnectStarting } from '../../../worker/protocol/devices.ts'
import { fileDownloadUrl, type PhoneFileList, type UploadedFile, type UploadTicket } from '../../../worker/protocol/files.ts'
import type { Meal } from '../../../worker/protocol/pay.ts'
import { SmsPurpose } from '../../../worker/protocol/session.ts'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { opsPay, runOps } from '../../../server/ops.ts'
import { sessionDb } from '../../../server/session/tables.ts'
import { THROTTLED_STATUS } from '../../../server/security/throttle.ts'
import { AuthMsg, AuthStatus } from '../../../server/session/messages.ts'
import { api, encryptPassword, loginToken, startTestInstances, type TestInstances } from '../server/helpers.ts'

// real work (hashing, two servers) on a shared machine: the limit only stops a hung test
vi.setConfig({ testTimeout: 120_000 })
let t: TestInstances
let a: string
let b: string

beforeAll(async () => {
  t = await startTestInstances(2)
  a = t.servers[0]!.url
  b = t.servers[1]!.url
}, 180_000)
afterAll(() => t?.stop())

const PERSONAL = catalogue.personalInfo.path

describe('state shared by two instances over one PostgreSQL', () => {
  it('a token issued by one instance is honoured by the other; revoked at the other, it is refused by both', async () => {
    const session = await loginToken(a, '13700137000')
    expect((await api(b, 'GET', PERSONAL, { token: session.token })).http).toBe(200)
    const visit = await api(b, 'POST', catalogue.operationVisitDetailed.path, { token: session.token, body: { uuid: 'u', operationType: 2 } })
    expect(visit.body.status).toBe(0)
    for (const base of [a, b]) expect((await api(base, 'GET', PERSONAL, { token: session.token })).http).toBe(401)
  })

  it('the login key pair is one: a password encrypted with one instance\'s key logs in at the other', async () => {
    const pemA = (await api<string>(a, 'POST', catalogue.getPbKey.path)).body.data
    const pemB = (await api<string>(b, 'POST', catalogue.getPbKey.path)).body.data
    expect(pemB).toBe(pemA)
    const result = await api<{ token: string }>(b, 'POST', catalogue.login.path, {
      body: { phone: '13700137000', password: encryptPassword(pemA, 'Demo@2026'), client: 7, uuid: 'u' },
    })
    expect(result.body.status).toBe(0)
  })

  it('an SMS code sent through one instance: resend limited and the code checked at the other, guesses counted across both', async () => {
    const phone = '13500135000'
    const send = (base: string) => api(base, 'POST', catalogue.sendSmsCode.path, { body: { type: 'common', authorizationType: SmsPurpose.quickLogin, phone } })
    expect((await send(a)).body.status).toBe(0)
    expect((await send(b)).body.status).toBe(AuthStatus.tooFrequent)
    const code = await runOps(['sms', phone], t.ops[1]!)
    const wrong = code === '000000' ? '111111' : '000000'
    const guess = (base: string, c: string) => api(base, 'POST', catalogue.quickLogin.path, { body: { phone, code: c, uuid: 'u' } })
    // five wrong guesses, alternating instances, spend the code's attempts wherever they land
    for (let i = 0; i < 5; i++) expect((await guess(i % 2 === 0 ? a : b, wrong)).body.msg).toBe(AuthMsg.codeWrong)
    expect((await guess(a, code)).body.msg).toBe(AuthMsg.codeExpired)

    // and a fresh code is accepted at the instance that did not send it
    await sessionDb(t.servers[0]!.db).updateTable('sms_codes').set({ created_at: sql`created_at - interval '61 seconds'` } as never)
      .where('phone', '=', phone).execute()
    expect((await send(b)).body.status).toBe(0)
    const fresh = await runOps(['sms', phone], t.ops[0]!)
    expect((await guess(a, fresh)).body.status).toBe(0)
  })

  it('login failures at both instances add up to one account\'s limit', async () => {
    const phone = '13900139000'
    const answers: number[] = []
    for (let i = 0; i < 6; i++) {
      const base = i % 2 === 0 ? a : b
      const pem = (await api<string>(base, 'POST', catalogue.getPbKey.path)).body.data
      const r = await api(base, 'POST', catalogue.login.path, { body: { phone, password: encryptPassword(pem, `Wrong${i}pass`), client: 7, uuid: 'u' } })
      answers.push(r.body.status)
    }
    // five free failures (3 at one instance, 2 at the other), the sixth blocked
    expect(answers.slice(0, 5).every((s) => s !== THROTTLED_STATUS)).toBe(true)
    expect(answers[5]).toBe(THROTTLED_STATUS)
  })

  it('a device rebooted through one instance is restarting at the other', async () => {
    const session = await loginToken(a, '13800138000')
    const reboot = await api(a, 'GET', `${catalogue.rebootDevice.path}?userCardId=880001`, { token: session.token })
    expect(reboot.body.status).toBe(0)
    const connect = await api<ConnectStarting>(b, 'POST', catalogue.connect.path, { token: session.token, body: { userCardId: 880001 } })
    expect(connect.body.status).toBe(5200)
    expect(connect.body.data.starting).toBe(true)
  })

  it('an order made at one instance is paid through the other and reads paid at the first', async () => {
    const { token } = await loginToken(b, '13700137000')
    const meals = (await api<{ mealList: Meal[] }>(a, 'GET', `${catalogue.getMealList.path}?phoneType=STANDARD`, { token })).body.data.mealList
    const created = await api<{ myOrderNum: string }>(a, 'POST', catalogue.orderCreate.path, {
      token, body: { buyType: 1, id: meals.find((m) => m.day === 1)!.id, phoneType: 'STANDARD', quantity: 1 },
    })
    const { myOrderNum } = created.body.data
    expect((await api(b, 'POST', catalogue.alipayPrecreate.path, { token, body: { myOrderNum } })).body.status).toBe(0)
    const status = (base: string) => api<number>(base, 'GET', `${catalogue.getPayStatus.path}?myOrderNum=${myOrderNum}`, { token })
    expect((await status(a)).body.data).toBe(3)
    await opsPay(t.ops[1]!, myOrderNum, 'success')
    expect((await status(a)).body.data).toBe(1)
  })

  it('a phone file uploaded through one instance (its ticket from the other) is listed and downloaded at both; a reset at one wipes it for both', async () => {
    const { token } = await loginToken(a, '13600136000')
    const body = new Uint8Array(600 * 1024).map((_, i) => (i * 13) % 251)
    const ticket = await api<UploadTicket>(a, 'POST', catalogue.getUploadTicket.path, { token, body: { purpose: 'phoneFile', userCardId: 890041, name: '跨实例.bin', size: body.length } })
    const sent = await fetch(b + ticket.body.data.uploadUrl, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: body as unknown as BodyInit })
    const done = ((await sent.json()) as { status: number; data: UploadedFile }).data
    for (const base of [a, b]) {
      const list = (await api<PhoneFileList>(base, 'GET', `${catalogue.getPhoneFiles.path}?userCardId=890041`, { token })).body.data
      const file = list.list.find((f) => f.fileId === done.fileId)!
      // a key made at one instance is checked at the other (one secret, kept in the database)
      for (const host of [a, b]) {
        const r = await fetch(fileDownloadUrl(`${host}/api`, file.flag, file.uploadKey, file.fileId))
        expect(Buffer.from(await r.arrayBuffer()).equals(Buffer.from(body))).toBe(true)
      }
    }
    expect((await api(a, 'GET', `${catalogue.resetDevice.path}?userCardId=890041`, { token })).body.status).toBe(0)
    expect((await fetch(done.url.replace(a, b))).status).toBe(404)
  })

  it('the operator token is one, kept in the database: either instance takes the other\'s', async () => {
    expect(t.ops[1]!.token).toBe(t.ops[0]!.token)
    expect(await runOps(['maintenance', 'off'], { url: b, token: t.ops[0]!.token })).toBeTruthy()
  })
})
