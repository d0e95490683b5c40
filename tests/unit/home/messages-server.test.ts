// The messages area of the reference server: home pop-up ads with usable click targets, the notices of the message
// centre (list, unread total, pop-up announcement, mark read) and the 60-device fleet account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Device } from '../../../worker/protocol/devices.ts'
import type { Ad, Notice, NoticePage } from '../../../worker/protocol/messages.ts'
import { adTarget } from '../../../src/features/devices/ad-click.ts'
import { seed } from '../../../server/db/seed.ts'
import { api, loginToken, startTestServer, type TestServer } from '../server/helpers.ts'

let t: TestServer
let base: string
let demo: string
let partner: string

const ADS = '/api/public/v5/advertising/getAdInfoByAdPlace'
const ALL = '/api/message/v1/message/notice/all'
const UNREAD = '/api/message/v1/message/notice/unread/total'
const POPUP = '/api/message/v1/message/notice/getNoticePopUpPush'
const read = (id: number | string) => `/api/message/v1/message/notice/read/${id}`

const unread = async (token: string) => (await api<number>(base, 'GET', UNREAD, { token })).body.data
const notices = async (token: string, query = '') => (await api<NoticePage>(base, 'GET', ALL + query, { token })).body.data

beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
  demo = (await loginToken(base, '13800138000')).token
  partner = (await loginToken(base, '13700137000')).token
}, 60_000)
afterAll(() => t?.stop())

describe('pop-up ads', () => {
  it('anyone gets the home pop-up ads in order, each leading to the ad view or the purchase page', async () => {
    const { body } = await api<Ad[]>(base, 'POST', ADS, { body: { adPlace: 1 } })
    expect(body.status).toBe(0)
    expect(body.data.map((a) => a.adName)).toEqual(['春季焕新活动', '性能版限时特惠'])
    const [promo, purchase] = body.data.map(adTarget)
    expect(promo).toEqual({ kind: 'navigate', to: '/package/adView/adView', search: { url: `${base}/ads/promo/spring`, adId: String(body.data[0].id) } })
    expect(purchase).toEqual({ kind: 'navigate', to: '/package/purchase/purchase', search: { phoneType: 'PERFORMANCE', androidVersion: '12' } })
  })

  it('an ad place without ads answers empty data', async () => {
    const { body } = await api<Ad[]>(base, 'POST', ADS, { body: { adPlace: 99 } })
    expect(body).toMatchObject({ status: 0, data: [] })
  })

  it('a missing ad place is a payload error, not a crash', async () => {
    const { body } = await api(base, 'POST', ADS, { body: {} })
    expect(body.status).toBe(1001)
  })

  it('serves the ads\' images and promo page, embeddable from another origin', async () => {
    const ads = (await api<Ad[]>(base, 'POST', ADS, { body: { adPlace: 1 } })).body.data
    const image = await fetch(ads[0]!.imageUrl)
    expect(image.headers.get('content-type')).toBe('image/png')
    expect(image.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    // a PNG's signature and the artwork's 600x800 (IHDR), not an empty or truncated body
    const png = new DataView(await image.arrayBuffer())
    expect(png.getUint32(0)).toBe(0x89504e47)
    expect([png.getUint32(16), png.getUint32(20)]).toEqual([600, 800])
    // data seeded before the PNGs still names the SVG artwork, which stays served
    const svg = await fetch(ads[0]!.imageUrl.replace(/\.png$/, '.svg'))
    expect(svg.headers.get('content-type')).toContain('image/svg+xml')
    expect(await svg.text()).toContain('春季焕新')
    const page = await fetch(ads[0]!.clickUrl)
    expect(await page.text()).toContain('春季焕新活动')
  })
})

describe('notices', () => {
  it('the list is newest first with everyone\'s notices and the user\'s own, all unread at first', async () => {
    const page = await notices(demo)
    expect(page.total).toBe(3)
    expect(page.list.map((n) => n.title)).toEqual(['系统升级公告', '春季焕新活动上线', '云手机即将到期提醒'])
    expect(page.list.every((n) => n.readStatus === 0)).toBe(true)
    expect(await unread(demo)).toBe(3)
  })

  it('another user does not see the demo user\'s own notice', async () => {
    expect((await notices(partner)).list.map((n) => n.title)).toEqual(['系统升级公告', '春季焕新活动上线'])
  })

  it('pages by pageNum and pageSize', async () => {
    const second = await notices(demo, '?pageNum=2&pageSize=2')
    expect(second.total).toBe(3)
    expect(second.list.map((n) => n.title)).toEqual(['云手机即将到期提醒'])
  })

  it('a visitor gets 401', async () => {
    const { http } = await api(base, 'GET', ALL)
    expect(http).toBe(401)
  })

  it('marking read by the id in the path lowers the unread total for that user only, and is idempotent', async () => {
    const target = (await notices(demo)).list.find((n) => n.title === '春季焕新活动上线')!
    const partnerBefore = await unread(partner)
    for (let i = 0; i < 2; i++) expect((await api(base, 'PUT', read(target.id), { token: demo })).body.status).toBe(0)
    expect(await unread(demo)).toBe(2)
    expect((await notices(demo)).list.find((n) => n.id === target.id)!.readStatus).toBe(1)
    expect(await unread(partner)).toBe(partnerBefore)
  })

  it('the pop-up announcement is the newest unread system announcement, and empty once it is read', async () => {
    const popup = (await api<Notice | null>(base, 'GET', POPUP, { token: partner })).body
    expect(popup.status).toBe(0)
    expect(popup.data).toMatchObject({ title: '系统升级公告', noticeType: 1, readStatus: 0 })
    // a caller whose request still carries the path template sends the id in the body
    expect((await api(base, 'PUT', read('%7Bid%7D'), { token: partner, body: { id: popup.data!.id } })).body.status).toBe(0)
    expect((await api(base, 'GET', POPUP, { token: partner })).body.data).toBeNull()
  })

  it('a notice the user cannot see is not found, and an id is required', async () => {
    const own = (await notices(demo)).list.find((n) => n.title === '云手机即将到期提醒')!
    expect((await api(base, 'PUT', read(own.id), { token: partner })).body.status).toBe(1004)
    expect((await api(base, 'PUT', read('%7Bid%7D'), { token: partner, body: {} })).body.status).toBe(1001)
  })
})

describe('seed', () => {
  it('the fleet account has the maximum of 60 devices in every tier, some expiring and some expired', async () => {
    const fleet = (await loginToken(base, '13600136000')).token
    const { body } = await api<Device[]>(base, 'GET', '/api/resources/v6/client/device/info/getDeviceList', { token: fleet })
    expect(body.data).toHaveLength(60)
    expect(new Set(body.data.map((d) => d.buyVipType))).toEqual(new Set(['VIP', 'SVIP', 'STAR', 'STARPRO']))
    expect(body.data.some((d) => d.validTime <= 0)).toBe(true)
    expect(body.data.some((d) => d.validTime > 0 && d.validTime <= 4320)).toBe(true)
  })

  it('seeding again adds no ads, notices or devices', async () => {
    const count = async (table: 'ads' | 'notices' | 'devices') =>
      Number((await t.server.db.withTables<Record<string, Record<string, unknown>>>().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    const before = [await count('ads'), await count('notices'), await count('devices')]
    await seed(t.server.db)
    expect([await count('ads'), await count('notices'), await count('devices')]).toEqual(before)
  })
})
