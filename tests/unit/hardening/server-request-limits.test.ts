// Issue 11 finding 2: bodies over 64 KiB are refused before parsing; every string of every request schema of the
// catalogue has a maximum length, every number is bounded (integers where the field is an id or count).
import { describe, expect, it } from 'vitest'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import { buildApp } from '../../../server/app.ts'
import { MAX_BODY_BYTES, withBodyLimit } from '../../../server/http/body-limit.ts'
import { api, loginToken, useTestServer } from '../server/helpers.ts'

/** Fields of a request schema that lack a bound, as paths. */
const unbounded = (ast: any, path: string, out: string[]): string[] => {
  const ids = (ast.checks ?? []).map((c: any) => c.annotations?.representation?.id ?? c.annotations?.meta?._tag ?? '')
  switch (ast._tag) {
    case 'String':
      if (!ids.includes('effect/schema/isMaxLength')) out.push(`${path}: string without a maximum length`)
      break
    case 'Number':
      if (!ids.includes('effect/schema/isBetween')) out.push(`${path}: number without a range`)
      break
    case 'Arrays':
      if (!ids.includes('effect/schema/isMaxLength')) out.push(`${path}: array without a maximum length`)
      for (const e of [...(ast.elements ?? []), ...(ast.rest ?? [])]) unbounded(e, `${path}[]`, out)
      break
    case 'Objects':
      for (const p of ast.propertySignatures) unbounded(p.type, `${path}.${String(p.name)}`, out)
      if ((ast.indexSignatures ?? []).length > 0) out.push(`${path}: open record`)
      break
    case 'Union':
      for (const t of ast.types) unbounded(t, path, out)
      break
    case 'Literal': case 'Undefined': case 'Null': case 'Boolean':
      break
    default:
      out.push(`${path}: ${ast._tag} not checked`)
  }
  return out
}

describe('request schemas', () => {
  it('every string, number and list of every request schema is bounded', () => {
    const problems = Object.values(catalogue).flatMap((e) => unbounded((e.request as any).ast, e.name, []))
    expect(problems).toEqual([])
  })
})

const t = useTestServer()

describe('on the server', () => {
  it('a 10 MiB pointName is refused before parsing and nothing is stored', async () => {
    const before = await t.server.db.selectFrom('stat_points').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()
    const { http, body } = await api(t.base, 'POST', '/api/public/v1/systemBuriedPoint/stat', { body: { pointName: 'x'.repeat(10 * 1024 * 1024) } })
    expect(http).toBe(413)
    expect(body).toMatchObject({ success: false, msg: '请求内容过大', data: null })
    const after = await t.server.db.selectFrom('stat_points').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n))
  })

  it('a streamed body without a length is cut off at the limit too', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_BODY_BYTES * 4) return controller.close()
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    const response = await fetch(`${t.base}/api/public/v1/systemBuriedPoint/stat`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: stream, duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(413)
  })

  it('a long string under the body limit is refused with a Chinese message naming the field', async () => {
    const { body } = await api(t.base, 'POST', '/api/user/v5/visitDetailed/operationVisitDetailed', { body: { uuid: 'u'.repeat(5_000), operationType: 1 } })
    expect(body.status).toBe(1001)
    expect(body.msg).toBe('参数错误：参数 uuid 过长')
    const stat = await api(t.base, 'POST', '/api/public/v1/systemBuriedPoint/stat', { body: { pointName: 'p'.repeat(65) } })
    expect(stat.body.msg).toBe('参数错误：参数 pointName 过长')
  })

  it('id 1.5 is a clear refusal, not a 500', async () => {
    const { token } = await loginToken(t.base, '13800138000')
    const { http, body, text } = await api(t.base, 'POST', '/api/resources/card/resources/reboot', { token, body: { userCardIds: [1.5] } })
    expect(http).toBe(200)
    expect(body.status).toBe(1001)
    expect(body.msg).toContain('应为整数')
    expect(text).not.toMatch(/at .*\.(ts|js):\d+/)
    const query = await api(t.base, 'GET', '/api/resources/api/usercard/reboot?userCardId=1.5', { token })
    expect(query.body.msg).toContain('应为整数')
  })
})

describe('body limits are declared by the route', () => {
  it('a route declaring its own limit takes bodies up to it; every other route keeps 64 KiB, on any path', async () => {
    const app = buildApp(true)
    const big = 'b'.repeat(MAX_BODY_BYTES * 2)
    app.post('/any/path/:id', withBodyLimit({ maxBytes: MAX_BODY_BYTES * 4, refuse: (c) => c.text('太大了', 200) }, async (c) => c.text(String((await c.req.text()).length))))
    app.post('/other', async (c) => c.text(String((await c.req.text()).length)))
    const send = (path: string, body: string) => app.request(path, { method: 'POST', body, headers: { 'Content-Length': String(body.length) } })
    const own = await send('/any/path/1', big)
    expect(own.status).toBe(200)
    expect(await own.text()).toBe(String(big.length))
    const over = await send('/any/path/1', big.repeat(3))
    expect(await over.text()).toBe('太大了')
    expect(over.headers.get('Connection')).toBe('close')
    expect((await send('/other', big)).status).toBe(413)
  })
})
