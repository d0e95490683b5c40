// Purchase rules on the reference server: the online meal list per phone type, the phone types' tags, the rules
// texts and the batch switch an operator turns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Meal } from '../../../worker/protocol/pay.ts'
import type { MealIcon, RulesText } from '../../../worker/protocol/meal-rules.ts'
import { opsSwitch } from '../../../server/ops.ts'
import { api, loginToken, startTestServer, type TestServer } from '../server/helpers.ts'

let t: TestServer
let base: string
let token: string
const get = async <A>(path: string, as: string | undefined = token) => (await api<A>(base, 'GET', path, { token: as })).body

beforeAll(async () => {
  t = await startTestServer()
  base = t.server.url
  token = (await loginToken(base, '13700137000')).token
}, 60_000)
afterAll(() => t?.stop())

describe('meal rules', () => {
  it('serves the online meal list in data.mealList, all or of one phone type', async () => {
    const all = await get<{ mealList: Meal[] }>('/api/pay/pay/phoneMenuRule/getMealList')
    const standard = await get<{ mealList: Meal[] }>('/api/pay/pay/phoneMenuRule/getMealList?phoneType=STANDARD')
    expect(new Set(all.data.mealList.map((m) => m.phoneType))).toEqual(new Set(['STANDARD', 'PERFORMANCE']))
    expect(standard.data.mealList.length).toBeGreaterThan(0)
    expect(standard.data.mealList.every((m) => m.phoneType === 'STANDARD')).toBe(true)
  })

  it('gives the phone-type tags and both rules texts, to visitors too', async () => {
    expect((await get<MealIcon[]>('/api/pay/v2/meal/info/getMealIconInfo', undefined)).data)
      .toEqual([{ phoneType: 'PERFORMANCE', iconText: '推荐', iconUrl: '' }])
    const rules = (await get<RulesText>('/api/pay/v2/meal/info/getMealRulesNewInfo')).data
    expect(rules.title).toBe('购买须知')
    expect(rules.content.split('\n').length).toBeGreaterThan(3)
    expect((await get<RulesText>('/api/pay/v2/meal/info/getBatchMealRulesInfo')).data.title).toBe('批量购买须知')
  })

  it('reports the batch switch as the operator sets it', async () => {
    expect((await get<boolean>('/api/pay/v2/meal/info/getPhoneMealBatchSwitch', undefined)).data).toBe(true)
    await opsSwitch(t.ops, 'batch', false)
    // data false is "empty" to the client pipeline, which hands the tab false
    expect((await get<boolean>('/api/pay/v2/meal/info/getPhoneMealBatchSwitch')).data).toBe(false)
    await opsSwitch(t.ops, 'batch', true)
    expect((await get<boolean>('/api/pay/v2/meal/info/getPhoneMealBatchSwitch')).data).toBe(true)
    await expect(opsSwitch(t.ops, 'nothing', true)).rejects.toThrow()
  })
})
