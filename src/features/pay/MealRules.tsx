// The purchase rules (getMealRulesNewInfo) or, on the batch screens, the batch rules (getBatchMealRulesInfo): server
// text shown as text, one paragraph per line. Nothing is shown while it loads or if it cannot be read.
import { useEffect, useState } from 'react'
import type { RulesText } from '../../../worker/protocol/meal-rules.ts'
import { useCall } from '../../core/use-call.ts'

export const MealRules = ({ batch }: { batch: boolean }) => {
  const call = useCall()
  const [rules, setRules] = useState<RulesText | null>(null)
  useEffect(() => {
    let live = true
    void call(batch ? 'getBatchMealRulesInfo' : 'getMealRulesNewInfo', {}).then((r) => live && r.ok && r.data && setRules(r.data))
    return () => {
      live = false
    }
  }, [call, batch])
  if (!rules || !rules.content.trim()) return null
  return (
    <section className="pay-section pay-rules" data-testid={batch ? 'batch-meal-rules' : 'meal-rules'}>
      <h3>{rules.title}</h3>
      {rules.content.split('\n').filter((line) => line.trim()).map((line, i) => <p key={i}>{line}</p>)}
    </section>
  )
}
