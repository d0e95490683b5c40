// Issue 11 finding 5: bulk results name only the caller's devices, and answer a device of another user exactly like
// one that does not exist (no names of other tenants, no enumeration).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, loginToken, startTestServer, type TestServer } from '../server/helpers.ts'

let t: TestServer

beforeAll(async () => {
  t = await startTestServer()
}, 180_000)
afterAll(() => t?.stop())

describe('bulk results', () => {
  it("another user's device and a missing one get the same refusal, without a name", async () => {
    const { token } = await loginToken(t.server.url, '13800138000')
    const { body, text } = await api<Array<{ userCardId: number; diskName: string; ok: boolean; msg: string }>>(
      t.server.url, 'POST', '/api/resources/card/resources/reboot', { token, body: { userCardIds: [880006, 999999] } })
    expect(body.status).toBe(0)
    expect(body.data).toEqual([
      { userCardId: 880006, diskName: '880006', ok: false, msg: '云手机不存在或无权操作' },
      { userCardId: 999999, diskName: '999999', ok: false, msg: '云手机不存在或无权操作' },
    ])
    expect(text).not.toContain('会员云手机')
  })
})
