// Navigation is checked against the route tree when the code is compiled (npm run typecheck): a path that is no route,
// or a search param the target route does not declare, is a type error. The @ts-expect-error lines fail the
// typecheck if the check ever stops catching them.
import type { NavigateOptions } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import { PATHS, ROUTE_PATHS } from '../../../src/router/paths.ts'
import type {} from '../../../src/router/router.tsx'

const renew: NavigateOptions = { to: PATHS.renew, search: { userCardId: '7' } }
const purchase: NavigateOptions = { to: '/package/purchase/purchase', search: { phoneType: 'PERFORMANCE', androidVersion: '12' } }
// @ts-expect-error a path that is no route
const noRoute: NavigateOptions = { to: '/package/purchase/renewal' }
// @ts-expect-error renew declares userCardId, not cardId
const wrongParam: NavigateOptions = { to: PATHS.renew, search: { cardId: '7' } }
// @ts-expect-error a search value is text
const wrongType: NavigateOptions = { to: PATHS.orderStatus, search: { myOrderNum: 7 } }

describe('typed navigation', () => {
  it('takes the paths of the tree and refuses others (the refusals above are checked by the compiler)', () => {
    for (const options of [renew, purchase, wrongParam, wrongType]) expect(ROUTE_PATHS).toContain(options.to)
    expect(ROUTE_PATHS).not.toContain(noRoute.to)
  })
})
