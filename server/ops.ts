// Operator controls against a running server: `npm run ops -- push <phone> <type> [json]`,
// `maintenance on|off [content] [showTime]`, `connections [--json]`, `sms <phone>`, `pay <myOrderNum> success|fail`,
// `pay-switch ios|android on|off [payTips]`, `switch batch|register on|off`, `stats [--json]`, `fixture` (fresh demo
// accounts, JSON). Target: OPS_URL or PORT; token from DATA_DIR.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as Schema from 'effect/Schema'
import { PushType, type PushData } from '../worker/protocol/push.ts'
import type { MaintenanceMsg } from '../worker/protocol/system.ts'
import type { Order } from '../worker/protocol/pay.ts'
import type { ConnectionsReport } from './push/hub.ts'
import type { SentCode } from './session/sms.ts'
import { OPS_TOKEN_FILE, OPS_TOKEN_HEADER } from './ops/routes.ts'
import type { FixtureWorld } from './ops/fixtures.ts'
import type { AnalyticsCounts } from './system/analytics.ts'

export interface OpsTarget {
  readonly url: string
  readonly token: string
}

/** Where the running server is and its operator token, from the environment. */
export const opsTargetFromEnv = (env: NodeJS.ProcessEnv = process.env): OpsTarget => {
  const url = env.OPS_URL ?? `http://127.0.0.1:${env.PORT ?? 8080}`
  const file = join(resolve(env.DATA_DIR ?? './data'), OPS_TOKEN_FILE)
  let token: string
  try {
    token = readFileSync(file, 'utf8').trim()
  } catch {
    throw new Error(`读取运维令牌失败：${file}（服务器是否已用相同的 DATA_DIR 启动？）`)
  }
  return { url: url.replace(/\/+$/, ''), token }
}

const call = async <A>(target: OpsTarget, method: 'GET' | 'POST', path: string, body?: unknown): Promise<A> => {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { [OPS_TOKEN_HEADER]: target.token, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let parsed: { status?: number; msg?: string; data?: unknown }
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new Error(`服务器返回了无法解析的内容（HTTP ${response.status}）`)
  }
  if (response.status !== 200 || parsed.status !== 0) throw new Error(parsed.msg || `请求失败（HTTP ${response.status}）`)
  return parsed.data as A
}

const isPushType = Schema.is(PushType)

/** Sends a push message to every live connection of the user; resolves to how many sockets got it. */
export const opsPush = async (target: OpsTarget, phone: string, type: string, data?: PushData | null): Promise<number> => {
  if (!isPushType(type)) throw new Error(`未知的推送类型：${type}（可选：${PushType.literals.join(', ')}）`)
  const message = data === undefined ? { type } : { type, data }
  const result = await call<{ delivered: number }>(target, 'POST', '/__ops/push', { phone, message })
  return result.delivered
}

export const opsMaintenance = (target: OpsTarget, on: boolean, content?: string, showTime?: string): Promise<MaintenanceMsg> =>
  call<MaintenanceMsg>(target, 'POST', '/__ops/maintenance', { on, content, showTime })

export type { ConnectionsReport }

export const opsConnections = (target: OpsTarget): Promise<ConnectionsReport> => call<ConnectionsReport>(target, 'GET', '/__ops/connections')

/** The latest SMS code sent to a phone (the reference server sends none: it logs and keeps them). */
export const opsSms = (target: OpsTarget, phone: string): Promise<SentCode> =>
  call<SentCode>(target, 'GET', `/__ops/sms?phone=${encodeURIComponent(phone)}`)

/** Answers for the simulated payment provider: the order is paid (and fulfilled) or failed. */
export const opsPay = (target: OpsTarget, myOrderNum: string, result: 'success' | 'fail'): Promise<Order> =>
  call<Order>(target, 'POST', '/__ops/pay', { myOrderNum, result })

/** Turns one OS's buy switch on or off (payTips: the text the purchase screens show while it is off). */
export const opsPaySwitch = (target: OpsTarget, os: 'ios' | 'android', on: boolean, payTips?: string): Promise<null> =>
  call<null>(target, 'POST', '/__ops/pay-switch', { os, on, payTips })

/** Turns a feature switch on or off: `batch` (batch purchase / renewal entries), `register` (password registration). */
export const opsSwitch = (target: OpsTarget, name: string, on: boolean): Promise<null> =>
  call<null>(target, 'POST', '/__ops/switch', { name, on })

/** A fresh copy of the demo accounts under new phone numbers (one per end-to-end file). */
export interface AppletLogin { readonly code: string; readonly openId: string; readonly encryptedData: string; readonly iv: string }
export const opsApplet = (target: OpsTarget, phone: string, openId?: string): Promise<AppletLogin> =>
  call<AppletLogin>(target, 'POST', '/__ops/applet', { phone, openId })

/** A phone's screen state on the instance the operator talks to (GET /__ops/phone). */
export interface PhoneReport {
  readonly encoding: boolean
  readonly viewers: number
  /** sockets subscribed to its wall thumbnail. */
  readonly thumbSubscribers: number
  readonly sockets: number
  readonly state: {
    readonly orientation: 'portrait' | 'landscape'; readonly screen: string; readonly text: string; readonly clipboard: string
    readonly counter: number; readonly inputSeq: number; readonly rejected: number; readonly music: boolean
    readonly apps: ReadonlyArray<string>; readonly files: ReadonlyArray<string>
  } | null
}
export const opsPhone = (target: OpsTarget, userCardId: number): Promise<PhoneReport> =>
  call<PhoneReport>(target, 'GET', `/__ops/phone?userCardId=${userCardId}`)
export const opsDropStreams = (target: OpsTarget): Promise<{ dropped: number }> => call(target, 'POST', '/__ops/streams/drop', {})

export const opsFixture = (target: OpsTarget): Promise<FixtureWorld> => call<FixtureWorld>(target, 'POST', '/__ops/fixture', {})

/** Counts of what clients reported: statistic points and page records per name, user visits, active records. */
export const opsStats = (target: OpsTarget): Promise<AnalyticsCounts> => call<AnalyticsCounts>(target, 'GET', '/__ops/stats')

export const formatStats = (s: AnalyticsCounts): string => [
  '统计点（systemBuriedPoint/stat）：',
  ...(s.statPoints.length ? s.statPoints.map((p) => `  ${p.name} ${p.count}`) : ['  （无）']),
  '页面记录（reportRecords）：',
  ...(s.pageRecords.length ? s.pageRecords.map((p) => `  ${p.name} ${p.count}`) : ['  （无）']),
  `用户访问（addUserVisit）：${s.userVisits}`,
  `活跃记录（addActiveRecord）：${s.activeRecords}`,
].join('\n')

const liveLines = (users: ConnectionsReport['users'], indent = ''): string[] =>
  users.filter((u) => u.live > 0).map((u) => `${indent}${u.phone} ${u.live}`)

/** One line per user with live connections (`<phone> <count>`, over every instance), then each instance's. */
export const formatConnections = (report: ConnectionsReport): string =>
  [
    ...liveLines(report.users),
    ...report.instances.flatMap((i) => [`实例 ${i.id}（${i.url}，pid ${i.pid}）：${i.total} 个连接`, ...liveLines(i.users, '  ')]),
  ].join('\n')

const USAGE = `用法：
  npm run ops -- push <手机号> <类型> [JSON数据]     类型：${PushType.literals.join(' | ')}
  npm run ops -- maintenance on|off [内容] [预计完成时间]
  npm run ops -- connections [--json]
  npm run ops -- sms <手机号>                       打印最近一次发送的验证码
  npm run ops -- pay <订单号> success|fail          模拟支付结果
  npm run ops -- pay-switch ios|android on|off [提示]  购买开关（关闭时购买页显示提示）
  npm run ops -- switch batch|register on|off       批量购买/续费入口、密码注册开关
  npm run ops -- stats [--json]                     统计点、页面记录、访问与活跃记录的计数
  npm run ops -- fixture                           新建一套演示账号（新手机号），输出 JSON
  npm run ops -- applet <手机号> [openId]           模拟微信：小程序登录凭证 code 与加密手机号（JSON）`

export const runOps = async (argv: ReadonlyArray<string>, target: OpsTarget = opsTargetFromEnv()): Promise<string> => {
  const [command, ...args] = argv
  switch (command) {
    case 'push': {
      const [phone, type, json] = args
      if (!phone || !type) throw new Error(USAGE)
      let data: PushData | undefined
      if (json !== undefined) {
        try {
          data = JSON.parse(json)
        } catch {
          throw new Error('JSON数据格式不正确')
        }
      }
      const delivered = await opsPush(target, phone, type, data)
      return `已推送 ${type} 给 ${phone}：${delivered} 个连接`
    }
    case 'maintenance': {
      const [mode, content, showTime] = args
      if (mode !== 'on' && mode !== 'off') throw new Error(USAGE)
      const msg = await opsMaintenance(target, mode === 'on', content, showTime)
      return msg.maintenanceSwitch ? `维护已开启：${msg.maintenanceContent}（预计：${msg.showTime}完成）` : '维护已关闭'
    }
    case 'connections': {
      const report = await opsConnections(target)
      return args.includes('--json') ? JSON.stringify(report, null, 2) : formatConnections(report)
    }
    case 'sms': {
      const [phone] = args
      if (!phone) throw new Error(USAGE)
      return (await opsSms(target, phone)).code
    }
    case 'pay': {
      const [myOrderNum, result] = args
      if (!myOrderNum || (result !== 'success' && result !== 'fail')) throw new Error(USAGE)
      const order = await opsPay(target, myOrderNum, result)
      return result === 'success' ? `订单 ${myOrderNum} 已支付` : `订单 ${myOrderNum} 支付失败（状态 ${order.finishPay}）`
    }
    case 'pay-switch': {
      const [os, mode, payTips] = args
      if ((os !== 'ios' && os !== 'android') || (mode !== 'on' && mode !== 'off')) throw new Error(USAGE)
      await opsPaySwitch(target, os, mode === 'on', payTips)
      return `${os === 'ios' ? 'iOS' : 'Android'} 购买开关已${mode === 'on' ? '开启' : '关闭'}`
    }
    case 'stats': {
      const counts = await opsStats(target)
      return args.includes('--json') ? JSON.stringify(counts, null, 2) : formatStats(counts)
    }
    case 'switch': {
      const [name, mode] = args
      if ((name !== 'batch' && name !== 'register') || (mode !== 'on' && mode !== 'off')) throw new Error(USAGE)
      await opsSwitch(target, name, mode === 'on')
      return `${name === 'batch' ? '批量购买/续费入口' : '密码注册'}已${mode === 'on' ? '开启' : '关闭'}`
    }
    case 'fixture':
      return JSON.stringify(await opsFixture(target), null, 2)
    case 'applet': {
      const [phone, openId] = args
      if (!phone) throw new Error(USAGE)
      return JSON.stringify(await opsApplet(target, phone, openId), null, 2)
    }
    default:
      throw new Error(USAGE)
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runOps(process.argv.slice(2)).then(
    (out) => {
      if (out) console.log(out)
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error))
      process.exitCode = 1
    },
  )
}
