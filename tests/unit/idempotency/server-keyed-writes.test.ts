// Issue 40 item 1: a keyed write is applied once per (user, key), its outcome (refusals included) answered to every
// repeat, atomically with the write; abandoned keys are settled "not applied"; keys are purged after their time.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { purgeIdempotencyKeys } from '../../../server/http/idempotency.ts'
import { catalogue } from '../../../worker/protocol/catalogue.ts'
import {
  IDEMPOTENCY_ABANDON_HEADER, IDEMPOTENCY_KEEP_MS, IDEMPOTENCY_KEY_HEADER, KEY_REUSED_STATUS, NOT_APPLIED_STATUS, newIdempotencyKey,
} from '../../../worker/protocol/idempotency.ts'
import { api, loginToken, useTestServer } from '../server/helpers.ts'

const t = useTestServer()

const ordersOf = async (username: string): Promise<number> => {
  const r = await sql<{ n: string }>`select count(*) as n from orders o join users u on u.id = o.user_id where u.username = ${username}`.execute(t.server.db)
  return Number(r.rows[0]!.n)
}

const monthMeal = async (token: string): Promise<number> => {
  const meals = (await api<{ mealList: Array<{ id: number; day: number }> }>(t.base, 'GET', '/api/pay/pay/phoneMenuRule/getMealList?phoneType=PERFORMANCE', { token })).body.data.mealList
  return meals.find((m) => m.day === 30)!.id
}

const createOrder = (token: string, meal: number, key: string, extra: Record<string, string> = {}) =>
  api<{ myOrderNum: string }>(t.base, 'POST', catalogue.orderCreate.path, {
    token, headers: { [IDEMPOTENCY_KEY_HEADER]: key, ...extra }, body: { buyType: 1, id: meal, phoneType: 'PERFORMANCE', quantity: 1 },
  })

describe('keyed writes', () => {
  it('an order sent three times with one key (two at once) is created once and every answer names it', async () => {
    const { token, username } = await loginToken(t.base, '13500135000')
    const meal = await monthMeal(token)
    const before = await ordersOf(username)
    const key = newIdempotencyKey()
    const [a, b] = await Promise.all([createOrder(token, meal, key), createOrder(token, meal, key)])
    const c = await createOrder(token, meal, key)
    expect(a.body.status).toBe(0)
    expect(b.body).toEqual(a.body)
    expect(c.body).toEqual(a.body)
    expect(await ordersOf(username)).toBe(before + 1)
    // another key is another order
    const d = await createOrder(token, meal, newIdempotencyKey())
    expect(d.body.data.myOrderNum).not.toBe(a.body.data.myOrderNum)
    expect(await ordersOf(username)).toBe(before + 2)
  })

  it('a refusal is stored and answered again, even once the refusal would no longer apply', async () => {
    const { token } = await loginToken(t.base, '13500135000')
    const key = newIdempotencyKey()
    const redeem = () => api(t.base, 'POST', catalogue.exchangeActivationCode.path, {
      token, headers: { [IDEMPOTENCY_KEY_HEADER]: key }, body: { code: 'NOSUCHCODE01' },
    })
    const first = await redeem()
    expect(first.body.status).not.toBe(0)
    expect((await redeem()).body).toEqual(first.body)
  })

  it('an abandoned key is settled "not applied", and the write sent after it is not applied', async () => {
    const { token, username } = await loginToken(t.base, '13500135000')
    const meal = await monthMeal(token)
    const before = await ordersOf(username)
    const key = newIdempotencyKey()
    const abandoned = await createOrder(token, meal, key, { [IDEMPOTENCY_ABANDON_HEADER]: '1' })
    expect(abandoned.body.status).toBe(NOT_APPLIED_STATUS)
    const late = await createOrder(token, meal, key)
    expect(late.body.status).toBe(NOT_APPLIED_STATUS)
    expect(await ordersOf(username)).toBe(before)
    // abandoning a key that was applied answers the write's own outcome
    const applied = newIdempotencyKey()
    const order = await createOrder(token, meal, applied)
    expect((await createOrder(token, meal, applied, { [IDEMPOTENCY_ABANDON_HEADER]: '1' })).body).toEqual(order.body)
  })

  it('a write that fails unexpectedly stores nothing: the retry with its key applies it once', async () => {
    const { token, username } = await loginToken(t.base, '13500135000')
    const meal = await monthMeal(token)
    const before = await ordersOf(username)
    const key = newIdempotencyKey()
    await sql`create or replace function i40_fail() returns trigger language plpgsql as $$ begin raise exception 'injected'; end $$`.execute(t.server.db)
    await sql`create trigger i40_fail before insert on orders for each row execute function i40_fail()`.execute(t.server.db)
    try {
      expect((await createOrder(token, meal, key)).http).toBe(500)
    } finally {
      await sql`drop trigger i40_fail on orders`.execute(t.server.db)
    }
    expect(await ordersOf(username)).toBe(before)
    expect((await createOrder(token, meal, key)).body.status).toBe(0)
    expect(await ordersOf(username)).toBe(before + 1)
  })

  it('keys are per user, bound to their endpoint, checked for shape, and purged after their time', async () => {
    const a = await loginToken(t.base, '13500135000')
    const b = await loginToken(t.base, '13800138000')
    const key = newIdempotencyKey()
    const first = await createOrder(a.token, await monthMeal(a.token), key)
    const other = await createOrder(b.token, await monthMeal(b.token), key)
    expect(other.body.status).toBe(0)
    expect(other.body.data.myOrderNum).not.toBe(first.body.data.myOrderNum)
    const reused = await api(t.base, 'POST', catalogue.exchangeActivationCode.path, {
      token: a.token, headers: { [IDEMPOTENCY_KEY_HEADER]: key }, body: { code: 'NOSUCHCODE02' },
    })
    expect(reused.body.status).toBe(KEY_REUSED_STATUS)
    const bad = await createOrder(a.token, 1, 'short<key>')
    expect(bad.body.status).not.toBe(0)
    expect(bad.text).not.toMatch(/at .*\.ts/)

    const count = async () => Number((await sql<{ n: string }>`select count(*) as n from idempotency_keys where key = ${key}`.execute(t.server.db)).rows[0]!.n)
    expect(await count()).toBe(2)
    expect(await purgeIdempotencyKeys(t.server.db, Date.now() + IDEMPOTENCY_KEEP_MS - 60_000)).toBe(0)
    expect(await count()).toBe(2)
    await purgeIdempotencyKeys(t.server.db, Date.now() + IDEMPOTENCY_KEEP_MS + 60_000)
    expect(await count()).toBe(0)
  })
})
