// Analytics on the reference server: page records, visits and active records are stored for users and visitors,
// refused in Chinese when malformed, and counted for `npm run ops -- stats`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatStats, opsStats } from '../../../server/ops.ts'
import { api, loginToken, startTestServer, type TestServer } from './helpers.ts'

let t: TestServer
let base: string
let token: string

beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
  token = (await loginToken(base, '13500135000')).token
}, 60_000)
afterAll(() => t?.stop())

describe('analytics', () => {
  it('stores what users and visitors report and counts it', async () => {
    const records = [
      { pointName: 'page_view', pagePath: '/', time: Date.now() },
      { pointName: 'page_view', pagePath: '/package/setUp/setUp', time: Date.now() },
    ]
    expect((await api(base, 'POST', '/api/public/v5/buriedPointRecord/reportRecords', { token, body: { records } })).body.status).toBe(0)
    expect((await api(base, 'POST', '/api/public/v5/buriedPointRecord/reportRecords', { body: { records: records.slice(0, 1) } })).body.status).toBe(0)
    expect((await api(base, 'POST', '/api/user/v5/operateApi/addUserVisit', { token, body: {} })).body.status).toBe(0)
    expect((await api(base, 'POST', '/api/user/v1/client/login/addActiveRecord', { token, body: {} })).body.status).toBe(0)
    expect((await api(base, 'POST', '/api/public/v1/systemBuriedPoint/stat', { token, body: { pointName: 'share_invite' } })).body.status).toBe(0)

    const counts = await opsStats(t.ops)
    expect(counts.pageRecords).toEqual([{ name: 'page_view', count: 3 }])
    expect(counts.statPoints).toContainEqual({ name: 'share_invite', count: 1 })
    expect(counts).toMatchObject({ userVisits: 1, activeRecords: 1 })
    expect(formatStats(counts)).toContain('  page_view 3')
    expect(formatStats(counts)).toContain('用户访问（addUserVisit）：1')
  })

  it('refuses malformed and oversized reports in Chinese', async () => {
    const bad = await api(base, 'POST', '/api/public/v5/buriedPointRecord/reportRecords', {
      body: { records: [{ pointName: '<script>', pagePath: '/', time: 1 }] },
    })
    expect(bad.body.msg).toBe('上报记录格式不正确')
    const many = Array.from({ length: 51 }, () => ({ pointName: 'page_view', pagePath: '/', time: 1 }))
    expect((await api(base, 'POST', '/api/public/v5/buriedPointRecord/reportRecords', { body: { records: many } })).body.msg).toBe('每次最多上报50条记录')
    expect((await opsStats(t.ops)).pageRecords).toEqual([{ name: 'page_view', count: 3 }])
  })
})
