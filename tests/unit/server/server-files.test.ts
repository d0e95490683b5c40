// Files on the reference server: an upload ticket from an authenticated call, the upload checked for type, content
// and size, the avatar becoming the head portrait, images by fileKey and downloads in the §7 URL shape.
import QRCode from 'qrcode'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AVATAR_MAX_BYTES, FILE_ID_EMPTY, fileDownloadUrl, fileImageUrl, type UploadedFile, type UploadTicket } from '../../../worker/protocol/files.ts'
import { api, loginToken, startTestServer, type Envelope, type TestServer } from './helpers.ts'

let t: TestServer
let base: string
let token: string
let png: Buffer

const ticket = async () => (await api<UploadTicket>(base, 'POST', '/api/document/newFile/uploadTicket', { token, body: { purpose: 'avatar' } })).body.data
const upload = async (url: string, body: Uint8Array, type: string) =>
  (await (await fetch(base + url, { method: 'POST', headers: { 'Content-Type': type }, body: body as unknown as BodyInit })).json()) as Envelope<UploadedFile>

beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
  token = (await loginToken(base, '13500135000')).token
  png = await QRCode.toBuffer('avatar')
}, 60_000)
afterAll(() => t?.stop())

describe('files', () => {
  it('builds the §7 URL shapes and refuses an empty file id', () => {
    expect(fileDownloadUrl('https://f.example/api', 'avatar', 'k1', '7')).toBe('https://f.example/api/document/newFile/download/avatar/k1/7')
    expect(fileImageUrl('https://f.example/api', 'a b')).toBe('https://f.example/api/document/newFile/image?fileKey=a%20b')
    expect(() => fileDownloadUrl('h', 'avatar', 'k', ' ')).toThrow(FILE_ID_EMPTY)
    expect(() => fileImageUrl('h', '')).toThrow(FILE_ID_EMPTY)
  })

  it('uploads an avatar that becomes the head portrait and is served as an image and a download', async () => {
    const tk = await ticket()
    expect(tk).toMatchObject({ maxBytes: AVATAR_MAX_BYTES, types: ['image/jpeg', 'image/png', 'image/webp'] })
    const done = await upload(tk.uploadUrl, png, 'image/png')
    expect(done.status).toBe(0)
    expect(done.data.url).toBe(`${base}/api/document/newFile/image?fileKey=${done.data.fileKey}`)
    const head = (await api<{ headPortrait: string }>(base, 'GET', '/api/user/v5/user/getHeadPortrait', { token })).body.data
    expect(head.headPortrait).toBe(done.data.url)

    const image = await fetch(done.data.url)
    expect(image.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true)
    const download = await fetch(fileDownloadUrl(`${base}/api`, 'avatar', done.data.fileKey, done.data.fileId))
    expect(download.headers.get('content-disposition')).toContain('attachment')
    expect((await download.arrayBuffer()).byteLength).toBe(png.length)

    // one upload per ticket
    expect((await upload(tk.uploadUrl, png, 'image/png')).msg).toBe('上传链接无效或已过期，请重新选择图片')
  })

  it('refuses other types, renamed files, empty and oversized bodies in Chinese', async () => {
    expect((await upload((await ticket()).uploadUrl, png, 'image/gif')).msg).toBe('仅支持 JPG、PNG、WebP 格式的图片')
    expect((await upload((await ticket()).uploadUrl, png, 'image/jpeg')).msg).toBe('文件内容与图片格式不符')
    expect((await upload((await ticket()).uploadUrl, new Uint8Array(0), 'image/png')).msg).toBe('图片内容为空')
    const big = new Uint8Array(AVATAR_MAX_BYTES + 1)
    big.set(png.subarray(0, 8))
    expect((await upload((await ticket()).uploadUrl, big, 'image/png')).msg).toBe('图片不能超过2MB')
  })

  it('answers 文件ID为空 for an image or download without an id, and nothing for unknown files', async () => {
    expect((await (await fetch(`${base}/api/document/newFile/image?fileKey=`)).json()).msg).toBe(FILE_ID_EMPTY)
    expect((await (await fetch(`${base}/api/document/newFile/download/avatar/k/`)).json()).msg).toBe(FILE_ID_EMPTY)
    expect((await fetch(`${base}/api/document/newFile/image?fileKey=nothing`)).status).toBe(404)
    expect((await fetch(`${base}/api/document/newFile/download/avatar/k/12`)).status).toBe(404)
  })
})
