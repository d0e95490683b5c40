// Issue 21 item 4: which lines of the reference server's output fail an e2e test (tests/e2e/server-log.ts).
import { describe, expect, it } from 'vitest'
import { unexpectedServerErrors } from '../../e2e/server-log.ts'

describe('unexpectedServerErrors', () => {
  it('takes the error handler\'s [server] lines with the top of their stack, and what Node reports', () => {
    const log = [
      '服务器已启动：http://127.0.0.1:4000',
      '[sms] 13800138000 验证码：123456（5分钟内有效）',
      '[server] POST /api/x TypeError: Cannot read properties of undefined (reading \'id\')',
      '    at handler (server/x.ts:10:5)',
      '    at next (node_modules/hono/dist/compose.js:1:1)',
      '[db] 数据库连接断开（terminated），下次查询将重新连接',
      '(node:123) MaxListenersExceededWarning: Possible EventEmitter memory leak detected.',
      'Unhandled promise rejection: boom',
    ].join('\n')
    expect(unexpectedServerErrors(log)).toEqual([
      '[server] POST /api/x TypeError: Cannot read properties of undefined (reading \'id\')\n    at handler (server/x.ts:10:5)\n    at next (node_modules/hono/dist/compose.js:1:1)',
      '(node:123) MaxListenersExceededWarning: Possible EventEmitter memory leak detected.',
      'Unhandled promise rejection: boom',
    ])
  })

  it('finds nothing in a clean start-up', () => {
    expect(unexpectedServerErrors('服务器已启动：http://127.0.0.1:4000\n数据库：PGlite（/tmp/x）\n')).toEqual([])
  })
})
