// Group control's choice of phones in the tab (src/features/devices/group/group-select.ts): expired phones cannot be
// chosen, the tier and Android-version shortcuts add or remove a whole kind, a phone that left the list (removeAuth,
// a transfer) or expired drops out of the choice, and the route's ids are read defensively.
import { describe, expect, it } from 'vitest'
import { androidVersionsOf, choosable, parseIds, pruneChoice, tiersOf, toggleKind } from '../../../src/features/devices/group/group-select.ts'
import { device } from '../tab/fixtures.ts'

const list = [
  device({ userCardId: 1, buyVipType: 'VIP', androidVersion: '10', validTime: 3600 }),
  device({ userCardId: 2, buyVipType: 'SVIP', androidVersion: '12', validTime: 3600 }),
  device({ userCardId: 3, buyVipType: 'VIP', androidVersion: '12', validTime: 3600 }),
  device({ userCardId: 4, buyVipType: 'STAR', androidVersion: '13', validTime: 0 }),
]

describe('choosing phones for group control', () => {
  it('offers the kinds of the choosable phones only, and toggles a whole kind', () => {
    expect(choosable(list[3]!)).toBe(false)
    expect(tiersOf(list)).toEqual(['VIP', 'SVIP'])
    expect(androidVersionsOf(list)).toEqual(['10', '12'])
    const vip = toggleKind(list, [], (d) => d.buyVipType === 'VIP')
    expect(vip).toEqual([1, 3])
    expect(toggleKind(list, vip, (d) => d.androidVersion === '12')).toEqual([1, 3, 2])
    expect(toggleKind(list, [1, 3, 2], (d) => d.buyVipType === 'VIP')).toEqual([2])
    // an expired phone is never added by a kind
    expect(toggleKind(list, [], (d) => d.buyVipType === 'STAR')).toEqual([])
  })

  it('drops a phone that left the list or expired, keeping the order of the rest', () => {
    const after = list.filter((d) => d.userCardId !== 2)
    expect(pruneChoice(after, [3, 2, 1, 4])).toEqual({ kept: [3, 1], dropped: [2, 4] })
  })

  it('reads the route\'s ids: positive integers, once each, at most the account maximum', () => {
    expect(parseIds('3,1,x,-2,1.5,3,,7')).toEqual([3, 1, 7])
    expect(parseIds(undefined)).toEqual([])
    expect(parseIds(Array.from({ length: 70 }, (_, i) => i + 1).join(','))).toHaveLength(60)
  })
})
