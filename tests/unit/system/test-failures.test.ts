// `npm test` repeats each failed suite's failure lines at its end (scripts/test-failures.ts): from vitest's and
// Playwright's own output, without colours, each once, and not the passing lines around them.
import { describe, expect, it } from 'vitest'
import { failureLines, reloadedTestPage } from '../../../scripts/test-failures.ts'

describe('failure lines of a suite', () => {
  it('keeps vitest\'s failed test, its reason and the error, once each', () => {
    const output = [
      ' ✓ unit-postgres  tests/unit/a.test.ts (3 tests) 120ms',
      ' \x1b[31m❯\x1b[39m unit-postgres  tests/unit/b.test.ts (2 tests | 1 failed) 90ms',
      '   \x1b[31m×\x1b[39m the unknown phone takes as long 40ms',
      '     → expected 3 to be greater than 5',
      ' FAIL   unit-postgres  tests/unit/b.test.ts > timing > the unknown phone takes as long',
      'AssertionError: expected 3 to be greater than 5',
      'AssertionError: expected 3 to be greater than 5',
      '   Test Files  1 failed | 1 passed (2)',
    ].join('\n')
    expect(failureLines(output)).toEqual([
      '   × the unknown phone takes as long 40ms',
      '     → expected 3 to be greater than 5',
      ' FAIL   unit-postgres  tests/unit/b.test.ts > timing > the unknown phone takes as long',
      'AssertionError: expected 3 to be greater than 5',
    ])
  })

  it('keeps Playwright\'s numbered failure and its error', () => {
    const output = [
      '  ✓   59 tests/e2e/10-x.e2e.ts:12:1 › passes (2.0s)',
      '  1) tests/e2e/11-multi-tab-session.e2e.ts:40:1 › logging in as another account ',
      '    Error: previous account device names appearing after the login click',
      '    expect(received).toEqual(expected) // deep equality',
      '  1 failed',
    ].join('\n')
    expect(failureLines(output)).toEqual([
      '  1) tests/e2e/11-multi-tab-session.e2e.ts:40:1 › logging in as another account',
      '    Error: previous account device names appearing after the login click',
    ])
  })

  it('keeps at most 40 lines, each at most 300 characters', () => {
    const lines = failureLines(Array.from({ length: 100 }, (_, i) => `Error: ${i} ${'x'.repeat(400)}`).join('\n'))
    expect(lines).toHaveLength(40)
    expect(lines[0]!.length).toBe(301)
  })

  it('fails a suite in which Vite reloaded a test page, and names the dependency it found late', () => {
    const output = [
      ' ✓  browser (chromium)  tests/browser/viewer-frame.test.ts (2 tests) 394ms',
      '12:30:53 PM [vite] (client) dependency optimized: antd-mobile/es/global',
      '12:30:53 PM [vite] (client) optimized dependencies changed. reloading',
      '[vitest] Vite unexpectedly reloaded a test. This may cause tests to fail, lead to flaky behaviour or duplicated test runs.',
      ' ✓  browser (chromium)  tests/browser/shared-core.test.ts (2 tests) 4183ms',
    ].join('\n')
    expect(reloadedTestPage(output)).toBe(true)
    expect(failureLines(output)).toEqual(['12:30:53 PM [vite] (client) dependency optimized: antd-mobile/es/global'])
    expect(reloadedTestPage(' ✓  browser (chromium)  tests/browser/shared-core.test.ts (2 tests) 4183ms')).toBe(false)
  })
})
