// The browsers the tests, the bench and the measuring scripts launch keep Playwright's disabled features: Chromium
// honours only the last --disable-features, so ours must carry Playwright's whole list (tests/chromium.ts).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { chromiumArgs, chromiumArgsDisabling, ownDisabledFeatures, playwrightDisabledFeatures } from '../../chromium.ts'

const installedPlaywrightList = (): string[] => {
  const root = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'))
  const bundle = readFileSync(join(root, 'lib', 'coreBundle.js'), 'utf8')
  const list = bundle.match(/disabledFeatures = \[([\s\S]*?)\]/)?.[1]
  if (list === undefined) throw new Error('playwright-core no longer declares its disabledFeatures list where this test reads it')
  return [...list.matchAll(/^\s*"([A-Za-z0-9]+)"/gm)].map((m) => m[1]!)
}

describe('chromium flags', () => {
  it('name every feature the installed Playwright disables', () => {
    const installed = installedPlaywrightList()
    expect(installed.length).toBeGreaterThan(5)
    expect(playwrightDisabledFeatures).toEqual(expect.arrayContaining(installed))
  })

  it('pass one --disable-features, with our own features in it', () => {
    const switches = chromiumArgs.filter((a) => a.startsWith('--disable-features='))
    expect(switches).toHaveLength(1)
    expect(switches[0]!.split('=')[1]!.split(',')).toEqual(expect.arrayContaining([...playwrightDisabledFeatures, ...ownDisabledFeatures]))
  })

  it("add a caller's features to that one --disable-features", () => {
    const switches = chromiumArgsDisabling(['SpareRendererForSitePerProcess']).filter((a) => a.startsWith('--disable-features='))
    expect(switches).toHaveLength(1)
    expect(switches[0]!.split('=')[1]!.split(',')).toEqual(
      expect.arrayContaining([...playwrightDisabledFeatures, ...ownDisabledFeatures, 'SpareRendererForSitePerProcess']),
    )
  })
})
