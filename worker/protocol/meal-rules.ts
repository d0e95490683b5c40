// Purchase rules and meal presentation (§7 "Pay and packages"): icons per phone type, the purchase and batch rules
// texts, and the switch that shows or hides the batch purchase and batch renewal entries. Shapes are ours.
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'
import { SwitchFlag } from './switch-flag.ts'

/** A phone type's corner tag on the purchase screens: text, and an http(s) icon when there is one ('' otherwise). */
export const MealIcon = Schema.Struct({ phoneType: Schema.String, iconText: Schema.String, iconUrl: Schema.String })
export type MealIcon = typeof MealIcon.Type

/** A rules text: plain text, paragraphs separated by new lines. */
export const RulesText = Schema.Struct({ title: Schema.String, content: Schema.String })
export type RulesText = typeof RulesText.Type

export const mealRulesEndpoints = {
  getMealIconInfo: endpoint({
    name: 'getMealIconInfo', method: 'GET', repeatable: true, path: '/api/pay/v2/meal/info/getMealIconInfo',
    request: NoPayload, response: Schema.Array(MealIcon),
  }),
  getMealRulesNewInfo: endpoint({
    name: 'getMealRulesNewInfo', method: 'GET', repeatable: true, path: '/api/pay/v2/meal/info/getMealRulesNewInfo',
    request: NoPayload, response: RulesText,
  }),
  /** true: the batch purchase and batch renewal entries are offered. */
  getPhoneMealBatchSwitch: endpoint({
    name: 'getPhoneMealBatchSwitch', method: 'GET', repeatable: true, path: '/api/pay/v2/meal/info/getPhoneMealBatchSwitch',
    request: NoPayload, response: SwitchFlag,
  }),
  getBatchMealRulesInfo: endpoint({
    name: 'getBatchMealRulesInfo', method: 'GET', repeatable: true, path: '/api/pay/v2/meal/info/getBatchMealRulesInfo',
    request: NoPayload, response: RulesText,
  }),
} as const
