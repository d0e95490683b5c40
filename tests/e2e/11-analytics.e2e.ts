// Analytics as this file's member account: a sign-in and a launch with a session each report a visit and an active record, the pages
// a tab shows go out as page records when it hides, and sharing the invitation is a statistic point; the operator
// counts them with `npm run ops -- stats`.
import { test, expect } from './fixtures.ts'
import { appUrl, login, newWorld, ops, type FixtureWorld } from './helpers.ts'

let world: FixtureWorld
test.beforeAll(async () => { world = await newWorld() })

interface Counts {
  statPoints: Array<{ name: string; count: number }>
  pageRecords: Array<{ name: string; count: number }>
  userVisits: number
  activeRecords: number
}
const stats = async (): Promise<Counts> => JSON.parse(await ops('stats', '--json')) as Counts
const countOf = (list: Counts['statPoints'], name: string) => list.find((p) => p.name === name)?.count ?? 0

test('sign-in, launch, pages and sharing are counted for the operator', async ({ context }) => {
  const before = await stats()
  const first = await context.newPage()
  await login(first, world.accounts.member)
  await expect(first.getByTestId('device-item').first()).toBeVisible()
  await first.goto(appUrl('/package/personalInfo/personalInfo'))
  await first.getByTestId('invite-share').click()

  const second = await context.newPage()
  await second.goto(appUrl('/'))
  await expect(second.getByTestId('device-item').first()).toBeVisible()
  // closing the first tab hides it: its page records go out through the core the second tab keeps alive
  await first.close()

  await expect.poll(async () => {
    const now = await stats()
    return {
      visits: now.userVisits - before.userVisits >= 2,
      active: now.activeRecords - before.activeRecords >= 2,
      pages: countOf(now.pageRecords, 'page_view') - countOf(before.pageRecords, 'page_view') >= 2,
      share: countOf(now.statPoints, 'share_invite') - countOf(before.statPoints, 'share_invite') === 1,
    }
  }, { timeout: 20_000 }).toEqual({ visits: true, active: true, pages: true, share: true })
  expect(await ops('stats')).toContain('页面记录（reportRecords）：')
})
