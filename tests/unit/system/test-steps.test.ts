// Issue 21 item 4: a committed `.only` must fail `npm test`, CI or not. Every vitest step refuses it
// (--allowOnly=false) and every Playwright step forbids it (--forbid-only); the configs refuse it with CI set too.
import { describe, expect, it } from 'vitest'
import { steps } from '../../../scripts/test-steps.ts'

describe('npm test steps', () => {
  it('every vitest run refuses .only', () => {
    const vitest = steps.filter(([, , args]) => args[0] === 'vitest')
    expect(vitest.map(([name]) => name)).toEqual(['unit', 'unit-postgres', 'browser'])
    for (const [name, , args] of vitest) expect(args, name).toContain('--allowOnly=false')
  })

  it('every Playwright run forbids .only', () => {
    const playwright = steps.filter(([, , args]) => args[0] === 'playwright')
    expect(playwright.map(([name]) => name)).toEqual(['e2e', 'e2e-fallback', 'e2e-postgres'])
    for (const [name, , args] of playwright) expect(args, name).toContain('--forbid-only')
  })
})
