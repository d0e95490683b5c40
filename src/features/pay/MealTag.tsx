// A phone type's corner tag (getMealIconInfo): its text, with the icon only when it is an http(s) URL.
import type { MealIcon } from '../../../worker/protocol/meal-rules.ts'
import { isHttpUrl } from '../../../worker/protocol/domain.ts'

export const MealTag = ({ icon }: { icon: MealIcon | undefined }) => {
  if (!icon || (!icon.iconText && !isHttpUrl(icon.iconUrl))) return null
  return (
    <span className="pay-tag" data-testid={`meal-tag-${icon.phoneType}`}>
      {isHttpUrl(icon.iconUrl) && <img src={icon.iconUrl} alt="" />}
      {icon.iconText}
    </span>
  )
}
