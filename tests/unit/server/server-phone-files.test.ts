// Files to and from a cloud phone on the reference server: the ticket only for a phone the caller may use, the upload
// stored in chunks and listed beside the files a new phone comes with, an .apk installing on the phone, the size,
// count and space limits refused in Chinese, and the download by the caller's short-lived key (tests/unit/hardening/
// server-phone-files-owner.test.ts has the rest of that key's rules).
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  FILE_ID_EMPTY, fileDownloadUrl, PHONE_FILE_MAX_BYTES, PHONE_FILES_MAX_BYTES, PHONE_FILES_MAX_COUNT,
  type PhoneFileList, type UploadedFile, type UploadTicket,
} from '../../../worker/protocol/files.ts'
import { filesDb } from '../../../server/files/tables.ts'
import { databaseKind } from '../../support/test-database.ts'
import { api, loginToken, startTestServer, type Envelope, type TestServer } from './helpers.ts'

let t: TestServer
let base: string
let demo: string
const sunk: Array<{ kind: 'install' | 'file'; deviceId: number; name: string; size?: number }> = []

const ticket = (userCardId: number, name: string, size: number, token = demo) =>
  api<UploadTicket>(base, 'POST', '/api/document/newFile/uploadTicket', { token, body: { purpose: 'phoneFile', userCardId, name, size } })
const send = async (url: string, body: Uint8Array, type = 'application/octet-stream') =>
  (await (await fetch(base + url, { method: 'POST', headers: { 'Content-Type': type }, body: body as unknown as BodyInit })).json()) as Envelope<UploadedFile>
const listOf = (userCardId: number, token = demo) =>
  api<PhoneFileList>(base, 'GET', `/api/document/newFile/phoneFiles?userCardId=${userCardId}`, { token })
const deviceIdOf = async (userCardId: number) =>
  (await t.server.db.selectFrom('devices').select('id').where('user_card_id', '=', userCardId).executeTakeFirstOrThrow()).id
/** uploads `bytes` named `name` to the phone through a ticket. */
const uploadTo = async (userCardId: number, name: string, bytes: Uint8Array) => {
  const tk = await ticket(userCardId, name, bytes.length)
  expect(tk.body.status).toBe(0)
  return send(tk.body.data.uploadUrl, bytes)
}

beforeAll(async () => {
  t = await startTestServer({
    phoneFiles: {
      installApp: (deviceId, name) => void sunk.push({ kind: 'install', deviceId, name }),
      addFile: (deviceId, name, size) => void sunk.push({ kind: 'file', deviceId, name, size }),
    },
  })
  base = t.server.url
  demo = (await loginToken(base, '13800138000')).token
}, 60_000)
afterAll(() => t?.stop())

describe('phone files', () => {
  it('a new phone lists the files it comes with, each downloadable by its capability', async () => {
    const { body } = await listOf(880001)
    expect(body.status).toBe(0)
    expect(body.data.fileHost).toBe(`${base}/api`)
    const names = body.data.list.map((f) => f.name)
    expect(names).toEqual(expect.arrayContaining(['截图_0001.png', '下载/说明.txt']))
    const readme = body.data.list.find((f) => f.name === '下载/说明.txt')!
    const response = await fetch(fileDownloadUrl(body.data.fileHost, readme.flag, readme.uploadKey, readme.fileId))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('说明.txt')}`)
    expect(await response.text()).toContain('云手机')
    // listing again does not seed again
    expect((await listOf(880001)).body.data.list).toHaveLength(body.data.list.length)
  })

  it('an upload is stored (a file on PGlite, chunk rows on PostgreSQL), listed first and downloaded byte for byte', async () => {
    const bytes = new Uint8Array(700 * 1024).map((_, i) => (i * 7) % 251)
    const done = await uploadTo(880001, '照片 合集.zip', bytes)
    expect(done.status).toBe(0)
    expect(done.data.url).toBe(fileDownloadUrl(`${base}/api`, 'phoneFile', done.data.fileKey, done.data.fileId))
    const chunks = await filesDb(t.server.db).selectFrom('phone_file_chunks').select('seq').where('file_id', '=', Number(done.data.fileId)).execute()
    if (databaseKind() === 'pglite') {
      // one instance over PGlite: the bytes are a file under the data dir, none of them in the database
      expect(chunks).toHaveLength(0)
      expect(statSync(join(t.dataDir, 'files', 'phone', done.data.fileId)).size).toBe(bytes.length)
    } else expect(chunks.length).toBeGreaterThan(1)

    const first = (await listOf(880001)).body.data.list[0]!
    expect(first).toMatchObject({ fileId: done.data.fileId, name: '照片 合集.zip', size: bytes.length, flag: 'phoneFile' })
    expect(Number.isNaN(Date.parse(first.createdAt))).toBe(false)
    const response = await fetch(done.data.url)
    expect(response.headers.get('content-length')).toBe(String(bytes.length))
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
    expect(sunk).toContainEqual({ kind: 'file', deviceId: await deviceIdOf(880001), name: '照片 合集.zip', size: bytes.length })
    expect(sunk.some((s) => s.kind === 'install')).toBe(false)
  })

  it('an uploaded .apk installs on the phone', async () => {
    const done = await uploadTo(880001, '计算器Pro.APK', new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]))
    expect(done.status).toBe(0)
    expect(sunk).toContainEqual({ kind: 'install', deviceId: await deviceIdOf(880001), name: '计算器Pro.APK' })
  })

  it('a phone authorised to the caller takes files too', async () => {
    expect((await uploadTo(880004, 'a.txt', new Uint8Array([1]))).status).toBe(0)
    expect((await listOf(880004)).body.data.list.map((f) => f.name)).toContain('a.txt')
  })

  it("another user's phone and an expired phone get no ticket and no list", async () => {
    const others = await ticket(880006, 'a.txt', 1)
    expect(others.body).toMatchObject({ success: false, msg: '云手机不存在或无权操作' })
    expect((await listOf(880006)).body.msg).toBe('云手机不存在或无权操作')
    const expired = await ticket(880003, 'a.txt', 1)
    expect(expired.body).toMatchObject({ success: false, msg: '云手机已过期，请续费后使用' })
    expect((await listOf(880003)).body.msg).toBe('云手机已过期，请续费后使用')
  })

  it('a ticket is spent by one upload and refused once the phone is no longer the caller\'s', async () => {
    const tk = (await ticket(880001, 'once.txt', 2)).body.data
    expect((await send(tk.uploadUrl, new Uint8Array([1, 2]))).status).toBe(0)
    expect((await send(tk.uploadUrl, new Uint8Array([1, 2]))).msg).toBe('上传链接无效或已过期，请重新上传')

    const late = (await ticket(880002, 'late.txt', 2)).body.data
    const saved = await t.server.db.selectFrom('devices').select('expires_at').where('user_card_id', '=', 880002).executeTakeFirstOrThrow()
    await t.server.db.updateTable('devices').set({ expires_at: new Date(Date.now() - 60_000) }).where('user_card_id', '=', 880002).execute()
    try {
      expect((await send(late.uploadUrl, new Uint8Array([1, 2]))).msg).toBe('云手机已过期，请续费后使用')
    } finally {
      await t.server.db.updateTable('devices').set({ expires_at: saved.expires_at }).where('user_card_id', '=', 880002).execute()
    }
    // an avatar ticket does not upload a phone file, nor a phone-file ticket an avatar
    const avatar = (await api<UploadTicket>(base, 'POST', '/api/document/newFile/uploadTicket', { token: demo, body: { purpose: 'avatar' } })).body.data
    expect((await send(avatar.uploadUrl.replace('/upload/', '/phoneUpload/'), new Uint8Array([1]))).msg).toBe('上传链接无效或已过期，请重新上传')
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')
    const phone = (await ticket(880001, 'x.png', png.length)).body.data
    expect((await send(phone.uploadUrl.replace('/phoneUpload/', '/upload/'), png, 'image/png')).msg).toBe('上传链接无效或已过期，请重新选择图片')
  })

  it('refuses in Chinese a file too big, empty or badly named, and a body other than the declared size', async () => {
    expect((await ticket(880001, 'big.bin', PHONE_FILE_MAX_BYTES + 1)).body.msg).toBe('单个文件不能超过50MB')
    expect((await ticket(880001, 'empty.txt', 0)).body.msg).toBe('文件内容为空')
    expect((await ticket(880001, '  ', 1)).body.msg).toBe('文件名不能为空')
    expect((await ticket(880001, `${'长'.repeat(101)}.txt`, 1)).body.msg).toBe('文件名不能超过100个字符')
    const tk = (await ticket(880001, 'size.txt', 3)).body.data
    expect((await send(tk.uploadUrl, new Uint8Array([1, 2, 3, 4]))).msg).toBe('文件大小与申请时不符，请重新上传')
    expect((await listOf(880001)).body.data.list.map((f) => f.name)).not.toContain('size.txt')
    // a path in the name is not a folder on the phone
    const done = await uploadTo(880001, '../../etc/passwd', new Uint8Array([1]))
    expect((await listOf(880001)).body.data.list.find((f) => f.fileId === done.data.fileId)!.name).toBe('.._.._etc_passwd')
  })

  it("refuses a file past the phone's space or count quota", async () => {
    const db = filesDb(t.server.db)
    const deviceId = await deviceIdOf(880005)
    await listOf(880005)
    const filler = await db.insertInto('phone_files').values({
      device_id: deviceId, user_id: null, name: 'filler.bin', size: PHONE_FILES_MAX_BYTES - 10, content_type: 'application/octet-stream', upload_key: 'filler-key', complete: true,
    }).returning('id').executeTakeFirstOrThrow()
    expect((await ticket(880005, 'more.bin', 1024)).body.msg).toBe('云手机文件空间不足（上限500MB）')
    await db.deleteFrom('phone_files').where('id', '=', filler.id).execute()

    const { list } = (await listOf(880005)).body.data
    await db.insertInto('phone_files').values(Array.from({ length: PHONE_FILES_MAX_COUNT - list.length }, (_, i) => ({
      device_id: deviceId, user_id: null, name: `f${i}.txt`, size: 1, content_type: 'text/plain', upload_key: `count-${i}`, complete: true,
    }))).execute()
    expect((await ticket(880005, 'one-more.txt', 1)).body.msg).toBe('云手机文件数量已达上限（200个）')
    expect((await listOf(880005)).body.data.list).toHaveLength(PHONE_FILES_MAX_COUNT)
  })

  it('a download needs the right upload key, and an empty file id answers 文件ID为空', async () => {
    const done = await uploadTo(880001, 'secret.txt', new Uint8Array([7, 7]))
    expect((await fetch(fileDownloadUrl(`${base}/api`, 'phoneFile', done.data.fileKey, done.data.fileId))).status).toBe(200)
    const wrong = await fetch(fileDownloadUrl(`${base}/api`, 'phoneFile', 'not-the-key', done.data.fileId))
    expect(wrong.status).toBe(404)
    expect((await wrong.json()).msg).toBe('文件不存在')
    expect((await fetch(fileDownloadUrl(`${base}/api`, 'avatar', done.data.fileKey, done.data.fileId))).status).toBe(404)
    expect(() => fileDownloadUrl(`${base}/api`, 'phoneFile', done.data.fileKey, '')).toThrow(FILE_ID_EMPTY)
    expect((await (await fetch(`${base}/api/document/newFile/download/phoneFile/${done.data.fileKey}/`)).json()).msg).toBe(FILE_ID_EMPTY)
  })
})
