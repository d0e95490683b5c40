// Issue 11 findings 7 and 9: multi-statement writes are all-or-nothing (a failure injected into the second statement
// leaves the first undone), and on PGlite a transaction is isolated from the statements of other requests.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { runOps } from '../../../server/ops.ts'
import { sessionDb } from '../../../server/session/tables.ts'
import { SmsPurpose } from '../../../worker/protocol/session.ts'
import { api, encryptPassword, login, loginToken, useTestServer } from '../server/helpers.ts'

const t = useTestServer()

/** Makes every `op` on `table` fail (a trigger raising an error) while `run` runs. */
const failing = async <A>(table: string, op: 'DELETE' | 'UPDATE', run: () => Promise<A>): Promise<A> => {
  const db = t.server.db
  await sql`create or replace function h11_fail() returns trigger language plpgsql as $$ begin raise exception 'injected'; end $$`.execute(db)
  await sql.raw(`create trigger h11_fail before ${op} on ${table} for each row execute function h11_fail()`).execute(db)
  try {
    return await run()
  } finally {
    await sql.raw(`drop trigger h11_fail on ${table}`).execute(db)
  }
}

describe('all or nothing', () => {
  it('a password reset whose session revocation fails keeps the old password', async () => {
    const phone = '13600136000'
    await loginToken(t.base, phone)
    await sessionDb(t.server.db).updateTable('sms_codes').set({ created_at: sql`created_at - interval '61 seconds'` } as never).where('phone', '=', phone).execute()
    await api(t.base, 'POST', '/api/message/v5/phone/send', { body: { type: 'common', authorizationType: SmsPurpose.forgotPassword, phone } })
    const code = await runOps(['sms', phone], t.ops)
    const pem = (await api<string>(t.base, 'POST', '/api/user/v1/client/login/getPbKey')).body.data
    const reset = await failing('sessions', 'DELETE', () =>
      api(t.base, 'PUT', '/api/user/v5/user/passwordBackNew', { body: { phone, code, password: encryptPassword(pem, 'Other2026') } }))
    expect(reset.http).toBe(500)
    expect((await login(t.base, phone, 'Demo@2026')).body.status).toBe(0)
    expect((await login(t.base, phone, 'Other2026')).body.status).not.toBe(0)
  })

  it('cancelling an order whose coupon release fails leaves the order open', async () => {
    const { token } = await loginToken(t.base, '13500135000')
    const coupons = (await api<Array<{ id: number }>>(t.base, 'GET', '/api/pay/v3/invitation/client/getUserCouponPage?status=1&pageNum=1&pageSize=50', { token })).body.data as unknown as { list: Array<{ id: number; minAmount: number; batchBuy: boolean; couponType: number }> }
    const meals = (await api<{ mealList: Array<{ id: number; day: number }> }>(t.base, 'GET', '/api/pay/pay/phoneMenuRule/getMealList?phoneType=PERFORMANCE', { token })).body.data.mealList
    const month = meals.find((m) => m.day === 30)!
    let myOrderNum = ''
    for (const c of coupons.list) {
      const r = await api<{ myOrderNum: string }>(t.base, 'POST', '/api/pay/v1/order/create', { token, body: { buyType: 1, id: month.id, phoneType: 'PERFORMANCE', quantity: 1, couponId: c.id } })
      if (r.body.status === 0) { myOrderNum = r.body.data.myOrderNum; break }
    }
    expect(myOrderNum).not.toBe('')
    const cancel = await failing('account_coupons', 'UPDATE', () =>
      api(t.base, 'GET', `/api/pay/v1/order/info/cancelOrder?myOrderNum=${myOrderNum}`, { token }))
    expect(cancel.http).toBe(500)
    const order = await t.server.db.withTables<{ orders: { my_order_num: string; finish_pay: number } }>()
      .selectFrom('orders').select('finish_pay').where('my_order_num', '=', myOrderNum).executeTakeFirstOrThrow()
    expect([0, 2]).toContain(order.finish_pay)
  })
})

describe('transaction isolation', () => {
  it('a statement of another request never runs inside an open transaction (its rollback keeps the statement)', async () => {
    const db = t.server.db
    let inside!: () => void
    const started = new Promise<void>((resolve) => (inside = resolve))
    let finish!: () => void
    const finishing = new Promise<void>((resolve) => (finish = resolve))
    const tx = db.transaction().execute(async (trx) => {
      await trx.insertInto('system_config').values({ key: 'h11-inside', value: '1' }).execute()
      inside()
      await finishing
      throw new Error('roll back')
    })
    await started
    const outside = db.insertInto('system_config').values({ key: 'h11-outside', value: '1' }).execute()
    // give the outside statement every chance to run now (it would, inside the transaction, without isolation)
    await Promise.race([outside, new Promise((resolve) => setTimeout(resolve, 200))])
    finish()
    await expect(tx).rejects.toThrow('roll back')
    await outside
    const keys = (await db.selectFrom('system_config').select('key').where('key', 'like', 'h11-%').execute()).map((r) => r.key)
    expect(keys).toEqual(['h11-outside'])
  })
})
