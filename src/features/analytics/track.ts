// Fire-and-forget analytics through the core: never awaited by a screen, never shown (the endpoints fail silently).
import type { CallArgs } from '../../../worker/protocol/commands.ts'
import type { CoreClient } from '../../core/types.ts'

type Api = Pick<CoreClient['api'], 'call'>

export const track = (api: Api, pointName: string): void => {
  void Promise.resolve(api.call('stat', { pointName })).catch(() => undefined)
}

type ReportName = 'reportRecords' | 'addUserVisit' | 'addActiveRecord'

export const report = <N extends ReportName>(api: Api, name: N, ...payload: CallArgs<N>): void => {
  void Promise.resolve(api.call(name, ...payload)).catch(() => undefined)
}
