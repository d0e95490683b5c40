// CLI entry (`npm start` / `npm run server`): env PORT (8080), HOST (127.0.0.1), DATA_DIR (./data), DATABASE_URL,
// OPS_TOKEN (else one kept in the database), SHUTDOWN_GRACE_MS (10000), TRUSTED_PROXIES (the load balancers'
// addresses, comma-separated: their X-Forwarded-For names the client), PUBLIC_ORIGIN (the origin absolute URLs are
// built on; by default a trusted balancer's forwarded host, else this server's own address), ALLOWED_ORIGINS (other page
// origins, comma-separated, that may open the websockets); `--serve-app` builds dist/ when missing and
// serves it under the base path (APP_DIR: another built app, for comparing two builds). SIGTERM/SIGINT stop it
// gracefully (see RunningServer.close); a second one exits at once.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { BASE_PATH } from '../worker/protocol/constants.ts'
import { DEFAULT_SHUTDOWN_GRACE_MS, startServer } from './app.ts'
import { DEMO_PASSWORD, demoUsers } from './db/seed.ts'
import { demoPayGatewayFrom } from './pay/h5-gateway.ts'

const serveApp = process.argv.includes('--serve-app')
const appDir = resolve(process.env.APP_DIR ?? 'dist')

if (serveApp && !process.env.APP_DIR && !existsSync(resolve(appDir, 'index.html'))) {
  console.log('未找到 dist/index.html，正在构建前端（npx vite build）…')
  const build = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' })
  if (build.status !== 0) {
    console.error('前端构建失败')
    process.exit(1)
  }
}

// DEMO_PAY_GATEWAY (on|off): the simulated one-tap Alipay H5 / WeChat gateway; default on with PGlite (`npm start`),
// off with DATABASE_URL; the start-up output says which.
let demoPay: ReturnType<typeof demoPayGatewayFrom>
try {
  demoPay = demoPayGatewayFrom(process.env)
} catch (error) {
  console.error(`服务器启动失败：${(error as Error).message}`)
  process.exit(1)
}

const shutdownGraceMs = process.env.SHUTDOWN_GRACE_MS ? Number(process.env.SHUTDOWN_GRACE_MS) : undefined
const graceS = Math.ceil((shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS) / 1000)

/** a positive number of milliseconds from the environment, else undefined (the product default). */
const envMs = (name: string): number | undefined => {
  const v = Number(process.env[name])
  return Number.isFinite(v) && v > 0 ? v : undefined
}

const server = await startServer({
  port: Number(process.env.PORT ?? 8080),
  host: process.env.HOST ?? '127.0.0.1',
  dataDir: process.env.DATA_DIR ?? './data',
  databaseUrl: process.env.DATABASE_URL || undefined,
  opsToken: process.env.OPS_TOKEN || undefined,
  shutdownGraceMs,
  maxPushSocketsPerUser: process.env.MAX_PUSH_SOCKETS_PER_USER ? Number(process.env.MAX_PUSH_SOCKETS_PER_USER) : undefined,
  maxEncodingPhones: process.env.MAX_ENCODING_PHONES ? Number(process.env.MAX_ENCODING_PHONES) : undefined,
  publicOrigin: process.env.PUBLIC_ORIGIN || undefined,
  allowedOrigins: (process.env.ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter((o) => o !== ''),
  trustedProxies: (process.env.TRUSTED_PROXIES ?? '').split(',').map((a) => a.trim()).filter((a) => a !== ''),
  serveApp,
  appDir,
  demoPayGateway: demoPay.on,
  // test-only: the end-to-end tests shorten the devices' busy windows (defaults 20 s and 5 s)
  deviceClock: { busyMs: envMs('DEVICE_BUSY_MS'), rebootMs: envMs('DEVICE_REBOOT_MS') },
}).catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException)?.code
  const detail = code === 'EADDRINUSE' ? `端口 ${process.env.PORT ?? 8080} 已被占用` : error instanceof Error ? error.message : String(error)
  console.error(`服务器启动失败：${detail}`)
  process.exit(1)
})

console.log(`服务器已启动：${server.url}`)
if (serveApp) console.log(`应用地址：${server.url}${BASE_PATH}`)
console.log(`数据库：${process.env.DATABASE_URL ? 'PostgreSQL（DATABASE_URL）' : `PGlite（${resolve(process.env.DATA_DIR ?? './data')}）`}`)
console.log(demoPay.line)
console.log('演示账号（密码均为 ' + DEMO_PASSWORD + '）：')
console.log(`  ${demoUsers.demo.phone}  演示用户，五台云手机`)
console.log(`  ${demoUsers.partner.phone}  授权伙伴`)
console.log(`  ${demoUsers.unbound.phone}  需绑定手机号的用户（userType 2）`)
console.log(`  ${demoUsers.fleet.phone}  六十台云手机的用户`)
console.log(`  ${demoUsers.member.phone}  普通会员（一台云手机）`)

let stopping = false
const stop = (signal: string): void => {
  // a second signal is the operator insisting: exit now, cutting what is still in flight (a PGlite data dir stays
  // usable: its lock is taken over by the next start, as after a crash)
  if (stopping) {
    console.log(`再次收到 ${signal}，立即退出，未完成的请求被中断`)
    process.exit(1)
  }
  stopping = true
  console.log(`收到 ${signal}，正在停止：不再接受新连接，推送连接以 1012 关闭，处理中的请求完成后退出（最长 ${graceS} 秒）`)
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
}
process.on('SIGINT', () => stop('SIGINT'))
process.on('SIGTERM', () => stop('SIGTERM'))
