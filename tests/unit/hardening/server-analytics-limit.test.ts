// Issue 22 finding 5: anonymous analytics writes are limited in volume per client address, and writes with a token
// per account: before, 100 requests from one client stored 5 000 rows in well under a second.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { RatePolicies, THROTTLED_STATUS } from '../../../server/security/throttle.ts'
import { api, loginToken, useTestServer } from '../server/helpers.ts'

const t = useTestServer()
const REPORT = '/api/public/v5/buriedPointRecord/reportRecords'
const records = Array.from({ length: 50 }, (_, i) => ({ pointName: 'page_view', pagePath: `/p${i}`, time: Date.now() }))
const stored = async (): Promise<number> =>
  (await sql<{ n: number }>`select count(*)::int as n from analytics_events`.execute(t.server.db)).rows[0]!.n

describe('analytics volume limits', () => {
  it('an account may store at most its limit of rows, whatever the address', async () => {
    const { token } = await loginToken(t.base, '13500135000')
    const statuses: number[] = []
    for (let i = 0; i < 15; i++) statuses.push((await api(t.base, 'POST', REPORT, { token, body: { records } })).body.status)
    const allowed = RatePolicies.analyticsUser.limit / records.length
    expect(statuses.slice(0, allowed).every((s) => s === 0)).toBe(true)
    expect(statuses.slice(allowed).every((s) => s === THROTTLED_STATUS)).toBe(true)
    expect(await stored()).toBe(RatePolicies.analyticsUser.limit)
    // the account's other writes count too
    expect((await api(t.base, 'POST', '/api/user/v5/operateApi/addUserVisit', { token, body: {} })).body.status).toBe(THROTTLED_STATUS)
  })

  it('one client without a token stores at most its address\'s limit of rows', async () => {
    const before = await stored()
    const results = await Promise.all(Array.from({ length: 100 }, () => api(t.base, 'POST', REPORT, { body: { records } })))
    const refused = results.filter((r) => r.body.status === THROTTLED_STATUS)
    expect(refused.length).toBeGreaterThan(0)
    expect(refused[0]!.body.msg).toMatch(/尝试次数过多|后再试/)
    // the account above already spent part of this address's budget
    expect(await stored()).toBeLessThanOrEqual(RatePolicies.analyticsAddress.limit)
    expect(await stored() - before).toBeLessThan(100 * records.length)
    expect((await api(t.base, 'POST', '/api/public/v1/systemBuriedPoint/stat', { body: { pointName: 'share_invite' } })).body.status).toBe(THROTTLED_STATUS)
  })
})
