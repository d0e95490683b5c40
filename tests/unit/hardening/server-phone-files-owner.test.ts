// Issue 41 findings 5, 7 and 8: a phone's files belong to the phone's present users. A factory reset (single, bulk,
// group) and a transfer wipe them; a download key is the caller's, lasts PHONE_FILE_URL_MS and works only while the
// caller may use the phone (removeAuth and transfer end it); the list hands out no file's lasting key. Files are served
// with a type from an allow-list, sandboxed; a file name that would read other than stored is refused in Chinese.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { fileDownloadUrl, PHONE_FILE_FLAG, PHONE_FILE_NAME_RULE, PHONE_FILE_URL_MS, type PhoneFileList, type UploadedFile, type UploadTicket } from '../../../worker/protocol/files.ts'
import { isDeviceName } from '../../../worker/protocol/validators.ts'
import { sharedSecret } from '../../../server/cluster/secrets.ts'
import { clusterDb } from '../../../server/cluster/tables.ts'
import { devicesDb } from '../../../server/devices/tables.ts'
import { createPhoneFileUrls } from '../../../server/files/phone-file-urls.ts'
import { filesDb } from '../../../server/files/tables.ts'
import { phoneFileProblem } from '../../../src/features/devices/files/phone-files.ts'
import { api, loginToken, useTestServer, type Envelope } from '../server/helpers.ts'

const t = useTestServer()
const DEMO = '13800138000'
const PARTNER = '13700137000'
const FLEET = '13600136000'

const ticket = (token: string, userCardId: number, name: string, size: number) =>
  api<UploadTicket>(t.base, 'POST', catalogue.getUploadTicket.path, { token, body: { purpose: 'phoneFile', userCardId, name, size } })
const listOf = async (token: string, userCardId: number) =>
  (await api<PhoneFileList>(t.base, 'GET', `${catalogue.getPhoneFiles.path}?userCardId=${userCardId}`, { token })).body
const upload = async (token: string, userCardId: number, name: string, body: string, type = 'application/octet-stream'): Promise<UploadedFile> => {
  const tk = await ticket(token, userCardId, name, Buffer.byteLength(body))
  expect(tk.body.status).toBe(0)
  const r = (await (await fetch(t.base + tk.body.data.uploadUrl, { method: 'POST', headers: { 'Content-Type': type }, body })).json()) as Envelope<UploadedFile>
  expect(r.status).toBe(0)
  return r.data
}
const names = async (token: string, userCardId: number) => (await listOf(token, userCardId)).data.list.map((f) => f.name)
const fetchUrl = async (url: string) => {
  const r = await fetch(url)
  const text = await r.text()
  return { http: r.status, text, headers: r.headers }
}
/** the restart a reset starts ends (as its busy window would), so the phone takes the next operation. */
const notBusy = async (userCardId: number) => {
  const db = devicesDb(t.server.db)
  const device = await db.selectFrom('devices').select('id').where('user_card_id', '=', userCardId).executeTakeFirstOrThrow()
  await db.updateTable('device_runtime').set({ busy_until: new Date(Date.now() - 1000) }).where('device_id', '=', device.id).execute()
}

describe('a phone\'s files after a factory reset', () => {
  it('are gone after a reset, a bulk reset and a group reset: the list shows only what a new phone holds, old URLs answer 404', async () => {
    const fleet = (await loginToken(t.base, FLEET)).token
    const resets: Array<[number, () => Promise<unknown>]> = [
      [890011, () => api(t.base, 'GET', `${catalogue.resetDevice.path}?userCardId=890011`, { token: fleet })],
      [890012, () => api(t.base, 'POST', catalogue.bulkReset.path, { token: fleet, body: { userCardIds: [890012] } })],
      [890013, () => api(t.base, 'POST', catalogue.groupCommand.path, { token: fleet, body: { commandId: randomUUID(), action: 'reset', userCardIds: [890013] } })],
    ]
    for (const [card, reset] of resets) {
      const fresh = await names(fleet, card)
      const done = await upload(fleet, card, '身份证照片.jpg', 'secret', 'image/jpeg')
      expect(await names(fleet, card)).toContain('身份证照片.jpg')
      const answer = (await reset()) as { body: { status: number } }
      expect(answer.body.status).toBe(0)
      expect((await names(fleet, card)).sort()).toEqual(fresh.sort())
      expect((await fetchUrl(done.url)).http).toBe(404)
      await notBusy(card)
    }
  })
})

describe('a phone\'s files after a transfer and a removeAuth', () => {
  it('a transfer wipes them: the new owner lists none of the old owner\'s files, the old owner\'s URL answers 404', async () => {
    const fleet = (await loginToken(t.base, FLEET)).token
    const partner = (await loginToken(t.base, PARTNER)).token
    const done = await upload(fleet, 890014, '身份证照片.jpg', 'secret', 'image/jpeg')
    const moved = await api(t.base, 'POST', catalogue.transferDevices.path, { token: fleet, body: { userCardIds: [890014], phone: PARTNER } })
    expect(moved.body.status).toBe(0)
    expect(await names(partner, 890014)).not.toContain('身份证照片.jpg')
    expect((await fetchUrl(done.url)).http).toBe(404)
    const rows = await filesDb(t.server.db).selectFrom('phone_files').select('id').where('id', '=', Number(done.fileId)).execute()
    expect(rows).toHaveLength(0)
  })

  it('removeAuth ends the former grantee\'s keys at once; the owner\'s still work', async () => {
    const demo = (await loginToken(t.base, DEMO)).token
    const partner = (await loginToken(t.base, PARTNER)).token
    await upload(demo, 880005, 'owner.txt', 'owner', 'text/plain')
    const granted = (await listOf(partner, 880005)).data
    const file = granted.list.find((f) => f.name === 'owner.txt')!
    const url = fileDownloadUrl(granted.fileHost, file.flag, file.uploadKey, file.fileId)
    expect((await fetchUrl(url)).text).toBe('owner')

    const record = await devicesDb(t.server.db).selectFrom('device_auth_records as r').innerJoin('devices as d', 'd.id', 'r.device_id')
      .select('r.id').where('d.user_card_id', '=', 880005).where('r.status', '=', 0).executeTakeFirstOrThrow()
    expect((await api(t.base, 'PUT', catalogue.cancelPhoneAuth.path, { token: demo, body: { id: record.id } })).body.status).toBe(0)
    const refused = await fetchUrl(url)
    expect(refused.http).toBe(404)
    expect(JSON.parse(refused.text).msg).toBe('文件不存在')
    const mine = (await listOf(demo, 880005)).data
    const own = mine.list.find((f) => f.name === 'owner.txt')!
    expect((await fetchUrl(fileDownloadUrl(mine.fileHost, own.flag, own.uploadKey, own.fileId))).text).toBe('owner')
  })
})

describe('download keys', () => {
  it('the list hands out a key per caller, none of them a file\'s lasting key; a key is for one file and one user', async () => {
    const demo = (await loginToken(t.base, DEMO)).token
    const done = await upload(demo, 880001, 'key.txt', 'key')
    const { data } = await listOf(demo, 880001)
    const stored = new Set((await filesDb(t.server.db).selectFrom('phone_files').select('upload_key').execute()).map((r) => r.upload_key))
    for (const f of data.list) expect(stored.has(f.uploadKey)).toBe(false)
    const [userId, expires] = done.fileKey.split('.')
    // another file with this key, or this key with another user's id: refused
    expect((await fetchUrl(fileDownloadUrl(data.fileHost, PHONE_FILE_FLAG, done.fileKey, String(Number(done.fileId) - 1)))).http).toBe(404)
    const forged = done.fileKey.replace(`${userId}.`, `${Number(userId) + 1}.`)
    expect((await fetchUrl(fileDownloadUrl(data.fileHost, PHONE_FILE_FLAG, forged, done.fileId))).http).toBe(404)
    expect(Number(expires) * 1000 - Date.now()).toBeLessThanOrEqual(PHONE_FILE_URL_MS + 1000)
  })

  it('a key past its few minutes answers 404 with a Chinese reason; one signed for a user who may not use the phone, 404', async () => {
    const demo = (await loginToken(t.base, DEMO)).token
    const done = await upload(demo, 880001, 'old.txt', 'old')
    const urls = createPhoneFileUrls(() => sharedSecret(clusterDb(t.server.db), 'phone-file-url'))
    const [userId] = done.fileKey.split('.')
    const old = await urls.keyFor(Number(done.fileId), Number(userId), Date.now() - PHONE_FILE_URL_MS - 1000)
    const expired = await fetchUrl(fileDownloadUrl(`${t.base}/api`, PHONE_FILE_FLAG, old, done.fileId))
    expect(expired.http).toBe(404)
    expect(JSON.parse(expired.text).msg).toBe('下载链接已过期，请刷新文件列表后重试')
    // a genuine key, but for a user who may not use 880001
    const member = await t.server.db.selectFrom('users').select('id').where('phone', '=', '13500135000').executeTakeFirstOrThrow()
    const foreign = await urls.keyFor(Number(done.fileId), member.id)
    expect((await fetchUrl(fileDownloadUrl(`${t.base}/api`, PHONE_FILE_FLAG, foreign, done.fileId))).http).toBe(404)
  })
})

describe('how a phone file is served (finding 7)', () => {
  const served = async (name: string, body: string, type: string) => {
    const demo = (await loginToken(t.base, DEMO)).token
    const r = await fetch((await upload(demo, 880001, name, body, type)).url)
    await r.arrayBuffer()
    const h = (k: string) => r.headers.get(k)
    return { type: h('content-type'), disposition: h('content-disposition') ?? '', csp: h('content-security-policy') ?? '', nosniff: h('x-content-type-options') }
  }

  it('a script or a page comes back as opaque bytes, an attachment, sandboxed', async () => {
    for (const [name, type] of [['x.js', 'text/javascript'], ['x.html', 'text/html; charset=utf-8'], ['x.svg', 'image/svg+xml'], ['x.bin', 'application/xhtml+xml']]) {
      const r = await served(name!, 'self.postMessage(1)', type!)
      expect(r.type).toBe('application/octet-stream')
      expect(r.disposition.startsWith('attachment;')).toBe(true)
      expect(r.csp.split(';').map((d) => d.trim())).toContain('sandbox')
      expect(r.nosniff).toBe('nosniff')
    }
  })

  it('allowed types keep theirs: an image inline, text as UTF-8, an .apk as an Android package, all sandboxed', async () => {
    const png = await served('a.png', 'png', 'image/png')
    expect(png).toMatchObject({ type: 'image/png', nosniff: 'nosniff' })
    expect(png.disposition.startsWith('inline;')).toBe(true)
    expect(png.csp).toContain('sandbox')
    expect((await served('a.txt', '文字', 'text/plain; charset=gbk')).type).toBe('text/plain; charset=utf-8')
    const apk = await served('计算器.apk', 'PK', 'text/html')
    expect(apk.type).toBe('application/vnd.android.package-archive')
    expect(apk.disposition.startsWith('attachment;')).toBe(true)
    expect((await served('a.pdf', '%PDF', 'application/pdf')).type).toBe('application/pdf')
  })
})

describe('file names that would misread (finding 8)', () => {
  it('are refused with the device names\' rule, in Chinese, by the server and the tab', async () => {
    const demo = (await loginToken(t.base, DEMO)).token
    for (const name of ['evil\u202Egpj.apk', 'a\u2066b.txt', 'a\u2028b.txt', 'a\u0000b.txt', 'a\u0085b.txt']) {
      const r = await ticket(demo, 880001, name, 4)
      expect(r.body).toMatchObject({ success: false, msg: PHONE_FILE_NAME_RULE })
      expect(phoneFileProblem({ name, size: 4 })).toBe(PHONE_FILE_NAME_RULE)
      expect(isDeviceName(name.slice(0, 10))).toBe(false)
    }
    expect((await ticket(demo, 880001, '正常 文件(1).apk', 4)).body.status).toBe(0)
  })
})
