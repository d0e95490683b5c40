// The core's configuration as an Effect service; the values and the test override live in core-config-values.ts.
import * as Context from 'effect/Context'
import * as Layer from 'effect/Layer'
import type { CoreConfigShape } from './core-config-values.ts'

export * from './core-config-values.ts'

export class CoreConfig extends Context.Service<CoreConfig, CoreConfigShape>()('cloud-phone/CoreConfig') {
  static readonly layer = (config: CoreConfigShape) => Layer.succeed(CoreConfig, config)
}
