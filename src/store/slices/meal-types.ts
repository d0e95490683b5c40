// Meal types slice: the phone types and Android versions loaded at startup (§3).
import type { CoreEvent } from '../../../worker/protocol/events.ts'
import type { MealTypeGroup } from '../../../worker/protocol/pay.ts'

export type MealTypesState = ReadonlyArray<MealTypeGroup>

export const initialMealTypes: MealTypesState = []

export const reduceMealTypes = (state: MealTypesState, event: CoreEvent): MealTypesState =>
  event._tag === 'MealTypesLoaded' ? event.groups : state
