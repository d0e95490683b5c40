// What the runner hands every part: the mode, the browser, the bench page server, the push sources.
import type { Browser } from 'playwright-core'
import type { BenchPages } from './bench-pages.ts'
import type { PushSource } from './push-source.ts'
import type { ReferenceServer } from './reference-server.ts'

export interface BenchContext {
  readonly quick: boolean
  readonly browser: Browser
  readonly pages: BenchPages
  /** the bench push server the baselines connect to. */
  readonly push: PushSource
  /** the reference server in a child process, when it could be started; null otherwise (reason in serverError). */
  readonly server: ReferenceServer | null
  readonly serverError: string | null
  /** whether the product's tab-side core client exists yet (src/core/connect.ts and worker/main.ts). */
  readonly productCore: boolean
  readonly log: (message: string) => void
  /**
   * Records a run that was not started because the part's time budget ran out (bench/lib/path-session.ts): the runner
   * lists it under the part's `skipped` and the bench fails, since a run that did not happen proves nothing.
   */
  readonly skipped: (run: string) => void
}
