// Issue 11 findings 5 and 10: bulk results name only the caller's devices, and answer a device of another user
// exactly like one that does not exist (no names of other tenants, no enumeration); the ID-card duplicate check keeps
// a keyed hash (HMAC with a server secret), not a plain SHA-256 a dump could be reversed from.
import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { accountDb } from '../../../server/account/tables.ts'
import { serverSecret } from '../../../server/security/server-secret.ts'
import { api, loginToken, useTestServer } from '../server/helpers.ts'

const t = useTestServer()

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

describe('ID-card duplicate check', () => {
  it('stores an HMAC under the server secret, and still refuses the same number for a second account', async () => {
    const idCard = '110101199003077571'
    const verify = async (phone: string) => {
      const { token } = await loginToken(t.server.url, phone)
      return api(t.server.url, 'POST', '/api/user/v5/user/identityVerification', { token, body: { realName: '李四', idCard } })
    }
    expect((await verify('13500135000')).body.status).toBe(0)
    const row = await accountDb(t.server.db).selectFrom('account_profiles').innerJoin('users', 'users.id', 'account_profiles.user_id')
      .select('id_card_digest').where('users.phone', '=', '13500135000').executeTakeFirstOrThrow()
    expect(row.id_card_digest).not.toBe(createHash('sha256').update(`id-card:${idCard}`).digest('hex'))
    const key = await serverSecret(t.server.db, 'id-card-hmac')
    expect(row.id_card_digest).toBe(createHmac('sha256', key).update(`id-card:${idCard}`).digest('hex'))
    expect((await verify('13600136000')).body.msg).toBe('该身份证已认证其他账号')
  })
})
