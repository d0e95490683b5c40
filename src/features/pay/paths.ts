// Where a finished payment is reported (routes of §2).
import { PATHS } from '../../router/paths.ts'

/** Upgrades have their own results page (`next=upgrade`). */
export const resultPathFor = (next: string | undefined) => (next === 'upgrade' ? PATHS.packageUpgradeResults : PATHS.orderResult)
