// What the purchase screens read besides the meals: the batch entries switch and the phone types' corner tags.
// Both default to "nothing special" until the server answers (batch entries hidden, no tags).
import { useEffect, useState } from 'react'
import type { MealIcon } from '../../../worker/protocol/meal-rules.ts'
import { useCall } from '../../core/use-call.ts'

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
