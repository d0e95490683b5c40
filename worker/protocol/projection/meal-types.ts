// Meal types slice: the phone types and Android versions loaded at startup (§3).
import type { CoreEvent } from '../events.ts'
import type { MealTypeGroup } from '../pay.ts'

export type MealTypesSlice = ReadonlyArray<MealTypeGroup>

export const initialMealTypes: MealTypesSlice = []

export const reduceMealTypes = (state: MealTypesSlice, event: CoreEvent): MealTypesSlice =>
  event._tag === 'MealTypesLoaded' ? event.groups : state
