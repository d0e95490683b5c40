// Issue 11 finding 4: tokens expire; the logout visit and a password reset revoke them, and the push hub closes the
// sockets a revoked token opened (they receive nothing more).
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { runOps } from '../../../server/ops.ts'
import { CLOSE_UNAUTHORIZED } from '../../../server/push/local-sockets.ts'
import { sessionDb } from '../../../server/session/tables.ts'
import { SmsPurpose } from '../../../worker/protocol/session.ts'
import { api, encryptPassword, loginToken, openSocket, pushUrl, useTestServer } from '../server/helpers.ts'

const t = useTestServer()

const PERSONAL = '/api/user/v1/client/personalInfo'
const VISIT = '/api/user/v5/visitDetailed/operationVisitDetailed'

const socketOf = async (session: { token: string; username: string }) => {
  const socket = openSocket(pushUrl(t.base, { deviceId: 'd', username: session.username, Authorization: session.token }))
  await socket.opened()
  return socket
}

describe('sessions', () => {
  it('a token past its expiry is refused with 401', async () => {
    const { token } = await loginToken(t.base, '13700137000')
    expect((await api(t.base, 'GET', PERSONAL, { token })).http).toBe(200)
    await t.server.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('token', '=', token).execute()
    expect((await api(t.base, 'GET', PERSONAL, { token })).http).toBe(401)
  })

  it('the logout visit revokes the token and closes its push socket; other sessions stay', async () => {
    const leaving = await loginToken(t.base, '13800138000')
    const staying = await loginToken(t.base, '13800138000')
    const leavingSocket = await socketOf(leaving)
    const stayingSocket = await socketOf(staying)
    const visit = await api(t.base, 'POST', VISIT, { token: leaving.token, body: { uuid: 'u', operationType: 2 } })
    expect(visit.body.status).toBe(0)
    await leavingSocket.until(() => leavingSocket.closeCode !== null)
    expect(leavingSocket.closeCode).toBe(CLOSE_UNAUTHORIZED)
    expect((await api(t.base, 'GET', PERSONAL, { token: leaving.token })).http).toBe(401)
    expect((await api(t.base, 'GET', PERSONAL, { token: staying.token })).http).toBe(200)
    expect(stayingSocket.closeCode).toBeNull()
    stayingSocket.close()
  })

  it('a password reset closes the sockets of every old token; they get no more pushes', async () => {
    const phone = '13500135000'
    const session = await loginToken(t.base, phone)
    const socket = await socketOf(session)
    await sessionDb(t.server.db).updateTable('sms_codes').set({ created_at: sql`created_at - interval '61 seconds'` } as never).where('phone', '=', phone).execute()
    expect((await api(t.base, 'POST', '/api/message/v5/phone/send', { body: { type: 'common', authorizationType: SmsPurpose.forgotPassword, phone } })).body.status).toBe(0)
    const code = await runOps(['sms', phone], t.ops)
    const pem = (await api<string>(t.base, 'POST', '/api/user/v1/client/login/getPbKey')).body.data
    const reset = await api(t.base, 'PUT', '/api/user/v5/user/passwordBackNew', { body: { phone, code, password: encryptPassword(pem, 'New2026pw') } })
    expect(reset.body.status).toBe(0)
    await socket.until(() => socket.closeCode !== null)
    expect(socket.closeCode).toBe(CLOSE_UNAUTHORIZED)
    const framesBefore = socket.frames.length
    expect(await t.server.hub.send(phone, { type: 'refreshCloudPhoneList', data: null })).toBe(0)
    expect(socket.frames.length).toBe(framesBefore)
    expect((await api(t.base, 'GET', PERSONAL, { token: session.token })).http).toBe(401)
  })
})
