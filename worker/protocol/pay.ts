// Packages ("meals") area: meal types loaded at startup (§3, §7), online meal list.
import * as Schema from 'effect/Schema'
import { endpoint, NoPayload } from './endpoint.ts'

export const MealTypeInfo = Schema.Struct({
  phoneType: Schema.String,
  phoneTypeName: Schema.String,
  androidVersion: Schema.String,
  /** a URL, or the special values "default" / "defaultPhonePreviewUrl" (§3). */
  previewUrl: Schema.String,
})
export type MealTypeInfo = typeof MealTypeInfo.Type

/** Meal types grouped per phone type (§3), as the worker hands them to tabs. */
export const MealTypeGroup = Schema.Struct({
  label: Schema.String,
  value: Schema.String,
  previewUrl: Schema.String,
  index: Schema.Number,
  androidVersions: Schema.Array(Schema.Struct({ label: Schema.String, value: Schema.String, previewUrl: Schema.String })),
})
export type MealTypeGroup = typeof MealTypeGroup.Type

export const payEndpoints = {
  mealTypeList: endpoint({
    name: 'mealTypeList', method: 'POST', path: '/api/pay/v2/meal/info/tab/list',
    request: NoPayload, response: Schema.Array(MealTypeInfo),
  }),
  getMealList: endpoint({
    name: 'getMealList', method: 'GET', path: '/api/pay/pay/phoneMenuRule/getMealList',
    request: NoPayload, response: Schema.Struct({ mealList: Schema.Array(Schema.Unknown) }),
  }),
} as const
