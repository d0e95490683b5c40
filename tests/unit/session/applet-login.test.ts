// The mini program's login calls on the reference server: a wx.login code of the simulated WeChat gives the openId
// once (with a one-time login ticket the next steps show), the phone WeChat sealed under that session's key is
// decrypted and verified, and applet/login signs in (or creates) the account of that phone. Forged, reused or stale inputs are refused in Chinese.
import { describe, expect, it } from 'vitest'
import { runOps } from '../../../server/ops.ts'
import { AppletMsg, encryptPhoneFor, issueAppletCode } from '../../../server/session/applet.ts'
import { api, useTestServer } from '../server/helpers.ts'

const t = useTestServer()

const KEY = '/api/user/v4/applets/getAppletsKey'
const DATA = '/api/user/v4/applets/getAppletsData'
const LOGIN = '/api/user/v5/clientLogin/applet/login'

describe('mini program login', () => {
  it('code -> openId -> verified phone -> login of that phone\'s account', async () => {
    const wx = await issueAppletCode(t.server.db)
    const key = await api<{ openId: string; loginTicket: string }>(t.base, 'POST', KEY, { body: { code: wx.code } })
    expect(key.body.data).toEqual({ openId: wx.openId, loginTicket: expect.stringMatching(/^[0-9a-f]{48}$/) })
    const { loginTicket } = key.body.data
    expect(key.text).not.toContain(wx.sessionKey)
    // a code is good once
    expect((await api(t.base, 'POST', KEY, { body: { code: wx.code } })).body).toMatchObject({ success: false, msg: AppletMsg.code })

    // no phone verified yet: no login
    expect((await api(t.base, 'POST', LOGIN, { body: { openId: wx.openId, loginTicket, uuid: 'u1' } })).body).toMatchObject({ success: false, msg: AppletMsg.phone })

    const sealed = encryptPhoneFor(wx.sessionKey, '13800138000')
    const data = await api<{ phone: string }>(t.base, 'POST', DATA, { body: { openId: wx.openId, loginTicket, ...sealed } })
    expect(data.body.data).toEqual({ phone: '13800138000' })

    const login = await api<{ token: string; username: string; userType: number; phone: string }>(t.base, 'POST', LOGIN, { body: { openId: wx.openId, loginTicket, uuid: 'u1' } })
    expect(login.body.data).toMatchObject({ username: 'demo', phone: '13800138000' })
    const info = await api<{ username: string }>(t.base, 'GET', '/api/user/v1/client/personalInfo', { token: login.body.data.token })
    expect(info.body.data.username).toBe('demo')
  })

  it('an unknown phone gets a new account, like an SMS quick login', async () => {
    const wx = await issueAppletCode(t.server.db)
    const { loginTicket } = (await api<{ loginTicket: string }>(t.base, 'POST', KEY, { body: { code: wx.code } })).body.data
    await api(t.base, 'POST', DATA, { body: { openId: wx.openId, loginTicket, ...encryptPhoneFor(wx.sessionKey, '13912345678') } })
    const login = await api<{ username: string; userType: number; phone: string }>(t.base, 'POST', LOGIN, { body: { openId: wx.openId, loginTicket, uuid: 'u2' } })
    expect(login.body.data).toMatchObject({ userType: 1, phone: '13912345678' })
    expect(login.body.data.username).toMatch(/^u[0-9a-z]{1,7}$/)
  })

  it('refuses data sealed under another key or for another app, and an openId without a session', async () => {
    const wx = await issueAppletCode(t.server.db)
    const { loginTicket } = (await api<{ loginTicket: string }>(t.base, 'POST', KEY, { body: { code: wx.code } })).body.data
    const other = await issueAppletCode(t.server.db)
    const wrongKey = await api(t.base, 'POST', DATA, { body: { openId: wx.openId, loginTicket, ...encryptPhoneFor(other.sessionKey, '13800138000') } })
    expect(wrongKey.body).toMatchObject({ success: false, msg: AppletMsg.data })
    const wrongApp = await api(t.base, 'POST', DATA, { body: { openId: wx.openId, loginTicket, ...encryptPhoneFor(wx.sessionKey, '13800138000', 'wx-someone-else') } })
    expect(wrongApp.body).toMatchObject({ success: false, msg: AppletMsg.data })
    const garbage = await api(t.base, 'POST', DATA, { body: { openId: wx.openId, loginTicket, encryptedData: 'AAAA', iv: 'AAAA' } })
    expect(garbage.body).toMatchObject({ success: false, msg: AppletMsg.data })
    expect(garbage.text).not.toMatch(/at .*\.ts/)
    const stranger = await api(t.base, 'POST', LOGIN, { body: { openId: 'o-never-issued', loginTicket, uuid: 'u3' } })
    expect(stranger.body).toMatchObject({ success: false, msg: AppletMsg.session })
    // the unused code of `other` stays good for its own mini program user
    expect((await api(t.base, 'POST', KEY, { body: { code: other.code } })).body.data).toMatchObject({ openId: other.openId })
  })

  it('operators play WeChat with `npm run ops -- applet <phone>`: its code and sealed phone sign that phone in', async () => {
    const wx = JSON.parse(await runOps(['applet', '13700137000'], t.ops)) as { code: string; openId: string; encryptedData: string; iv: string }
    const { openId, loginTicket } = (await api<{ openId: string; loginTicket: string }>(t.base, 'POST', KEY, { body: { code: wx.code } })).body.data
    expect(openId).toBe(wx.openId)
    await api(t.base, 'POST', DATA, { body: { openId, loginTicket, encryptedData: wx.encryptedData, iv: wx.iv } })
    const login = await api<{ username: string }>(t.base, 'POST', LOGIN, { body: { openId, loginTicket, uuid: 'u4' } })
    expect(login.body.data.username).toBe('partner')
  })
})
