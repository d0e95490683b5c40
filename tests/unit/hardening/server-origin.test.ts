// Issue 22 findings 9 and 10: absolute URLs (avatar URLs, the file host, the connect answer's origin, ad images) are
// built on the server's own origin; X-Forwarded-Host/-Proto and the Host header are believed only from a trusted
// balancer, and a request that reached one over https is answered with HSTS.
import { request } from 'node:http'
import QRCode from 'qrcode'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsePublicOrigin } from '../../../server/http/origin.ts'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import type { ConnectReady } from '../../../worker/protocol/devices.ts'
import type { UploadedFile, UploadTicket } from '../../../worker/protocol/files.ts'
import { api, loginToken, startTestServer, type Envelope, type TestServer } from '../server/helpers.ts'

const ADS = '/api/public/v5/advertising/getAdInfoByAdPlace'
const evil = { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' }

/** A request with any Host header (fetch does not let one be set). */
const raw = (base: string, method: string, path: string, headers: Record<string, string>, body?: Buffer | string) =>
  new Promise<{ headers: Record<string, string | string[] | undefined>; json: Envelope<any> }>((resolve, reject) => {
    const url = new URL(path, base)
    const req = request({ host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers: { client: '7', versionName: '5.9.2', merchantSign: 'SPW', ...headers } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ headers: res.headers, json: JSON.parse(Buffer.concat(chunks).toString()) as Envelope<any> }))
    })
    req.on('error', reject)
    req.end(body)
  })

const json = (value: unknown) => JSON.stringify(value)

/** The absolute URLs one server hands out under the given request headers. */
const urlsUnder = async (t: TestServer, token: string, png: Buffer, headers: Record<string, string>) => {
  const base = t.server.url
  const tk = (await api<UploadTicket>(base, 'POST', '/api/document/newFile/uploadTicket', { token, body: { purpose: 'avatar' } })).body.data
  const uploaded = await raw(base, 'POST', tk.uploadUrl, { ...headers, 'Content-Type': 'image/png' }, png)
  const ads = await raw(base, 'POST', ADS, { ...headers, 'Content-Type': 'application/json' }, json({ adPlace: 1 }))
  const connected = await raw(base, 'POST', catalogue.connect.path, { ...headers, Authorization: token, 'Content-Type': 'application/json' }, json({ userCardId: 880006 }))
  return {
    avatar: (uploaded.json as Envelope<UploadedFile>).data.url,
    adImage: (ads.json.data as Array<{ imageUrl: string }>)[0]!.imageUrl,
    connect: (connected.json as Envelope<ConnectReady>).data.internetHttps,
    hsts: connected.headers['strict-transport-security'],
  }
}

let png: Buffer
beforeAll(async () => {
  png = await QRCode.toBuffer('origin')
})

describe('a server with no trusted balancer', () => {
  let t: TestServer
  let token: string
  beforeAll(async () => {
    t = await startTestServer()
    token = (await loginToken(t.server.url, '13500135000')).token
  }, 120_000)
  afterAll(() => t?.stop())

  it('ignores X-Forwarded-Host, X-Forwarded-Proto and a Host naming another site: URLs are on its own origin', async () => {
    const urls = await urlsUnder(t, token, png, evil)
    expect(urls.avatar.startsWith(`${t.server.url}/api/document/newFile/image?fileKey=`)).toBe(true)
    expect(urls.adImage.startsWith(`${t.server.url}/`)).toBe(true)
    expect(urls.connect).toBe(t.server.url)
    expect(urls.hsts).toBeUndefined()
  })

  it('takes a Host header that names the server itself (another of its own names, its port)', async () => {
    const port = new URL(t.server.url).port
    const urls = await urlsUnder(t, token, png, { Host: `localhost:${port}` })
    expect(urls.connect).toBe(`http://localhost:${port}`)
    const otherPort = await urlsUnder(t, token, png, { Host: 'localhost:1' })
    expect(otherPort.connect).toBe(t.server.url)
  })
})

describe('a server behind a trusted balancer', () => {
  let t: TestServer
  let token: string
  beforeAll(async () => {
    t = await startTestServer({ trustedProxies: ['127.0.0.1'] })
    token = (await loginToken(t.server.url, '13500135000')).token
  }, 120_000)
  afterAll(() => t?.stop())

  it('builds URLs on the host and scheme the balancer forwards, and asks for https only when the client used it', async () => {
    const forwarded = await urlsUnder(t, token, png, { 'X-Forwarded-Host': 'phone.example.com', 'X-Forwarded-Proto': 'https' })
    expect(forwarded.avatar.startsWith('https://phone.example.com/api/document/newFile/image?fileKey=')).toBe(true)
    expect(forwarded.adImage.startsWith('https://phone.example.com/')).toBe(true)
    expect(forwarded.connect).toBe('https://phone.example.com')
    expect(forwarded.hsts).toBe('max-age=31536000')
    const plain = await urlsUnder(t, token, png, { Host: 'phone.example.com' })
    expect(plain.connect).toBe('http://phone.example.com')
    expect(plain.hsts).toBeUndefined()
  })

  it('refuses a forwarded host that is not a host name', async () => {
    const urls = await urlsUnder(t, token, png, { 'X-Forwarded-Host': 'evil.example/path@x' })
    expect(urls.connect).toBe(t.server.url)
  })
})

describe('a configured public origin', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer({ publicOrigin: 'https://phone.example.com', trustedProxies: ['127.0.0.1'] })
  }, 120_000)
  afterAll(() => t?.stop())

  it('is used whatever the request says', async () => {
    const token = (await loginToken(t.server.url, '13500135000')).token
    const urls = await urlsUnder(t, token, png, evil)
    expect(urls.avatar).toMatch(/^https:\/\/phone\.example\.com\/api\//)
    expect(urls.connect).toBe('https://phone.example.com')
  })

  it('must be a bare http(s) origin', () => {
    expect(parsePublicOrigin('https://phone.example.com/')).toBe('https://phone.example.com')
    expect(() => parsePublicOrigin('https://phone.example.com/app')).toThrow()
    expect(() => parsePublicOrigin('ftp://phone.example.com')).toThrow()
  })
})
