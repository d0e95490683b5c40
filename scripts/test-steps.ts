// The suites `npm test` (scripts/test.ts) runs, in order. A committed `.only` fails every one of them, CI or not
// (vitest --allowOnly=false, Playwright --forbid-only): otherwise a suite would pass by running one test
// (tests/unit/system/test-steps.test.ts holds every step to it).
export type Step = readonly [name: string, cmd: string, args: ReadonlyArray<string>, env?: Record<string, string>]

export const steps: ReadonlyArray<Step> = [
  ['typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['unit', 'npx', ['vitest', 'run', '--allowOnly=false', '--project', 'unit']],
  // the server suite again on a real PostgreSQL (a throwaway cluster the project's global setup starts)
  ['unit-postgres', 'npx', ['vitest', 'run', '--allowOnly=false', '--project', 'unit-postgres']],
  ['browser', 'npx', ['vitest', 'run', '--allowOnly=false', '--project', 'browser']],
  ['build', 'npx', ['vite', 'build', '--logLevel', 'warn']],
  ['e2e', 'npx', ['playwright', 'test', '--forbid-only', '-c', 'tests/e2e/playwright.config.ts']],
  // the same server on PostgreSQL: login and device list (01), every push type (02), purchases paid (06)
  // issue 40 item 5: the multi-tab, push, viewer and kill tests once more in a browser without SharedWorker (a
  // dedicated core per tab, src/core/connect.ts)
  ['e2e-fallback', 'npx', ['playwright', 'test', '--forbid-only', '-c', 'tests/e2e/playwright.config.ts', '--output', 'test-results/e2e-fallback', '02-push', '22-phone-stream', '26-worker-death', '27-exactly-once'], { E2E_NO_SHARED_WORKER: '1' }],
  ['e2e-postgres', 'npx', ['playwright', 'test', '--forbid-only', '-c', 'tests/e2e/playwright.config.ts', '--output', 'test-results/e2e-postgres', '01-skeleton', '02-push', '06-pay'], { E2E_DATABASE: 'postgres' }],
]
