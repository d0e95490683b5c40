// Page records wait in a queue and go out in batches of the report size, or when drained.
import { describe, expect, it } from 'vitest'
import { Points, recordQueue } from '../../../src/features/analytics/points.ts'
import { POINT_NAME } from '../../../worker/protocol/analytics.ts'

const record = (i: number) => ({ pointName: Points.pageView, pagePath: `/p${i}`, time: i })

describe('page record queue', () => {
  it('hands out a full batch at the limit and keeps nothing twice', () => {
    const q = recordQueue(3)
    expect(q.add(record(1))).toBeNull()
    expect(q.add(record(2))).toBeNull()
    expect(q.add(record(3))?.map((r) => r.pagePath)).toEqual(['/p1', '/p2', '/p3'])
    expect(q.size).toBe(0)
    q.add(record(4))
    expect(q.drain().map((r) => r.pagePath)).toEqual(['/p4'])
    expect(q.drain()).toEqual([])
  })

  it('names every point so the server accepts it', () => {
    for (const name of [Points.adClick, Points.purchaseOrder, Points.pay('alipayH5'), Points.shareInvite, Points.pageView]) {
      expect(POINT_NAME.test(name), name).toBe(true)
    }
  })
})
