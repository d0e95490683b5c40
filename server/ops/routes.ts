// Operator endpoints under /__ops/*: push a message to a user, toggle maintenance, list live push connections (of
// every instance over the database), read the latest SMS code of a phone.
// Only loopback callers carrying the token written to <dataDir>/ops-token are served.
import { createHash, timingSafeEqual } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { getConnInfo } from '@hono/node-server/conninfo'
import * as Schema from 'effect/Schema'
import { PushMessage } from '../../worker/protocol/push.ts'
import { envelope } from '../../worker/protocol/envelope.ts'
import type { ServerContext } from '../context.ts'
import type { PushServer } from '../push/hub.ts'
import type { LocalStreamServer } from '../devices/sim/stream-server.ts'
import { failure } from '../http/route.ts'
import { decodeRequest } from '../http/validate.ts'
import { writeMaintenance } from '../system/maintenance.ts'
import { latestCode } from '../session/sms.ts'
import { sessionDb } from '../session/tables.ts'
import { settle } from '../pay/pay-service.ts'
import { payDb } from '../pay/tables.ts'
import { writePaySwitch } from '../pay/pay-switch.ts'
import { SWITCHES, writeSwitch } from '../system/switches.ts'
import { registerFixtureRoute } from './fixtures.ts'
import { countAnalytics } from '../system/analytics.ts'
import { encryptPhoneFor, issueAppletCode } from '../session/applet.ts'

export const OPS_TOKEN_FILE = 'ops-token'
export const OPS_TOKEN_HEADER = 'X-Ops-Token'

export const OpsPushRequest = Schema.Struct({ phone: Schema.String, message: PushMessage })
export const OpsMaintenanceRequest = Schema.Struct({
  on: Schema.Boolean,
  content: Schema.optional(Schema.String),
  showTime: Schema.optional(Schema.String),
})

/** One OS's buy switch (§3 payment switch) and, optionally, the payTips shown while it is off. */
export const OpsPaySwitchRequest = Schema.Struct({ os: Schema.Literals(['ios', 'android']), on: Schema.Boolean, payTips: Schema.optional(Schema.String) })

/** A feature switch (server/system/switches.ts) turned on or off. */
export const OpsSwitchRequest = Schema.Struct({ name: Schema.Literals(Object.keys(SWITCHES) as Array<keyof typeof SWITCHES>), on: Schema.Boolean })

/** The simulated payment provider's answer for one order. */
export const OpsPayRequest = Schema.Struct({ myOrderNum: Schema.String, result: Schema.Literals(['success', 'fail']) })
/** The simulated WeChat for one mini program user: a wx.login code and the phone sealed as getPhoneNumber would. */
export const OpsAppletRequest = Schema.Struct({ phone: Schema.String, openId: Schema.optional(Schema.String) })

export const DEFAULT_MAINTENANCE_CONTENT = '系统维护中，暂时无法使用，请稍后再试'

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

const pad = (n: number): string => String(n).padStart(2, '0')
/** One hour from now as "YYYY-MM-DD HH:mm" (local time), the default end of a maintenance window. */
export const defaultShowTime = (now = new Date(Date.now() + 3_600_000)): string =>
  `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}`

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest()

/** Compares in constant time (over digests, so the lengths match too): the answer time says nothing of the token. */
export const opsTokenMatches = (sent: string | undefined, token: string): boolean =>
  timingSafeEqual(digest(sent ?? ''), digest(token)) && sent !== undefined

/** Writes the operator token to the data dir, where `npm run ops` reads it. */
export const writeOpsToken = (dataDir: string, token: string): void => {
  mkdirSync(dataDir, { recursive: true })
  writeFileSync(join(dataDir, OPS_TOKEN_FILE), token, { mode: 0o600 })
}

/** `hub`: this instance's push hub, which can ask every instance for its connections. */
/** The operator's view of this instance's phone screens (e2e tests read a phone's state with it). */
export type OpsPhones = Pick<LocalStreamServer, 'phoneState' | 'encoding' | 'viewerCount' | 'thumbSubscribers' | 'socketCount' | 'dropSockets'>

export const registerOpsRoutes = (ctx: ServerContext, opsToken: string, hub: Pick<PushServer, 'connections'>, phones?: OpsPhones): void => {
  const { app, db } = ctx

  app.use('/__ops/*', async (c, next) => {
    let address = ''
    try {
      address = getConnInfo(c).remote.address ?? ''
    } catch {
      address = ''
    }
    // a request a load balancer relayed (it says so in X-Forwarded-For) is not the operator's, even from this host
    const relayed = c.req.header('X-Forwarded-For') !== undefined
    if (!LOOPBACK.has(address) || relayed) return failure(c, 403, '仅允许本机访问', null, 404)
    if (!opsTokenMatches(c.req.header(OPS_TOKEN_HEADER), opsToken)) return failure(c, 401, '运维令牌无效', null, 401)
    await next()
  })

  // a phone's screen state on this instance: what the customer's input did, read without trusting the pixels
  app.get('/__ops/phone', async (c) => {
    const userCardId = Number(c.req.query('userCardId'))
    const device = Number.isInteger(userCardId)
      ? await db.selectFrom('devices').select('id').where('user_card_id', '=', userCardId).executeTakeFirst()
      : undefined
    if (!device || !phones) return failure(c, 404, '没有这台云手机', null, 404)
    const state = phones.phoneState(device.id)
    return c.json(envelope(0, {
      encoding: phones.encoding(device.id),
      viewers: phones.viewerCount(device.id),
      thumbSubscribers: phones.thumbSubscribers(device.id),
      sockets: phones.socketCount(),
      state: state === null ? null : {
        orientation: state.orientation, screen: state.screen, text: state.text, clipboard: state.clipboard,
        counter: state.counter, inputSeq: state.inputSeq, rejected: state.rejected, music: state.music.playing,
        apps: state.apps.map((a) => a.name), files: state.files.map((f) => f.name),
      },
    }))
  })

  app.post('/__ops/streams/drop', (c) => c.json(envelope(0, { dropped: phones?.dropSockets() ?? 0 })))

  app.post('/__ops/push', async (c) => {
    const body = decodeRequest(OpsPushRequest, await c.req.json().catch(() => null))
    const delivered = await ctx.hub.send(body.phone, body.message)
    return c.json(envelope(0, { delivered }))
  })

  app.post('/__ops/maintenance', async (c) => {
    const body = decodeRequest(OpsMaintenanceRequest, await c.req.json().catch(() => null))
    const msg = await writeMaintenance(db, {
      maintenanceSwitch: body.on,
      maintenanceContent: body.on ? (body.content ?? DEFAULT_MAINTENANCE_CONTENT) : (body.content ?? ''),
      showTime: body.on ? (body.showTime ?? defaultShowTime()) : (body.showTime ?? ''),
    })
    return c.json(envelope(0, msg))
  })

  app.get('/__ops/sms', async (c) => {
    const sent = await latestCode(sessionDb(db), (c.req.query('phone') ?? '').trim())
    if (!sent) return failure(c, 1004, '该手机号没有验证码记录')
    return c.json(envelope(0, sent))
  })

  app.post('/__ops/applet', async (c) => {
    const body = decodeRequest(OpsAppletRequest, await c.req.json().catch(() => null))
    const wx = await issueAppletCode(db, body.openId)
    return c.json(envelope(0, { code: wx.code, openId: wx.openId, ...encryptPhoneFor(wx.sessionKey, body.phone.trim()) }))
  })

  app.post('/__ops/pay', async (c) => {
    const body = decodeRequest(OpsPayRequest, await c.req.json().catch(() => null))
    return c.json(envelope(0, await settle(payDb(db), ctx.hub, body.myOrderNum, body.result === 'success')))
  })

  app.post('/__ops/pay-switch', async (c) => {
    const body = decodeRequest(OpsPaySwitchRequest, await c.req.json().catch(() => null))
    await writePaySwitch(db, body.os, body.on, body.payTips)
    return c.json(envelope(0, null))
  })

  app.post('/__ops/switch', async (c) => {
    const body = decodeRequest(OpsSwitchRequest, await c.req.json().catch(() => null))
    await writeSwitch(db, body.name, body.on)
    return c.json(envelope(0, null))
  })

  app.get('/__ops/stats', async (c) => c.json(envelope(0, await countAnalytics(db))))

  registerFixtureRoute(app, db)
  app.get('/__ops/connections', async (c) => c.json(envelope(0, await hub.connections())))
}
