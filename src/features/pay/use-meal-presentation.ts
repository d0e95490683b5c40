// What the purchase screens read besides the meals: the phone types, the batch entries switch and the phone types'
// corner tags. The switch and the tags default to "nothing special" until the server answers (batch entries hidden,
// no tags).
import { useEffect, useState } from 'react'
import type { MealIcon } from '../../../worker/protocol/meal-rules.ts'
import type { MealTypeGroup } from '../../../worker/protocol/pay.ts'
import { useCore } from '../../core-context.tsx'
import { useCall } from '../../core/use-call.ts'
import { useAppStore } from '../../store/index.ts'

export interface MealTypesView {
  readonly groups: ReadonlyArray<MealTypeGroup>
  /** 'loading' while the core loads types the screen found missing; 'failed' when that load failed. */
  readonly state: 'ready' | 'loading' | 'failed'
  readonly retry: () => void
}

/**
 * The phone types (shared state). The core loads them at launch and login, silently (§8); a screen that opens without
 * any asks the core again, so a launch load that failed does not leave the screen empty until the next launch.
 */
export const useMealTypes = (): MealTypesView => {
  const { api } = useCore()
  const groups = useAppStore((s) => s.mealTypes)
  const missing = groups.length === 0
  const [attempt, setAttempt] = useState(0)
  const [state, setState] = useState<MealTypesView['state']>(missing ? 'loading' : 'ready')
  useEffect(() => {
    if (!missing) return setState('ready')
    let live = true
    setState('loading')
    void api.loadMealTypes().then((r) => live && setState(r.ok ? 'ready' : 'failed'))
    return () => {
      live = false
    }
    // once per opening and per retry: types that arrive meanwhile end the wait through `missing`
  }, [api, attempt])
  return { groups, state: missing ? state : 'ready', retry: () => setAttempt((n) => n + 1) }
}

/** null while unknown; true when the batch purchase and batch renewal entries are offered. */
export const useBatchSwitch = (): boolean | null => {
  const call = useCall()
  const [on, setOn] = useState<boolean | null>(null)
  useEffect(() => {
    let live = true
    void call('getPhoneMealBatchSwitch', {}).then((r) => live && setOn(r.ok && r.data === true))
    return () => {
      live = false
    }
  }, [call])
  return on
}

export const useMealIcons = (): ReadonlyMap<string, MealIcon> => {
  const call = useCall()
  const [icons, setIcons] = useState<ReadonlyMap<string, MealIcon>>(new Map())
  useEffect(() => {
    let live = true
    void call('getMealIconInfo', {}).then((r) => live && r.ok && r.data && setIcons(new Map(r.data.map((i) => [i.phoneType, i]))))
    return () => {
      live = false
    }
  }, [call])
  return icons
}
