// Meal types grouped per phone type (§3): label/value from phoneTypeName/phoneType, Android versions sorted
// numerically ascending (decisions.md: 9 before 10), and the two special previewUrl values mapped to default images.
import { DEFAULT_PHONE_IMAGE_URL, DEFAULT_PHONE_TYPE_IMAGE_URL } from '../protocol/constants.ts'
import type { MealTypeGroup, MealTypeInfo } from '../protocol/pay.ts'

/** "default" is a generic phone, "defaultPhonePreviewUrl" a phone-type preview; anything else is a real URL. */
export const resolvePreviewUrl = (previewUrl: string): string =>
  previewUrl === 'default' ? DEFAULT_PHONE_IMAGE_URL
  : previewUrl === 'defaultPhonePreviewUrl' ? DEFAULT_PHONE_TYPE_IMAGE_URL
  : previewUrl

const versionNumber = (v: string): number => {
  const n = parseFloat(v)
  return Number.isNaN(n) ? Number.POSITIVE_INFINITY : n
}

export const groupMealTypes = (items: ReadonlyArray<MealTypeInfo>): ReadonlyArray<MealTypeGroup> => {
  const groups = new Map<string, { label: string; previewUrl: string; versions: Map<string, string> }>()
  for (const item of items) {
    let group = groups.get(item.phoneType)
    if (group === undefined) {
      group = { label: item.phoneTypeName, previewUrl: resolvePreviewUrl(item.previewUrl), versions: new Map() }
      groups.set(item.phoneType, group)
    }
    if (!group.versions.has(item.androidVersion)) group.versions.set(item.androidVersion, resolvePreviewUrl(item.previewUrl))
  }
  return [...groups.entries()].map(([value, g], index) => ({
    label: g.label,
    value,
    previewUrl: g.previewUrl,
    index,
    androidVersions: [...g.versions.entries()]
      .sort(([a], [b]) => versionNumber(a) - versionNumber(b) || a.localeCompare(b))
      .map(([v, previewUrl]) => ({ label: `Android ${v}`, value: v, previewUrl })),
  }))
}
